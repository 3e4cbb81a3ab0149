"""lmcore.evaluate.unit_table (chapter 7, section 2): models over words, BPE pieces and characters
of one test text, each scored as score_text scores it, with one denominator that is checked."""

import pytest

from lmcore.coding import fit_speller
from lmcore.evaluate import characters, count_characters, evaluate, score_text, texts, unit_table
from lmcore.ngram import AddK, KneserNey
from lmcore.text import TOY_TEST, TOY_TRAIN, UNK_ID, Vocabulary, train_bpe

WORDS = (TOY_TRAIN, TOY_TEST)
CHARS = tuple(characters(part) for part in WORDS)


@pytest.fixture(scope="module")
def pieces():
    bpe = train_bpe(TOY_TRAIN, 26)
    return tuple(bpe.encode(part) for part in WORDS)


@pytest.fixture(scope="module")
def models(pieces):
    word_vocab = Vocabulary.build(TOY_TRAIN, min_count=2)   # most toy words are seen once: unknown
    return {("word", "Kneser-Ney 2-gram"): KneserNey(2).fit(TOY_TRAIN, vocab=word_vocab),
            ("bpe", "add-one 2-gram"): AddK(2).fit(pieces[0]),
            ("char", "add-one 3-gram"): AddK(3).fit(CHARS[0])}


def test_every_row_is_score_text_with_the_one_denominator(pieces, models):
    table = unit_table({"word": WORDS, "bpe": pieces, "char": CHARS}, models)
    n_characters = count_characters(texts(TOY_TEST, "word"))
    assert (table.n_characters, table.n_sentences) == (n_characters, len(TOY_TEST)) == (36, 1)
    assert list(table.scores) == list(models)
    unit_of = {"word": WORDS, "bpe": pieces, "char": CHARS}
    for (unit, label), score in table.scores.items():
        train, test = unit_of[unit]
        unknown = any(models[unit, label].vocab.id(t) == UNK_ID for s in test for t in s)
        expected = score_text(models[unit, label], test, n_characters, fit_speller(train) if unknown else None)
        assert score == expected
        assert score.bits_per_character == pytest.approx((score.token_bits + score.spelling_bits) / n_characters)


def test_unknown_words_are_spelled_and_paid_for(models):
    table = unit_table({"word": WORDS}, {key: m for key, m in models.items() if key[0] == "word"})
    (score,) = table.scores.values()
    assert score.n_unknown > 0 and score.spelling_bits > 0
    assert score.bits_per_character > score.token_bits / table.n_characters


def test_a_computed_result_is_used_and_must_match(models):
    key = ("char", "add-one 3-gram")
    result = evaluate(models[key], CHARS[1])
    table = unit_table({"char": CHARS}, {key: models[key]}, results={key: result})
    assert table.scores[key].perplexity == result.perplexity
    wrong = evaluate(models[key], CHARS[0])
    with pytest.raises(ValueError, match="result must be"):
        unit_table({"char": CHARS}, {key: models[key]}, results={key: wrong})


def test_the_format_shows_one_row_per_model(pieces, models):
    table = unit_table({"word": WORDS, "bpe": pieces, "char": CHARS}, models)
    lines = table.format().splitlines()
    assert lines[0] == "36 characters in 1 test sentences" and "spelling" in lines[1] and len(lines) == 2 + 3
    for line, ((unit, _), score) in zip(lines[2:], table.scores.items()):
        row = line.split()
        assert row[0] == unit and row[-1] == f"{score.bits_per_character:.4f}"
        assert row[-2] == f"{score.spelling_bits / table.n_characters:.4f}"


def test_chinese_words_are_joined_without_spaces():
    words = ([["中国", "人民"], ["人民", "中国"]], [["中国", "人民"]])
    chars = tuple(characters(part, "") for part in words)
    models = {("word", "add-one"): AddK(1).fit(words[0]), ("char", "add-one"): AddK(1).fit(chars[0])}
    assert unit_table({"word": words, "char": chars}, models, "").n_characters == 5   # 中国人民 and the line break
    with pytest.raises(ValueError, match="different texts"):
        unit_table({"word": words, "char": chars}, models)   # joined by spaces: 中国 人民, 6 characters


@pytest.mark.parametrize("units, models, error", [
    ({}, {("word", "m"): AddK(1).fit(TOY_TRAIN)}, TypeError),
    ({"words": WORDS}, {("words", "m"): AddK(1).fit(TOY_TRAIN)}, TypeError),      # not a unit of UNITS
    ({"word": WORDS}, {}, TypeError),
    ({"word": WORDS}, {("char", "m"): AddK(1).fit(TOY_TRAIN)}, ValueError),       # a unit without sentences
    ({"word": WORDS}, {"m": AddK(1).fit(TOY_TRAIN)}, ValueError),                 # a key that is not (unit, label)
    ({"word": TOY_TEST}, {("word", "m"): AddK(1).fit(TOY_TRAIN)}, TypeError),     # not (training, test)
    ({"word": WORDS}, {("word", "m"): "a model"}, TypeError),
    ({"word": WORDS, "char": (CHARS[0], CHARS[0])}, {("word", "m"): AddK(1).fit(TOY_TRAIN)}, ValueError),
])
def test_odd_input_gets_a_named_error(units, models, error):
    with pytest.raises(error):
        unit_table(units, models)
