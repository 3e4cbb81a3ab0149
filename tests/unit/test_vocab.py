"""Tests for lmcore.vocab.Vocabulary: ids, <unk>, the documented sizes, errors."""

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
