import math

import pytest

from lmcore import exercises as ex


def test_unanswered_is_neither_right_nor_wrong():
    for check in [ex.check_better_model, ex.check_ab_perplexity, ex.check_ab_cross_entropy,
                  ex.check_uniform_perplexity, ex.check_sentence_perplexity_with_eos, ex.check_corpus_perplexity]:
        assert check(None).correct is None


@pytest.mark.parametrize("answer, correct, words", [
    ("A", True, "lower perplexity is better"),
    (" a ", True, "lower perplexity"),
    ("B", False, "more confused"),
    ("C", False, "answer one of A, B"),
])
def test_better_model(answer, correct, words):
    feedback = ex.check_better_model(answer)
    assert feedback.correct is correct and words in feedback.message


@pytest.mark.parametrize("answer, correct, words", [
    (2.5, True, "Correct"),
    ("2.5", True, "Correct"),
    (2.2361, False, "log2(0.2)"),
    (6.25, False, "N-th root"),
    (0.4, False, "without inverting"),
    (1.3219, False, "cross-entropy"),
    (3.0, False, "is not it"),
    ("two and a half", False, "expected a number"),
])
def test_ab_perplexity_recognises_typical_mistakes(answer, correct, words):
    feedback = ex.check_ab_perplexity(answer)
    assert feedback.correct is correct and words in feedback.message


@pytest.mark.parametrize("answer, correct, words", [
    (1.3219, True, "Correct"),
    (0.9163, False, "natural log"),
    (1.1610, False, "log2(0.2)"),
    (2.6439, False, "without dividing"),
    (0.3979, False, "log10"),
])
def test_ab_cross_entropy_recognises_natural_log_and_others(answer, correct, words):
    feedback = ex.check_ab_cross_entropy(answer)
    assert feedback.correct is correct and words in feedback.message


def test_uniform_perplexity():
    assert ex.check_uniform_perplexity(26).correct
    assert "cross-entropy" in ex.check_uniform_perplexity(math.log2(26)).message
    assert "inverse" in ex.check_uniform_perplexity(1 / 26).message


@pytest.mark.parametrize("answer, correct, words", [
    (16 ** (1 / 3), True, "Correct"),
    (8 ** 0.5, False, "forgetting </s>"),
    (4.0, False, "not counting it"),
    (2.0, False, "counting <s>"),
])
def test_sentence_perplexity_recognises_a_forgotten_end_marker(answer, correct, words):
    feedback = ex.check_sentence_perplexity_with_eos(round(answer, 4))
    assert feedback.correct is correct and words in feedback.message


@pytest.mark.parametrize("answer, correct, words", [
    (40000 ** (1 / 6), True, "Correct"),
    (6.0, False, "averaging the two sentence perplexities"),
    (20 ** 0.5, False, "geometric mean"),
])
def test_corpus_perplexity_recognises_a_mean_of_sentence_perplexities(answer, correct, words):
    feedback = ex.check_corpus_perplexity(round(answer, 4))
    assert feedback.correct is correct and words in feedback.message


def test_feedback_renders_as_text_and_html():
    feedback = ex.check_ab_perplexity(2.5)
    assert str(feedback) == repr(feedback) == "Correct: 2.5000."
    assert "<p" in feedback._repr_html_() and "#1b7a2f" in feedback._repr_html_()
