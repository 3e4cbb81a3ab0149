"""The chapters' self-checks: right answers pass, typical wrong ones get their hint, by chapter."""

import json
import math
import re
from decimal import ROUND_DOWN, ROUND_HALF_UP
from pathlib import Path

import numpy as np
import pytest

from lmcore import exercises as ex
from lmcore.exercises.feedback import half_unit, round_to
from lmcore.i18n import catalog, set_language

ROOT = Path(__file__).resolve().parents[2]


def assert_feedback(check, answer, correct, words):
    feedback = check(answer)
    assert feedback.correct is correct and words in feedback.message


# --- every chapter ------------------------------------------------------------------------

CHAPTER_3_CHECKS = [
    ex.check_loss_in_bits, ex.check_reverse_cross_entropy, ex.check_below_the_floor,
    ex.check_coded_bits_per_character, ex.check_bits_saved_by_lower_perplexity,
]
CHAPTER_4_CHECKS = [
    ex.check_weighted_branching, ex.check_cross_entropy_bits, ex.check_perplexity_after_gain,
    ex.check_one_surprising_token, ex.check_sentence_perplexity_with_eos, ex.check_corpus_perplexity,
    ex.check_bits_per_character,
]
CHAPTER_5_CHECKS = [
    ex.check_interpolated_probability, ex.check_rescue_choice, ex.check_em_step,
    ex.check_add_one_unseen_bigram, ex.check_add_k_unseen_mass, ex.check_rescued_token_bits,
    ex.check_kneser_ney_probability,
]
CHAPTER_7_CHECKS = [
    ex.check_parameter_count, ex.check_bits_per_character_from_perplexity, ex.check_which_predicts_better,
    ex.check_forward_passes, ex.check_full_context_share, ex.check_contaminated_test,
]
CHECKS = CHAPTER_3_CHECKS + CHAPTER_4_CHECKS + CHAPTER_5_CHECKS + CHAPTER_7_CHECKS
# checks with no place in the numeric table: choices, and counts (right only as the whole number itself,
# tests/unit/test_exercises_ch07.py)
NOT_NUMERIC = (ex.check_rescue_choice, ex.check_below_the_floor, ex.check_which_predicts_better,
               ex.check_contaminated_test, ex.check_parameter_count, ex.check_forward_passes)



def cross_entropy_bits(p, m):
    return -sum(a * math.log2(b) for a, b in zip(p, m))


# Every numeric exercise: its checker, the exact answer, the precision the chapter states,
# and the values of the typical mistakes it recognises.
NUMERIC = {
    ex.check_loss_in_bits: (3.2 / math.log(2), 3, [3.2 * math.log(2), 3.2, math.exp(3.2), 2**3.2,
                                                   3.2 / math.log10(2)]),
    ex.check_reverse_cross_entropy: (cross_entropy_bits((0.6, 0.4), (0.9, 0.1)), 3, [
        cross_entropy_bits((0.9, 0.1), (0.6, 0.4)), cross_entropy_bits((0.6, 0.4), (0.6, 0.4)),
        cross_entropy_bits((0.9, 0.1), (0.9, 0.1)),
        cross_entropy_bits((0.6, 0.4), (0.9, 0.1)) - cross_entropy_bits((0.6, 0.4), (0.6, 0.4)),
        cross_entropy_bits((0.9, 0.1), (0.6, 0.4)) - cross_entropy_bits((0.9, 0.1), (0.9, 0.1)),
        cross_entropy_bits((0.6, 0.4), (0.9, 0.1)) * math.log(2)]),
    ex.check_coded_bits_per_character: (1.25, 3, [12_500 / 80_000, 80_000 / 12_500, 80_000 / 100_000,
                                                  1.25 * math.log(2)]),
    ex.check_bits_saved_by_lower_perplexity: (math.log2(247 / 200), 3, [
        47, math.log2(47), 47 / 247, math.log(247 / 200), math.log10(247 / 200), -math.log2(247 / 200),
        math.log2(200)]),
    ex.check_weighted_branching: (8.0, 3, [17.0, 1 / (0.25 + 1 / 64), 3.0, math.exp(3)]),
    ex.check_cross_entropy_bits: (-math.log2(0.6 * 0.6 * 0.3 * 0.1) / 4, 3, [
        -math.log(0.0108) / 4, -math.log10(0.0108) / 4, -math.log2(0.0108), -math.log2(0.018) / 3,
        -(0.6 * math.log2(0.6) + 0.3 * math.log2(0.3) + 0.1 * math.log2(0.1)), 0.0108 ** -0.25]),
    ex.check_perplexity_after_gain: (2 ** 5.8465, 3, [2 ** 6.3465 - 0.5, math.exp(5.8465), 2 ** 6.3465 / 2,
                                                      2 ** 6.8465]),
    ex.check_one_surprising_token: (10 ** 1.09, 3, [10.0, 100 / (9.9 + 1e-10), (990 + 1e10) / 100,
                                                    1.09 * math.log(10), 1.09 * math.log2(10)]),
    ex.check_sentence_perplexity_with_eos: (32 ** (1 / 3), 3, [8 ** 0.5, 8 ** (1 / 3), 32 ** 0.5, 32 ** 0.25]),
    ex.check_corpus_perplexity: (40000 ** (1 / 6), 3, [6.0, 20 ** 0.5, (2 * 2 + 4 * 10) / 6, 6 / 1.45]),
    ex.check_bits_per_character: (3.0, 3, [9.0, 8.0, math.log(512) / 3, math.log10(512) / 3, 512 / 3, 27.0]),
    ex.check_interpolated_probability: (0.238, 3, [0.13, 0.18, 0.23, 0.2, 0.54]),
    ex.check_em_step: ((0.005 / 0.255 + 1) / 2, 3, [(0.25 / 0.255 + 0) / 2, 0.0075, 0.015 / 0.265, 0.5,
                                                   0.005 / 0.255, 1.0]),
    ex.check_kneser_ney_probability: ((2 - 0.75) / 25 + 0.75 * 12 / 25 * 40 / 1000, 3, [
        (2 - 0.75) / 25 + 40 / 1000, (2 - 0.75) / 25 + 0.75 * 12 / 25 * 500 / 5000, 2 / 25 + 0.75 * 12 / 25 * 40 / 1000,
        (2 - 0.75) / 25, (2 - 0.75) / 25 + 12 / 25 * 40 / 1000, 2 / 25]),
    ex.check_add_one_unseen_bigram: (1 / 1050, 3, [0.0, 0.001, 1 / 51, 0.02]),
    ex.check_add_k_unseen_mass: (98 / 150, 2, [100 / 150, 980 / 1050, 0.98, 1.96, 98 / 148]),
    ex.check_rescued_token_bits: (-math.log2(2e-5), 3, [-math.log(2e-5), -math.log10(2e-5), -math.log2(0.0004),
                                                        -math.log2(0.05), 2e-5, math.log2(2e-5)]),
    ex.check_bits_per_character_from_perplexity: (math.log2(40) * 10_000 / 42_000, 3, [
        math.log(40) * 10_000 / 42_000, math.log2(40), math.log2(40) * 42_000 / 10_000, 40 * 10_000 / 42_000,
        40 ** (10_000 / 42_000)]),
    ex.check_full_context_share: (2 / 12, 3, [10 / 12, 1 / 12, 3 / 12]),
}


# The numeric exercises of chapters 1, 2 and 6, whose typical mistakes their own test files check
# (tests/unit/test_exercises_ch0N.py): the exact answer and the stated precision.
SHANNON_Q = [0.6, 0.2, 0.1, 0.05, 0.05]
OTHER_NUMERIC = {
    ex.check_olives_surprisal: (-math.log2(0.03), 3),
    ex.check_extra_bits: (math.log2(0.1 / 0.0001), 3),
    ex.check_upper_bound: (-sum(q * math.log2(q) for q in SHANNON_Q), 3),
    ex.check_lower_bound: (sum(i * (a - b) * math.log2(i)
                               for i, (a, b) in enumerate(zip(SHANNON_Q, SHANNON_Q[1:] + [0.0]), start=1)), 3),
    ex.check_uniform_bits: (math.log2(30_000), 3),
    ex.check_entropy_in_bits: (-(0.7 * math.log2(0.7) + 0.2 * math.log2(0.2) + 0.1 * math.log2(0.1)), 3),
    ex.check_entropy_with_impossible_outcome: (-(0.6 * math.log2(0.6) + 0.3 * math.log2(0.3)
                                                 + 0.1 * math.log2(0.1)), 3),
    ex.check_average_code_length: (0.4 * 1 + 0.3 * 2 + 0.2 * 3 + 0.1 * 3, 3),
    ex.check_markov_entropy_rate: (2 / 3, 3),
    ex.check_miller_madow_correction: (19 / 200 / math.log(2), 3),
    ex.check_clipped_unigram_precision: (3 / 5, 3),
    ex.check_multi_reference_precision: (4 / 6, 3),
    ex.check_bleu_with_brevity: ((0.8 * 0.5 * 0.3 * 0.2) ** 0.25 * math.exp(1 - 10 / 9), 3),
    ex.check_corpus_bleu: (math.sqrt(9 / 10 * 6 / 8), 3),
    ex.check_bleu_point_difference: (31 - 29.5, 2),
}
EVERY_NUMERIC = {check: (expected, digits) for check, (expected, digits, _) in NUMERIC.items()} | OTHER_NUMERIC

# What an exercise with intermediate steps gives when each intermediate value is rounded to the
# stated precision before the last step (the checker's ``early_rounded``), where that is wrong.
EARLY_ROUNDED = {
    ex.check_extra_bits: 13.3 - 3.32,  # -log2 0.0001 - (-log2 0.1), each surprisal rounded
    ex.check_loss_in_bits: 3.2 * 1.44,  # 1 / ln 2 rounded
    ex.check_bits_saved_by_lower_perplexity: 7.95 - 7.64,  # log2 247 - log2 200, each rounded
    ex.check_perplexity_after_gain: 2 ** 5.85,  # 6.3465 - 0.5 rounded
    ex.check_sentence_perplexity_with_eos: 2 ** 1.67,  # 5 bits / 3 tokens rounded
    ex.check_corpus_perplexity: 2 ** 2.55,  # log2 40,000 / 6 rounded
    ex.check_bleu_with_brevity: 0.394 * 0.895,  # the geometric mean and BP rounded
}


def rounded(value: float, sig_digits: int) -> float:
    """``value`` as a student writes it to ``sig_digits`` significant digits."""
    return float(f"{value:.{sig_digits}g}")


@pytest.mark.parametrize("check", CHECKS, ids=lambda f: f.__name__)
def test_unanswered_is_neither_right_nor_wrong(check):
    feedback = check(None)
    assert feedback.correct is None and "Not answered yet" in feedback.message
    assert "Not answered yet" in str(feedback)


def test_every_numeric_check_is_in_the_table():
    assert {c for c in CHECKS if c not in NOT_NUMERIC} == set(NUMERIC)


@pytest.mark.parametrize("check", NUMERIC, ids=lambda f: f.__name__)
def test_any_answer_at_the_stated_precision_is_right(check):
    expected, digits, _ = NUMERIC[check]
    half = half_unit(expected, digits)
    assert check(expected).correct
    assert check(rounded(expected, digits)).correct, rounded(expected, digits)
    assert check(f"{expected:.{digits}g}").correct  # typed as text
    assert check(round(expected, 10)).correct       # more digits than asked
    # the boundary: half a unit of the last asked digit either side is right, a little more is not
    for sign in (1, -1):
        assert check(expected + sign * half).correct, (expected, sign * half)
        assert check(expected + sign * half * 0.999).correct
        assert not check(expected + sign * half * 1.02).correct


@pytest.mark.parametrize("check", NUMERIC, ids=lambda f: f.__name__)
def test_each_typical_mistake_gets_its_own_hint_at_the_stated_precision(check):
    expected, digits, mistakes = NUMERIC[check]
    hints = set()
    for value in mistakes:
        for answer in (value, rounded(value, digits)):
            feedback = check(answer)
            assert feedback.correct is False and " is what you get " in feedback.message, (value, feedback)
        hints.add(feedback.message.split(" is what you get ")[1])
    assert len(hints) == len(mistakes), "two mistakes share a hint, or one hint shadows another"
    # the right answer, rounded as asked, never falls into a mistake's band
    for value in mistakes:
        assert abs(rounded(expected, digits) - value) > half_unit(value, digits)


@pytest.mark.parametrize("check", NUMERIC, ids=lambda f: f.__name__)
def test_one_digit_short_is_close_and_junk_is_named(check):
    expected, digits, mistakes = NUMERIC[check]
    short = rounded(expected, digits - 1)
    if abs(short - expected) > half_unit(expected, digits) and not any(
            abs(short - m) <= half_unit(m, digits) for m in mistakes):
        assert f"asks for {digits} significant digits" in check(short).message
    assert "expected a number" in check("about a half").message


ROUNDING_HINTS = {"truncated": "is cut off after", "double-rounded": "rounding a rounded number",
                  "truncated or early-rounded": "comes from cutting the result off",
                  "early-rounded": "rounding the intermediate values", "close": "off in the last digit",
                  "too few digits": "significant digits."}


def rounding_hint_for(check, answer):
    """What the checker says of ``answer``: a named mistake, a rounding hint, right, or not it."""
    feedback = check(answer)
    if feedback.correct:
        return "right"
    if " is what you get " in feedback.message and "intermediate values" not in feedback.message:
        return "mistake"
    return next((name for name, words in ROUNDING_HINTS.items() if words in feedback.message), "not it")


def test_every_numeric_exercise_is_in_a_table_with_the_answer_its_checker_computes(monkeypatch):
    numeric = {}
    for module, check in EVERY_CHECK:
        kind, expected, _ = what_it_checks(module, check, monkeypatch)
        if kind == "number" and check not in NOT_NUMERIC:
            numeric[check] = expected
    assert set(numeric) == set(EVERY_NUMERIC)
    for check, expected in numeric.items():
        assert math.isclose(expected, EVERY_NUMERIC[check][0], rel_tol=1e-12), check.__name__


@pytest.mark.parametrize("check", EVERY_NUMERIC, ids=lambda f: f.__name__)
def test_the_answer_at_full_and_at_the_stated_precision_is_right(check):
    expected, digits = EVERY_NUMERIC[check]
    assert check(expected).correct and check(round_to(expected, digits)).correct
    assert check(f"{round_to(expected, digits):.{digits}g}").correct


@pytest.mark.parametrize("check", EVERY_NUMERIC, ids=lambda f: f.__name__)
def test_a_truncated_answer_is_told_to_round(check):
    expected, digits = EVERY_NUMERIC[check]
    truncated = round_to(expected, digits, ROUND_DOWN)
    if truncated == round_to(expected, digits):  # the next digit is below 5: cutting off is rounding
        assert check(truncated).correct
    else:
        assert rounding_hint_for(check, truncated) in ("truncated", "truncated or early-rounded", "mistake"), truncated


@pytest.mark.parametrize("check", EVERY_NUMERIC, ids=lambda f: f.__name__)
def test_a_double_rounded_answer_is_told_to_round_once(check):
    expected, digits = EVERY_NUMERIC[check]
    for extra in (1, 2, 3):
        twice = round_to(round_to(expected, digits + extra), digits)
        if twice == round_to(expected, digits):
            assert check(twice).correct
        else:
            assert rounding_hint_for(check, twice) in ("double-rounded", "mistake"), (extra, twice)


@pytest.mark.parametrize("check", EARLY_ROUNDED, ids=lambda f: f.__name__)
def test_an_answer_from_early_rounded_steps_is_told_to_carry_digits(check):
    expected, digits = EVERY_NUMERIC[check]
    early = round_to(EARLY_ROUNDED[check], digits)
    assert early != round_to(expected, digits), "the early-rounded steps give the right answer: nothing to name"
    assert rounding_hint_for(check, early) in ("early-rounded", "truncated or early-rounded", "double-rounded"), early


@pytest.mark.parametrize("answer, hint", [
    (0.796, "double-rounded"), ("0.796", "double-rounded"),  # 0.79549 -> 0.7955 -> 0.796
    (0.795, "right"), (0.7955, "right"), (0.79549, "right"),  # cutting 0.79549 off is rounding it: right
    (0.794, "close"), (0.797, "close"), ("0.7940", "close"),
    (0.8, "too few digits"), ("0.80", "too few digits"),
    (0.85, "not it"),
])
def test_rounding_hints_name_the_slip(answer, hint):
    assert rounding_hint_for(lambda a: ex.check_number(a, 0.79549, sig_digits=3), answer) == hint


def test_truncation_early_rounding_and_slips_each_get_their_own_hint():
    def check(a):  # 0.394 x 0.895 with 3-digit factors, where the full factors give 0.35234
        return ex.check_number(a, 0.393725 * 0.894883, sig_digits=3, early_rounded=[0.394 * 0.895])
    assert rounding_hint_for(check, 0.352) == "right"
    assert rounding_hint_for(check, 0.353) == "early-rounded"
    assert rounding_hint_for(check, 4.6166) == "not it"
    assert rounding_hint_for(lambda a: ex.check_number(a, 4.6166, sig_digits=3), 4.61) == "truncated"
    assert rounding_hint_for(lambda a: ex.check_number(a, 4.6166, sig_digits=3), "4.610") == "truncated"
    assert rounding_hint_for(lambda a: ex.check_number(a, 4.6166, sig_digits=3), 4.64) == "close"
    assert rounding_hint_for(lambda a: ex.check_number(a, -4.6166, sig_digits=3), -4.61) == "truncated"
    zh = set_language("zh") or ex.check_number(4.61, 4.6166, sig_digits=3).message
    set_language("en")
    assert "截断" in zh and "4.61" in zh


def test_a_percentage_where_a_fraction_is_asked_is_told_so():
    """Every fraction-valued answer typed as a percentage hears "as a fraction"; a named mistake
    with that value keeps its own hint, and an answer above 1 is never read as a percentage."""
    for check, percentage in [(lambda a: ex.check_number(a, 0.6, sig_digits=3), 60),
                              (lambda a: ex.check_number(a, 0.0167), 1.67)]:
        feedback = check(percentage)
        assert feedback.correct is False and "as a fraction" in feedback.message, feedback.message
    named = ex.check_number(60, 0.6, mistakes={60: "by naming it."}, sig_digits=3)
    assert "by naming it" in named.message and "fraction" not in named.message
    assert "fraction" not in ex.check_number(150, 1.5, sig_digits=3).message
    assert "fraction" not in ex.check_number(6, 0.6, sig_digits=3).message
    set_language("zh")
    try:
        assert "小数" in ex.check_number(60, 0.6, sig_digits=3).message
    finally:
        set_language("en")


@pytest.mark.parametrize("value, digits, rounding, result", [
    (0.79549, 3, ROUND_HALF_UP, 0.795), (0.7955, 3, ROUND_HALF_UP, 0.796), (4.6166, 3, ROUND_DOWN, 4.61),
    (-2.25, 2, ROUND_HALF_UP, -2.3), (9.9996, 3, ROUND_HALF_UP, 10.0), (0.000952381, 3, ROUND_DOWN, 0.000952),
    (57.54, 3, ROUND_HALF_UP, 57.5), (1e7 + 1, 3, ROUND_HALF_UP, 1e7), (0.0, 3, ROUND_HALF_UP, 0.0),
])
def test_round_to(value, digits, rounding, result):
    assert ex.feedback.round_to(value, digits, rounding) == result


def test_check_number_keeps_its_relative_tolerance_and_refuses_a_bad_precision():
    assert ex.check_number(1.0005, 1.0, rel_tol=1e-3).correct
    assert not ex.check_number(1.002, 1.0, rel_tol=1e-3).correct
    assert ex.check_number(1.0004, 1.0).correct and not ex.check_number(1.001, 1.0).correct  # default 5e-4
    with pytest.raises(ValueError, match="sig_digits must be at least 1"):
        ex.check_number(1.0, 1.0, sig_digits=0)


@pytest.mark.parametrize("value, digits, half", [
    (1.3219, 3, 0.005), (0.6533, 2, 0.005), (0.000952, 3, 5e-7), (57.54, 3, 0.05), (8.0, 3, 0.005),
    (1e7, 3, 5e4), (-2.5, 2, 0.05), (0.0, 3, 0.0),
])
def test_half_unit(value, digits, half):
    assert half_unit(value, digits) == pytest.approx(half, rel=1e-12)


def test_feedback_renders_as_text_and_html():
    feedback = ex.check_weighted_branching(8)
    assert str(feedback) == repr(feedback) == "Correct: 8.0000."
    assert "<p" in feedback._repr_html_() and "#1b7a2f" in feedback._repr_html_()


def test_the_notebooks_state_each_exercises_precision():
    notebooks = {"03_cross_entropy.ipynb": CHAPTER_3_CHECKS, "04_perplexity.ipynb": CHAPTER_4_CHECKS,
                 "05_smoothing_interpolation.ipynb": CHAPTER_5_CHECKS, "07_neural_models.ipynb": CHAPTER_7_CHECKS}
    for name, checks in notebooks.items():
        cells = json.loads((ROOT / "notebooks" / name).read_text(encoding="utf-8"))["cells"]
        for check in checks:
            at = [i for i, c in enumerate(cells) if f"exercises.{check.__name__}(answer)" in "".join(c["source"])]
            assert len(at) == 1, f"{name} checks {check.__name__} {len(at)} times"
            before = [c for c in cells[:at[0]] if c["cell_type"] == "markdown"][-1]
            if check in NUMERIC:
                assert f"to {NUMERIC[check][1]} significant digits" in "".join(before["source"]), check.__name__


# --- chapter 3: cross-entropy ---------------------------------------------------------------


def test_chapter_3_course_numbers_behind_the_checks():
    assert ex.check_loss_in_bits(4.62).correct and not ex.check_loss_in_bits(4.63).correct
    assert ex.check_reverse_cross_entropy(1.42).correct
    assert ex.check_bits_saved_by_lower_perplexity(0.305).correct
    assert "significant digits" in ex.check_bits_saved_by_lower_perplexity(0.3).message  # the course's rounding
    assert ex.check_coded_bits_per_character(1.25).correct
    assert ex.chapter03.SIG_DIGITS == 3


# --- chapter 4: perplexity ------------------------------------------------------------------


@pytest.mark.parametrize("answer, correct, words", [
    (8, True, "Correct: 8.0000"),
    ("8.00", True, "Correct"),
    (17, False, "averaging the inverse probabilities"),
    (3.76, False, "inverting the mean probability"),
    (3, False, "cross-entropy in bits"),
    (20.1, False, "raising e"),
    (5, False, "is not it"),
])
def test_weighted_branching(answer, correct, words):
    assert_feedback(ex.check_weighted_branching, answer, correct, words)


@pytest.mark.parametrize("answer, correct, words", [
    (1.63, True, "Correct: 1.6332"),
    (1.13, False, "natural log"),
    (0.492, False, "log10"),
    (6.53, False, "without dividing by N"),
    (1.93, False, "each word type once"),
    (1.30, False, "entropy of the model"),
    (3.10, False, "perplexity"),
])
def test_cross_entropy_bits(answer, correct, words):
    assert_feedback(ex.check_cross_entropy_bits, answer, correct, words)


@pytest.mark.parametrize("answer, correct, words", [
    (57.5, True, "Correct"),
    (57.54, True, "Correct"),
    (80.9, False, "subtracting the bits"),
    (346, False, "e ** (H - 0.5)"),
    (40.7, False, "halving"),
    (115, False, "adding the half bit"),
    (57.6, False, "off in the last digit"),  # three digits given: not a question of precision
    (57.73, False, "rounding the intermediate values"),  # 2 ** 5.85, the exponent rounded first
    (57.4, False, "off in the last digit"),
    (58, False, "asks for 3 significant digits"),
    (60, False, "asks for 3 significant digits"),  # 57.5 to one digit
])
def test_perplexity_after_gain(answer, correct, words):
    assert_feedback(ex.check_perplexity_after_gain, answer, correct, words)


@pytest.mark.parametrize("answer, correct, words", [
    (12.3, True, "Correct: 12.3027"),
    (10, False, "leaving the surprising token out"),
    (10.1, False, "inverting the mean probability"),  # 1 / 0.099: the misconception the exercise targets
    (10.10, False, "inverting the mean probability"),
    (1e8, False, "averaging the inverse probabilities"),
    (2.51, False, "nats"),
    (3.62, False, "bits"),
])
def test_one_surprising_token(answer, correct, words):
    assert_feedback(ex.check_one_surprising_token, answer, correct, words)


@pytest.mark.parametrize("answer, correct, words", [
    (32 ** (1 / 3), True, "Correct"),
    (8 ** 0.5, False, "forgetting </s>"),
    (2.0, False, "leaving P(</s> | cat) = 0.25 out of the product"),  # N = 3, but only two factors
    (32 ** 0.5, False, "not counting it"),
    (32 ** 0.25, False, "counting <s>"),
])
def test_sentence_perplexity_recognises_a_forgotten_end_marker(answer, correct, words):
    assert_feedback(ex.check_sentence_perplexity_with_eos, round(answer, 4), correct, words)


@pytest.mark.parametrize("answer, correct, words", [
    (40000 ** (1 / 6), True, "Correct"),
    (6.0, False, "averaging the two sentence perplexities"),
    (20 ** 0.5, False, "geometric mean"),
    (44 / 6, False, "weighting the sentence perplexities by their tokens"),
    (6 / 1.45, False, "inverting the mean probability"),
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
    (0.238, True, "Correct: 0.2380"),
    ("0.238", True, "Correct"),
    (0.13, False, "reverse order"),
    (0.18, False, "averaging the three estimates"),
    (0.23, False, "leaving out the unigram term"),
    (0.2, False, "trigram term alone"),
    (0.54, False, "without their weights"),
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
    (0.510, True, "Correct: 0.5098"),
    (0.490, False, "for λ2"),
    (0.0075, False, "without dividing"),
    (0.0566, False, "summed λ1 P1"),
    (0.5, False, "leaving λ1 where it started"),
])
def test_em_step(answer, correct, words):
    assert_feedback(ex.check_em_step, answer, correct, words)


def test_em_step_is_lmcores_em_update():
    from lmcore.ngram import fit_interpolation_weights

    probs = np.array(ex.EM_EXERCISE["order_probs"])
    assert ex.EM_EXERCISE["lambdas"] == (0.5, 0.5)  # EM starts from equal weights
    trace = fit_interpolation_weights(probs, max_iterations=1)
    assert ex.check_em_step(trace.lambda_history[1][0]).message.startswith("Correct")


@pytest.mark.parametrize("answer, correct, words", [
    (1 / 1050, True, "Correct: 0.000952"),
    (0.000952, True, "Correct"),
    (0.00095, False, "asks for 3 significant digits"),
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
    (0.65, True, "Correct"),
    (0.7, False, "asks for 2 significant digits"),
    (0.6667, False, "counting all |V| words"),
    (0.9333, False, "k = 1 (add-one)"),
    (0.98, False, "fraction of the vocabulary"),
    (1.96, False, "cannot exceed 1"),
    (0.66, False, "adding k only for the unseen words"),
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
    (15.6, True, "Correct: 15.6096"),
    (10.8, False, "natural log"),
    (4.70, False, "log10"),
    (11.3, False, "unigram estimate alone"),
    (4.32, False, "weight alone"),
    (0.00002, False, "its surprisal"),
    (-15.6, False, "a positive number of bits"),
])
def test_rescued_token_bits(answer, correct, words):
    assert_feedback(ex.check_rescued_token_bits, answer, correct, words)


# --- the Chinese edition: every chapter's verdicts in Chinese, the English ones unchanged ------

CHAPTER_MODULES = [ex.chapter01, ex.chapter02, ex.chapter03, ex.chapter04, ex.chapter05, ex.chapter06,
                   ex.chapter07]
EVERY_CHECK = [(module, getattr(module, name)) for module in CHAPTER_MODULES for name in module.__all__
               if name.startswith("check_")]
CJK = re.compile(r"[\u4e00-\u9fff]")


def what_it_checks(module, check, monkeypatch):
    """(kind, expected, {mistake or choice: hint}) of ``check``: what it passes to check_number or
    check_choice, caught on the way."""
    seen = []

    def number(answer, expected, *, mistakes=None, **options):
        seen.append(("number", expected, dict(mistakes or {})))
        return ex.check_number(answer, expected, mistakes=mistakes, **options)

    def choice(answer, expected, *, explanations):
        seen.append(("choice", expected, dict(explanations)))
        return ex.check_choice(answer, expected, explanations=explanations)

    monkeypatch.setattr(module, "check_number", number, raising=False)
    monkeypatch.setattr(module, "check_choice", choice, raising=False)
    check(None)
    monkeypatch.undo()
    (caught,) = seen
    return caught


def test_every_check_of_every_chapter_is_seen():
    assert len(EVERY_CHECK) == 43 and {module for module, _ in EVERY_CHECK} == set(CHAPTER_MODULES)


@pytest.mark.parametrize("module, check", EVERY_CHECK, ids=lambda x: getattr(x, "__name__", "").split(".")[-1])
def test_every_verdict_of_every_chapter_reads_in_chinese_and_the_english_stays(module, check, monkeypatch):
    zh = catalog("zh")
    kind, expected, hints = what_it_checks(module, check, monkeypatch)
    answers = [None, "junk", expected, *hints]
    english = [check(answer).message for answer in answers]
    set_language("zh")
    try:
        chinese = [check(answer) for answer in answers]
    finally:
        set_language("en")
    assert [check(answer).message for answer in answers] == english  # English as it was, after a switch
    assert chinese[0].correct is None and chinese[0].message == zh[english[0]]
    assert chinese[1].correct is False and chinese[1].message.startswith("还不对：")
    for answer, en, verdict in zip(answers[2:], english[2:], chinese[2:]):
        if kind == "choice":
            prefix, zh_prefix = ("Correct: ", "正确：") if answer == expected else ("Not yet: ", "还不对：")
            assert en.startswith(prefix) and verdict.message == zh_prefix + zh[en.removeprefix(prefix)]
        elif answer == expected:
            assert verdict.correct and verdict.message == "正确：" + en.removeprefix("Correct: ")[:-1] + "。"
        elif " is what you get " in en:  # a recognised mistake: its hint, in Chinese
            head, hint = en.removeprefix("Not yet: ").split(" is what you get ", 1)
            shown = head.split(" ", 1)[0]
            opening = "的位数不够" if "has too few digits" in head else "是这样得到的："  # the right value cut short?
            assert verdict.correct is False and verdict.message.startswith(f"还不对：{shown} {opening}")
            chinese_hint = verdict.message.split("是这样得到的：", 1)[1]
            assert CJK.search(chinese_hint) and chinese_hint == zh.get(hint, chinese_hint), (hint, chinese_hint)
            assert not chinese_hint.startswith(("with ", "by ", "without ", "for ", "in ")), chinese_hint
        else:
            pytest.fail(f"{check.__name__}: the mistake {answer!r} is not recognised: {en}")


@pytest.mark.parametrize("check, answer, message", [
    (ex.check_weighted_branching, 17, "还不对：17 是这样得到的：对概率的倒数（2 和 32）取了平均；"
                                      "困惑度平均的是它们的对数（比特数），然后再变回去：2 ** mean(bits)。"),
    (ex.check_cross_entropy_bits, 1.63, "正确：1.6332。"),
    (ex.check_perplexity_after_gain, 58, "还不对：58 很接近了，但题目要求 3 位有效数字。"),
    (ex.check_below_the_floor, "C", "还不对：KL 散度永远不会是负的（吉布斯不等式）："
                                    "一定是模型的打分算错了，或者用的文本太少、或已经见过。"),
    (ex.check_rescue_choice, "E", "还不对：请回答 A, B, C, D 之一。"),
    (ex.check_add_k_unseen_mass, 0.9333, "还不对：0.9333 是这样得到的：用了 k = 1（加一平滑）；这道题加的是 k = 0.1。"),
    (ex.check_loss_in_bits, "about 4", "还不对：这里要填一个数，你填的是 'about 4'。"),
])
def test_chapters_3_to_5_in_chinese(chinese, check, answer, message):
    assert check(answer).message == message
