"""The chapters' self-checks: right answers pass, typical wrong ones get their hint, by chapter."""

import math

import pytest

from lmcore import exercises as ex


def assert_feedback(check, answer, correct, words):
    feedback = check(answer)
    assert feedback.correct is correct and words in feedback.message


# --- every chapter ------------------------------------------------------------------------

CHAPTER_4_CHECKS = [
    ex.check_better_model, ex.check_ab_perplexity, ex.check_ab_cross_entropy, ex.check_uniform_perplexity,
    ex.check_sentence_perplexity_with_eos, ex.check_corpus_perplexity, ex.check_bits_per_character,
]
CHAPTER_5_CHECKS = [
    ex.check_interpolated_probability, ex.check_rescue_choice, ex.check_test_set_tuning,
    ex.check_add_one_unseen_bigram, ex.check_add_k_unseen_mass, ex.check_set_for_choosing_k,
]


@pytest.mark.parametrize("check", CHAPTER_4_CHECKS + CHAPTER_5_CHECKS, ids=lambda f: f.__name__)
def test_unanswered_is_neither_right_nor_wrong(check):
    feedback = check(None)
    assert feedback.correct is None and "Not answered yet" in feedback.message
    assert "Not answered yet" in str(feedback)


def test_feedback_renders_as_text_and_html():
    feedback = ex.check_ab_perplexity(2.5)
    assert str(feedback) == repr(feedback) == "Correct: 2.5000."
    assert "<p" in feedback._repr_html_() and "#1b7a2f" in feedback._repr_html_()


# --- chapter 4: perplexity ------------------------------------------------------------------


@pytest.mark.parametrize("answer, correct, words", [
    ("A", True, "lower perplexity is better"),
    (" a ", True, "lower perplexity"),
    ("B", False, "more confused"),
    ("C", False, "answer one of A, B"),
])
def test_better_model(answer, correct, words):
    assert_feedback(ex.check_better_model, answer, correct, words)


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
    assert_feedback(ex.check_ab_perplexity, answer, correct, words)


@pytest.mark.parametrize("answer, correct, words", [
    (1.3219, True, "Correct"),
    (0.9163, False, "natural log"),
    (1.1610, False, "log2(0.2)"),
    (2.6439, False, "without dividing"),
    (0.3979, False, "log10"),
])
def test_ab_cross_entropy_recognises_natural_log_and_others(answer, correct, words):
    assert_feedback(ex.check_ab_cross_entropy, answer, correct, words)


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
    assert_feedback(ex.check_sentence_perplexity_with_eos, round(answer, 4), correct, words)


@pytest.mark.parametrize("answer, correct, words", [
    (40000 ** (1 / 6), True, "Correct"),
    (6.0, False, "averaging the two sentence perplexities"),
    (20 ** 0.5, False, "geometric mean"),
])
def test_corpus_perplexity_recognises_a_mean_of_sentence_perplexities(answer, correct, words):
    assert_feedback(ex.check_corpus_perplexity, round(answer, 4), correct, words)


# Bits per character: the unit every tokenization shares.


def test_bits_per_character_data_is_what_the_chapter_prints():
    assert ex.BITS_PER_CHARACTER_EXERCISE == {"perplexity per token": 512, "tokens N": 1000, "characters": 3000}


@pytest.mark.parametrize("answer, correct, words", [
    (3.0, True, "Correct: 3.0000"),
    (3, True, "Correct"),
    ("3.0", True, "Correct"),
    (9.0, False, "bits per token"),
    (8.0, False, "perplexity per character"),
    (round(math.log(512) / 3, 4), False, "natural log"),
    (round(math.log10(512) / 3, 4), False, "log10"),
    (round(512 / 3, 2), False, "perplexities do not add up"),
    (27.0, False, "multiplying"),
    (4.0, False, "is not it"),
    ("three", False, "expected a number"),
])
def test_bits_per_character_recognises_typical_mistakes(answer, correct, words):
    assert_feedback(ex.check_bits_per_character, answer, correct, words)


def test_bits_per_character_mistakes_are_distinct_from_the_answer_and_each_other():
    # A hint must never fire for the right answer, and no two hints may claim the same number.
    values = [9.0, 8.0, math.log(512) / 3, math.log10(512) / 3, 512 / 3, 27.0, 3.0]
    for i, a in enumerate(values):
        for b in values[i + 1:]:
            assert not math.isclose(a, b, rel_tol=5e-4)


# --- chapter 5: smoothing and interpolation ---------------------------------------------------


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
    assert_feedback(ex.check_interpolated_probability, answer, correct, words)


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
    assert_feedback(ex.check_rescue_choice, answer, correct, words)


@pytest.mark.parametrize("answer, correct, words", [
    ("A", True, "Choose on held-out data, report once on the test set"),
    ("B", False, "noise alone goes both ways"),
    ("C", False, "not EM"),
    ("D", False, "no longer an estimate"),
])
def test_test_set_tuning(answer, correct, words):
    assert_feedback(ex.check_test_set_tuning, answer, correct, words)


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
    assert_feedback(ex.check_add_one_unseen_bigram, answer, correct, words)


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
    assert_feedback(ex.check_add_k_unseen_mass, answer, correct, words)


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
    assert_feedback(ex.check_set_for_choosing_k, answer, correct, words)


def test_the_hints_of_one_checker_do_not_shadow_each_other():
    # two mistakes closer than the tolerance would make the second hint unreachable
    for check, mistakes in [
        (ex.check_interpolated_probability, [0.115, 0.17, 0.23, 0.2, 0.51]),
        (ex.check_add_one_unseen_bigram, [0.0, 0.001, 1 / 51, 0.02]),
        (ex.check_add_k_unseen_mass, [100 / 150, 980 / 1050, 0.98, 1.96, 98 / 148]),
    ]:
        messages = {check(value).message.split(" is what you get ")[1] for value in mistakes}
        assert len(messages) == len(mistakes), check.__name__
