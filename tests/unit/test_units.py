"""lmcore.evaluate.units and lmcore.text.subwords: one denominator for every tokenization, BPE pieces that spell
the text out exactly, unknown tokens paid for as chapter 3's coder pays for them."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lmcore import coding
from lmcore.evaluate import units
from lmcore.lm import TokenScores
from lmcore.ngram import AddK, KneserNey
from lmcore.text import METASPACE, TOY_TEST, TOY_TRAIN, load_bpe, load_stored_bpe, train_bpe

TOY = [list(s) for s in TOY_TRAIN]
ENGLISH = [s.split() for s in ("in the beginning god created the heavens and the earth",
                               "the earth was formless and empty", "god said let there be light",
                               "and there was light", "god saw the light and saw that it was good")]
CHINESE = [["迈向", "充满", "希望", "的", "新", "世纪"], ["中国", "人民", "迈向", "新", "世纪"], ["希望", "的", "中国"]]


@pytest.fixture(scope="module")
def english_bpe():
    return train_bpe(ENGLISH, 60)


@pytest.fixture(scope="module")
def chinese_bpe():
    return train_bpe(CHINESE, 30, separator="")


def test_bpe_learns_the_merges_by_hand():
    """The first merges on the toy corpus, counted by hand: every pair seen twice, ties to the first units."""
    bpe = train_bpe(TOY, 26)
    assert bpe.merges[:4] == [("e", "n"), ("p", "en"), ("r", "e"), ("s", "pen")]
    assert bpe.vocab_size == 26
    assert train_bpe(TOY, 26).tokenizer.to_str() == bpe.tokenizer.to_str()  # the same text, the same tokenizer


def test_english_pieces_mark_word_starts_and_never_cross_words(english_bpe):
    pieces = english_bpe.encode(ENGLISH)
    for sentence, sentence_pieces in zip(ENGLISH, pieces):
        assert sum(p.startswith(METASPACE) for p in sentence_pieces) == len(sentence)
        assert english_bpe.decode(sentence_pieces) == " ".join(sentence)
        assert all(METASPACE not in p[1:] for p in sentence_pieces)


def test_chinese_pieces_may_join_words(chinese_bpe):
    pieces = chinese_bpe.encode(CHINESE)
    assert ["".join(p) for p in pieces] == ["".join(s) for s in CHINESE]
    assert any(len(p) > 1 for s in pieces for p in s)


def test_an_unseen_character_stays_itself(english_bpe, chinese_bpe):
    (pieces,) = english_bpe.encode([["god", "saw", "ω"]])
    assert "ω" in pieces and "<unk>" not in pieces and english_bpe.decode(pieces) == "god saw ω"
    (pieces,) = chinese_bpe.encode([["中国", "龘"]])
    assert pieces[-1] == "龘"


@settings(max_examples=20)
@given(st.lists(st.lists(st.text("abcdeghilnorstw'-é", min_size=1, max_size=8), min_size=1, max_size=6),
                min_size=1, max_size=4))
def test_pieces_always_spell_the_text(english_bpe, sentences):
    pieces = english_bpe.encode(sentences)
    assert units.texts(pieces, "bpe") == [" ".join(s) for s in sentences]
    assert [english_bpe.decode(p) for p in pieces] == [" ".join(s) for s in sentences]


def test_one_denominator_for_words_pieces_and_characters(english_bpe, chinese_bpe):
    for sentences, bpe, separator in ((ENGLISH, english_bpe, " "), (CHINESE, chinese_bpe, "")):
        chars = units.characters(sentences, separator)
        by_unit = {
            "word": units.count_characters(units.texts(sentences, "word", separator)),
            "bpe": units.count_characters(units.texts(bpe.encode(sentences), "bpe")),
            "char": units.count_characters(units.texts(chars, "char")),
        }
        assert len(set(by_unit.values())) == 1, by_unit
        # ... which is the number of tokens a character model predicts: the characters and one </s> each
        assert by_unit["char"] == sum(len(s) + 1 for s in chars)
        # ... and one more than chapter 3's coded text, which has no line break after the last sentence
        assert by_unit["word"] == len(coding.join_text(sentences, separator)) + 1


def test_english_characters_count_spaces_and_line_breaks():
    assert units.count_characters(units.texts(TOY, "word")) == (17 + 14 + 13) + 3 + 3  # letters, spaces, breaks
    assert units.characters([["i", "spent"]]) == [["i", " ", "s", "p", "e", "n", "t"]]


def test_score_text_pays_for_unknown_words_as_chapter_3_does():
    model = KneserNey(2).fit(ENGLISH)
    speller = coding.fit_speller(ENGLISH)
    test = [["god", "saw", "the", "darkness"], ["let", "there", "be", "water"]]
    n_chars = units.count_characters(units.texts(test, "word"))
    score = units.score_text(model, test, n_chars, speller)
    assert score.n_unknown == 2 and score.n_tokens == 10
    total = coding.surprisal_bits(model, test, speller)
    assert score.token_bits + score.spelling_bits == pytest.approx(total, rel=1e-12)
    assert score.bits_per_character == pytest.approx(total / n_chars)
    assert score.perplexity == pytest.approx(2 ** score.bits_per_token)
    with pytest.raises(ValueError, match="pass a speller"):
        units.score_text(model, test, n_chars)
    # a result computed before gives the same score without scoring again, and must fit the sentences
    from lmcore.evaluate import evaluate
    again = units.score_text(model, test, n_chars, speller, result=evaluate(model, test))
    assert again == score
    with pytest.raises(ValueError, match="result must be evaluate"):
        units.score_text(model, test[:1], n_chars, speller, result=evaluate(model, test))
    with pytest.raises(ValueError, match="result must be evaluate"):
        units.score_text(model, test, n_chars, speller, result=evaluate(model, test, unknown="exclude"))


def test_a_character_the_speller_never_saw_costs_its_code_point():
    speller = coding.fit_speller(ENGLISH)
    assert units.spelling_bits(speller, []) == 0.0
    known, unknown = units.spelling_bits(speller, ["a"]), units.spelling_bits(speller, ["ω"])
    assert unknown > math.log2(coding.CODE_POINTS) > known


def test_the_toy_corpus_per_token_and_per_character():
    model = AddK(2).fit(TOY)
    n_chars = units.count_characters(units.texts(TOY_TEST, "word"))
    score = units.score_text(model, TOY_TEST, n_chars)
    assert n_chars == 36 and score.n_tokens == 8 and score.n_unknown == 0
    assert score.bits_per_character == pytest.approx(units.per_character(score.bits_per_token, 8, 36))


@pytest.mark.parametrize("call, error, words", [
    (lambda: units.texts([["a"]], "byte"), ValueError, "unit must be one of"),
    (lambda: units.texts("a b", "word"), TypeError, "sentences must be a list of token lists"),
    (lambda: units.texts([["a"]], "word", separator=None), TypeError, "separator must be a str"),
    (lambda: units.count_characters("abc"), TypeError, "sentence_texts must be a list of str"),
    (lambda: units.spelling_bits(None, ["a", ""]), TypeError, "words must be a list of non-empty str"),
    (lambda: units.score_text(AddK(1).fit(TOY), TOY_TEST, 0), ValueError, "n_characters must be at least 1"),
    (lambda: units.per_character(1.0, 0, 5), ValueError, "n_tokens must be at least 1"),
    (lambda: train_bpe(TOY, 1), ValueError, "vocab_size must be at least 2"),
    (lambda: train_bpe(TOY, 30, separator="_"), ValueError, "separator must be"),
    (lambda: train_bpe([[]], 30), ValueError, "sentences is empty"),
    (lambda: train_bpe([["a", 1]], 30), TypeError, r"sentences\[0\] must contain only str tokens"),
    (lambda: train_bpe(TOY, 30).decode("abc"), TypeError,
     r"pieces must be a sequence of tokens \(e.g. a list of str\), got str"),
])
def test_bad_input_is_named(call, error, words):
    with pytest.raises(error, match=words):
        call()


# --- odd inputs: the right number or an error that names the argument -------------------------------


@pytest.mark.parametrize("call, error, words", [
    # bits per token are -log2 of probabilities <= 1: never negative (was -3.0 bits per character)
    (lambda: units.per_character(-3.0, 100, 500), ValueError,
     r"^bits_per_token must be at least 0 \(bits are -log2 of a probability <= 1\), got -3\.0$"),
    (lambda: units.per_character(math.nan, 100, 500), ValueError, "^bits_per_token is NaN"),
    (lambda: units.per_character("3", 100, 500), TypeError, "^bits_per_token must be a number, got str$"),
    (lambda: units.per_character(True, 100, 500), TypeError, "^bits_per_token must be a number, got bool$"),
    (lambda: units.count_characters(5), TypeError, "sentence_texts must be a list of str"),
    (lambda: units.spelling_bits("speller", ["a"]), TypeError, "^speller must be a fitted lmcore language model"),
    (lambda: units.score_text(AddK(1).fit(TOY), [["i", "zz"]], 9, speller="x"), TypeError,
     "^speller must be a fitted lmcore language model"),
    (lambda: units.score_text(AddK(1).fit(TOY), TOY_TEST, 9, result=5), TypeError,
     r"^result must be a PerplexityResult \(evaluate\(model, sentences\)\), got int$"),
])
def test_odd_input_is_named(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_odd_input_with_a_right_number():
    assert units.per_character(math.inf, 100, 500) == math.inf  # a token of probability 0
    assert units.per_character(0.0, 10**400, 1) == 0.0
    assert units.per_character(3.0, 10**400, 1) == math.inf  # was an OverflowError
    assert units.per_character(3.0, 10**400, 10**400) == pytest.approx(3.0)
    assert units.per_character(np.float32(6.0), 100, 500) == pytest.approx(1.2)
    # a generator of texts is counted once (it was read by the type check, then counted as 0)
    assert units.count_characters(t for t in ["ab", "c"]) == 5 == units.count_characters(["ab", "c"])
    speller = coding.fit_speller(ENGLISH)
    assert units.spelling_bits(speller, (w for w in ["god"])) == units.spelling_bits(speller, ["god"]) > 0


# --- the rest of lmcore.evaluate: scoring and the perplexity table ----------------------------------


def test_a_sentence_with_no_counted_token_has_no_perplexity():
    from lmcore.evaluate import sentence_perplexities
    model = AddK(1).fit(TOY)
    # under ppl1 an empty sentence scores </s> but counts no token: NaN, as documented (was inf)
    values = sentence_perplexities(model, [[], ["i"]], eos="ppl1")
    assert math.isnan(values[0]) and math.isfinite(values[1])
    assert math.isnan(sentence_perplexities(model, [[]], eos="exclude")[0])


def test_the_perplexity_table_names_its_lists():
    from lmcore.evaluate import perplexity_table
    split = (TOY * 2, TOY[:1], TOY_TEST)
    with pytest.raises(TypeError, match=r"^methods must be a list \(orders=\[1, 2, 3\], methods=\['kneser-ney'\]\), "
                                        "got str$"):
        perplexity_table(split, methods="add-one")  # was "got ['a', 'd', 'd', '-', 'o', 'n', 'e']"
    with pytest.raises(TypeError, match="^orders must be a list .*got int$"):
        perplexity_table(split, orders=2)  # was "'int' object is not iterable"
    with pytest.raises(ValueError, match="^split.heldout is empty: interpolation fits its λ on held-out sentences$"):
        perplexity_table((TOY, [], TOY_TEST), orders=[1])  # was "sentences is empty"
    assert perplexity_table((TOY, [], TOY_TEST), orders=[1], methods=["add-one"]).perplexities.shape == (1, 1)


def test_bpe_files_are_named_by_path_and_a_missing_one_is_not_found(tmp_path):
    bpe = train_bpe(TOY, 20)
    with pytest.raises(TypeError, match="^path must be a file name"):
        bpe.save(None)  # was a file named "None"
    with pytest.raises(FileNotFoundError, match="no such file .a tokenizer BPE.save wrote.$"):
        load_bpe(tmp_path / "missing.json")  # was a bare Exception from tokenizers
    with pytest.raises(TypeError, match="^name must be a str, got list$"):
        load_stored_bpe(["english"])
    bpe.save(tmp_path / "bpe.json")
    assert load_bpe(str(tmp_path / "bpe.json").encode()).encode([["i"]]) == bpe.encode([["i"]])


def test_a_speller_that_answers_nan_is_refused():
    speller = coding.fit_speller([["ab", "ba"]], min_count=1)
    speller.score_tokens = lambda sentences: FixedScores(math.nan).score_tokens(sentences)
    with pytest.raises(ValueError, match="^model KneserNey gave the log-probability nan"):
        units.spelling_bits(speller, ["ab"])  # was nan bits


class FixedScores:
    """What a model's score_tokens returns, every log-probability ``value``."""

    def __init__(self, value):
        self.value = value

    def score_tokens(self, sentences):
        n = sum(len(s) + 1 for s in sentences)
        return TokenScores(np.full(n, self.value), np.zeros(n, int), np.zeros(n, int), np.arange(n),
                           np.zeros(n, bool), np.zeros(n, bool))
