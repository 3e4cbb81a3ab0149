"""The chapter-5 self-checks (smoothing and interpolation): right answers pass, typical wrong ones get their hint."""

import pytest

from lmcore import exercises as ex

CHAPTER_5_CHECKS = [
    ex.check_interpolated_probability, ex.check_rescue_choice, ex.check_test_set_tuning,
    ex.check_add_one_unseen_bigram, ex.check_add_k_unseen_mass, ex.check_set_for_choosing_k,
]


@pytest.mark.parametrize("check", CHAPTER_5_CHECKS, ids=lambda f: f.__name__)
def test_unanswered_is_neither_right_nor_wrong(check):
    feedback = check(None)
    assert feedback.correct is None and "Not answered yet" in feedback.message


@pytest.mark.parametrize("answer, correct, words", [
    (0.232, True, "Correct: 0.2320"),
    ("0.232", True, "Correct"),
    (0.115, False, "reverse order"),
    (0.17, False, "averaging the three estimates"),
    (0.23, False, "leaving out the unigram term"),
    (0.2, False, "trigram term alone"),
    (0.51, False, "without their weights"),
    (0.3, False, "is not it"),
    ("a quarter", False, "expected a number"),
])
def test_interpolated_probability_recognises_typical_mistakes(answer, correct, words):
    feedback = ex.check_interpolated_probability(answer)
    assert feedback.correct is correct and words in feedback.message


def test_interpolated_probability_is_the_weighted_sum_of_the_stated_numbers():
    lambdas, probs = ex.INTERPOLATION_EXERCISE["lambdas"], ex.INTERPOLATION_EXERCISE["probs"]
    assert sum(lambdas) == pytest.approx(1.0)
    assert ex.check_interpolated_probability(sum(w * p for w, p in zip(lambdas, probs))).correct


@pytest.mark.parametrize("answer, correct, words", [
    ("B", True, "the zero comes back"),
    (" b ", True, "λ1 must be > 0"),
    ("A", False, "rescues the word"),
    ("C", False, "a small weight still rescues"),
    ("D", False, "never gives 0"),
    ("E", False, "answer one of A, B, C, D"),
])
def test_rescue_choice(answer, correct, words):
    feedback = ex.check_rescue_choice(answer)
    assert feedback.correct is correct and words in feedback.message


@pytest.mark.parametrize("answer, correct, words", [
    ("A", True, "Choose on held-out data, report once on the test set"),
    ("B", False, "noise alone goes both ways"),
    ("C", False, "not EM"),
    ("D", False, "no longer an estimate"),
])
def test_test_set_tuning(answer, correct, words):
    feedback = ex.check_test_set_tuning(answer)
    assert feedback.correct is correct and words in feedback.message


@pytest.mark.parametrize("answer, correct, words", [
    (1 / 1050, True, "Correct: 0.000952"),
    (0.000952, True, "Correct"),
    (0, False, "with the MLE"),
    (0.001, False, "without c(h)"),
    (1 / 51, False, "adding 1 to the denominator"),
    (0.02, False, "c(h) alone"),
    (0.5, False, "is not it"),
])
def test_add_one_unseen_bigram_recognises_typical_mistakes(answer, correct, words):
    feedback = ex.check_add_one_unseen_bigram(answer)
    assert feedback.correct is correct and words in feedback.message


@pytest.mark.parametrize("answer, correct, words", [
    (98 / 150, True, "Correct: 0.6533"),
    (0.6533, True, "Correct"),
    (0.6667, False, "counting all |V| words"),
    (0.9333, False, "k = 1 (add-one)"),
    (0.98, False, "fraction of the vocabulary"),
    (1.96, False, "cannot exceed 1"),
    (0.6622, False, "adding k only for the unseen words"),
    (0.1, False, "is not it"),
])
def test_add_k_unseen_mass_recognises_typical_mistakes(answer, correct, words):
    feedback = ex.check_add_k_unseen_mass(answer)
    assert feedback.correct is correct and words in feedback.message


def test_add_k_exercise_numbers_give_the_expected_masses():
    c_h, size, seen, k = (ex.ADD_K_EXERCISE[key] for key in ("c_h", "V", "seen_types", "k"))
    # the unseen words' mass plus the seen words' mass (their counts sum to c(h)) is 1
    unseen_mass = k * (size - seen) / (c_h + k * size)
    seen_mass = (c_h + k * seen) / (c_h + k * size)
    assert unseen_mass + seen_mass == pytest.approx(1.0)
    assert ex.check_add_k_unseen_mass(unseen_mass).correct


@pytest.mark.parametrize("answer, correct, words", [
    ("B", True, "held-out data"),
    ("A", False, "towards 0"),
    ("C", False, "optimistic"),
    ("D", False, "answer one of A, B, C"),
])
def test_set_for_choosing_k(answer, correct, words):
    feedback = ex.check_set_for_choosing_k(answer)
    assert feedback.correct is correct and words in feedback.message


def test_the_hints_of_one_checker_do_not_shadow_each_other():
    # two mistakes closer than the tolerance would make the second hint unreachable
    for check, mistakes in [
        (ex.check_interpolated_probability, [0.115, 0.17, 0.23, 0.2, 0.51]),
        (ex.check_add_one_unseen_bigram, [0.0, 0.001, 1 / 51, 0.02]),
        (ex.check_add_k_unseen_mass, [100 / 150, 980 / 1050, 0.98, 1.96, 98 / 148]),
    ]:
        messages = {check(value).message.split(" is what you get ")[1] for value in mistakes}
        assert len(messages) == len(mistakes), check.__name__
