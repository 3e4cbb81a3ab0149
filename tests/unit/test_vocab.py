"""Tests for lmcore.text.vocab.Vocabulary: ids, <unk>, the documented sizes, errors."""

import numpy as np
import pytest

from lmcore.text import BOS_ID, EOS_ID, TOY_TEST, TOY_TRAIN, UNK, UNK_ID, Vocabulary


def test_markers_come_first_then_words_by_frequency_then_alphabet():
    v = Vocabulary.build(TOY_TRAIN)
    assert v.tokens[:3] == ("<unk>", "<s>", "</s>") and (UNK_ID, BOS_ID, EOS_ID) == (0, 1, 2)
    assert v.words == ("i", "spent", "before", "mast", "money", "the", "three", "years")


def test_documented_sizes():
    v = Vocabulary.build(TOY_TRAIN)
    assert v.n_words == 8
    assert len(v) == v.n_words + 3 == 11  # words + <unk>, <s>, </s>



def test_the_v_of_add_k_is_the_models_outcomes_not_a_vocabulary_size():
    from lmcore.ngram import AddK

    v = Vocabulary.build(TOY_TRAIN)
    standard = AddK(2, k=1).fit(TOY_TRAIN, vocab=v)  # words, <unk>, </s>
    course = AddK(2, k=1, convention="course").fit(TOY_TRAIN, vocab=v)  # words only
    nltk_like = AddK(2, k=1, convention="nltk").fit(TOY_TRAIN, vocab=v)  # nltk's len(vocab): <s> too
    assert [len(m.outcomes) for m in (standard, course, nltk_like)] == [10, 8, 11]
    for model in (standard, course, nltk_like):  # the unigram of each divides by its own |V|
        assert model.prob("spent") == (model.count("spent") + 1) / (model.context_count() + len(model.outcomes))


def test_min_count_maps_rare_words_to_unk():
    v = Vocabulary.build(TOY_TRAIN, min_count=2)
    assert v.words == ("i", "spent") and len(v) == 5
    ids = v.encode(TOY_TEST[0])
    assert ids.dtype == np.int32
    assert ids.tolist() == [3, 4, 0, 0, 0, 0, 0]
    assert v.decode(ids) == ["i", "spent"] + [UNK] * 5
    assert v.oov_rate(TOY_TEST) == pytest.approx(5 / 7)
    assert v.id("whale") == UNK_ID and "whale" not in v


def test_ids_do_not_depend_on_sentence_order():
    forward = Vocabulary.build(TOY_TRAIN)
    backward = Vocabulary.build(list(reversed(TOY_TRAIN)))
    assert forward.tokens == backward.tokens
    assert forward.encode(TOY_TEST[0]).tolist() == backward.encode(TOY_TEST[0]).tolist()


def test_markers_in_training_text_are_not_words():
    v = Vocabulary.build([["<s>", "a", "</s>", "<unk>"]])
    assert v.words == ("a",)


def test_errors():
    with pytest.raises(ValueError, match="min_count"):
        Vocabulary.build(TOY_TRAIN, min_count=0)
    with pytest.raises(TypeError, match=r"\(split each sentence into tokens\), got a str"):
        Vocabulary.build(["i spent money"])
    with pytest.raises(ValueError, match="empty"):
        Vocabulary.build([])
    with pytest.raises(TypeError, match="str tokens"):
        Vocabulary.build(TOY_TRAIN).encode(["i", 3])
    with pytest.raises(ValueError, match="distinct"):
        Vocabulary(["a", "a"])
    with pytest.raises(ValueError, match="no tokens"):
        Vocabulary.build(TOY_TRAIN).oov_rate([[]])


@pytest.mark.parametrize("ids, error, words", [
    ([-1], ValueError, r"^ids holds -1, which is not an id of this vocabulary \(0\.\.10\)$"),  # was the last word
    ([99], ValueError, r"^ids holds 99, which is not an id of this vocabulary"),  # was an IndexError
    ([10**30], ValueError, "ids holds 1000000000000000000000000000000"),
    (np.array([-1, 3]), ValueError, "ids holds -1"),
    ([1.5], TypeError, "^ids must hold int ids, got float 1.5$"),  # was <s>
    ([True], TypeError, "^ids must hold int ids, got bool True$"),  # was <s>
    (["3"], TypeError, "^ids must hold int ids, got str '3'$"),  # was "before"
    ("3", TypeError, "^ids must be a sequence of int ids, got str$"),
    (3, TypeError, "^ids must be a sequence of int ids, got int$"),
    (np.array([3.0]), TypeError, "^ids must hold int ids, got dtype float64$"),
    (np.array([[3]]), ValueError, r"^ids must be one-dimensional, got shape \(1, 1\)$"),
])
def test_decode_takes_only_the_vocabularys_ids(ids, error, words):
    with pytest.raises(error, match=words):
        Vocabulary.build(TOY_TRAIN).decode(ids)


def test_decode_of_ids_in_range():
    v = Vocabulary.build(TOY_TRAIN)
    assert v.decode([]) == [] and v.decode(np.array([], dtype=np.int64)) == []
    assert v.decode(np.array([3, 10], dtype=np.int32)) == ["i", "years"] == v.decode((3, np.int64(10)))


def test_the_constructor_checks_its_words_as_build_checks_its_tokens():
    with pytest.raises(TypeError, match="^words must contain only str tokens, got int 1$"):
        Vocabulary([1, 2])  # was accepted: ids 3 and 4 for the ints
    with pytest.raises(TypeError, match="^words must be a sequence of tokens"):
        Vocabulary("ab")  # was the words "a" and "b"
    with pytest.raises(TypeError, match="^words must be a sequence of tokens"):
        Vocabulary(None)
    with pytest.raises(TypeError, match="^min_count must be an int, got str$"):
        Vocabulary(["a"], min_count="x")
    with pytest.raises(ValueError, match="^min_count must be at least 1, got 0$"):
        Vocabulary(["a"], min_count=0)
    assert Vocabulary(w for w in ["a", "b"]).words == ("a", "b")  # a generator of words is read once


def test_a_token_is_a_str():
    v = Vocabulary.build(TOY_TRAIN)
    with pytest.raises(TypeError, match="^token must be a str, got int$"):
        v.id(5)  # was <unk>'s id
    with pytest.raises(TypeError, match="^token must be a str, got list$"):
        v.id(["i"])  # was "unhashable type: 'list'"
    assert ["i"] not in v and 5 not in v and "i" in v  # a container answers False for what it cannot hold
    with pytest.raises(TypeError, match="^sentences must be a list of token lists, got str$"):
        v.encode_all("i spent")
