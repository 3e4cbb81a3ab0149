"""lmcore.exercises.feedback, what every self-check shares: grade_number (the precision band, the named
mistakes, the rounding hints in their order, what is no number), grade_choice, round_to, half_unit,
decimals_for and the Feedback verdict. The chapters' checks are tested in tests/unit/test_exercises_ch0N.py,
what all of them share in tests/notebooks/test_exercises.py."""

import dataclasses
import math
from decimal import ROUND_DOWN, ROUND_HALF_UP
from fractions import Fraction

import numpy as np
import pytest
from exercise_support import rounding_hint_for

from lmcore.exercises import feedback as feedback_module
from lmcore.exercises.feedback import (
    SIG_DIGITS,
    Feedback,
    decimals_for,
    grade_choice,
    grade_number,
    half_unit,
    round_to,
    unanswered,
)
from lmcore.i18n import set_language


@pytest.mark.parametrize("answer, hint", [
    (0.796, "double-rounded"), ("0.796", "double-rounded"),  # 0.79549 -> 0.7955 -> 0.796
    (0.795, "right"), (0.7955, "right"), (0.79549, "right"),  # cutting 0.79549 off is rounding it: right
    (0.794, "close"), (0.797, "close"), ("0.7940", "close"),
    (0.8, "too few digits"), ("0.80", "too few digits"),
    (0.85, "not it"),
])
def test_rounding_hints_name_the_slip(answer, hint):
    assert rounding_hint_for(lambda a: grade_number(a, 0.79549, sig_digits=3), answer) == hint


def test_truncation_early_rounding_and_slips_each_get_their_own_hint():
    def check(a):  # 0.394 x 0.895 with 3-digit factors, where the full factors give 0.35234
        return grade_number(a, 0.393725 * 0.894883, sig_digits=3, early_rounded=[0.394 * 0.895])
    assert rounding_hint_for(check, 0.352) == "right"
    assert rounding_hint_for(check, 0.353) == "early-rounded"
    assert rounding_hint_for(check, 4.6166) == "not it"
    assert rounding_hint_for(lambda a: grade_number(a, 4.6166, sig_digits=3), 4.61) == "truncated"
    assert rounding_hint_for(lambda a: grade_number(a, 4.6166, sig_digits=3), "4.610") == "truncated"
    assert rounding_hint_for(lambda a: grade_number(a, 4.6166, sig_digits=3), 4.64) == "close"
    assert rounding_hint_for(lambda a: grade_number(a, -4.6166, sig_digits=3), -4.61) == "truncated"
    zh = set_language("zh") or grade_number(4.61, 4.6166, sig_digits=3).message
    set_language("en")
    assert "截断" in zh and "4.61" in zh


def test_a_percentage_where_a_fraction_is_asked_is_told_so():
    """Every fraction-valued answer typed as a percentage hears "as a fraction"; a named mistake
    with that value keeps its own hint, and an answer above 1 is never read as a percentage."""
    for check, percentage in [(lambda a: grade_number(a, 0.6, sig_digits=3), 60),
                              (lambda a: grade_number(a, 0.0167), 1.67)]:
        feedback = check(percentage)
        assert feedback.correct is False and "as a fraction" in feedback.message, feedback.message
    named = grade_number(60, 0.6, mistakes={60: "by naming it."}, sig_digits=3)
    assert "by naming it" in named.message and "fraction" not in named.message
    assert "fraction" not in grade_number(150, 1.5, sig_digits=3).message
    assert "fraction" not in grade_number(6, 0.6, sig_digits=3).message
    set_language("zh")
    try:
        assert "小数" in grade_number(60, 0.6, sig_digits=3).message
    finally:
        set_language("en")


@pytest.mark.parametrize("value, digits, rounding, result", [
    (0.79549, 3, ROUND_HALF_UP, 0.795), (0.7955, 3, ROUND_HALF_UP, 0.796), (4.6166, 3, ROUND_DOWN, 4.61),
    (-2.25, 2, ROUND_HALF_UP, -2.3), (9.9996, 3, ROUND_HALF_UP, 10.0), (0.000952381, 3, ROUND_DOWN, 0.000952),
    (57.54, 3, ROUND_HALF_UP, 57.5), (1e7 + 1, 3, ROUND_HALF_UP, 1e7), (0.0, 3, ROUND_HALF_UP, 0.0),
])
def test_round_to(value, digits, rounding, result):
    assert round_to(value, digits, rounding) == result


def test_grade_number_keeps_its_relative_tolerance_and_refuses_a_bad_precision():
    assert grade_number(1.0005, 1.0, rel_tol=1e-3).correct
    assert not grade_number(1.002, 1.0, rel_tol=1e-3).correct
    assert grade_number(1.0004, 1.0).correct and not grade_number(1.001, 1.0).correct  # default 5e-4
    with pytest.raises(ValueError, match="sig_digits must be at least 1"):
        grade_number(1.0, 1.0, sig_digits=0)


@pytest.mark.parametrize("value, digits, half", [
    (1.3219, 3, 0.005), (0.6533, 2, 0.005), (0.000952, 3, 5e-7), (57.54, 3, 0.05), (8.0, 3, 0.005),
    (1e7, 3, 5e4), (-2.5, 2, 0.05), (0.0, 3, 0.0),
])
def test_half_unit(value, digits, half):
    assert half_unit(value, digits) == pytest.approx(half, rel=1e-12)


def test_feedback_renders_as_text_and_html():
    feedback = grade_number(8, 8.0)
    assert str(feedback) == repr(feedback) == "Correct: 8.0000."
    assert "<p" in feedback._repr_html_() and "#1b7a2f" in feedback._repr_html_()


@pytest.mark.parametrize("answer", [True, False, np.True_])
def test_a_bool_is_no_number_answer(answer):
    # True counted as the number 1 (correct where 1 is the answer); now it is refused as no number
    assert grade_number(True, 1.0).message == "Not yet: expected a number, got True."
    feedback = grade_number(answer, float(answer))
    assert feedback.correct is False and "expected a number" in feedback.message


def test_grade_number_checks_what_the_exercise_gives_it():
    with pytest.raises(TypeError, match="^expected must be a number, got str$"):
        grade_number(1.0, "1.0")
    with pytest.raises(ValueError, match="^expected must be a finite number, got nan$"):
        grade_number(1.0, math.nan)
    with pytest.raises(ValueError, match="^decimals must be at least 0, got -1$"):
        grade_number(1.0, 1.0, decimals=-1)
    with pytest.raises(ValueError, match="^rel_tol must be at least 0, got -0.1$"):
        grade_number(1.0, 1.0, rel_tol=-0.1)
    # answers of other numeric types are numbers; a huge float is shown in short
    assert grade_number(np.float32(0.25), 0.25).correct and grade_number("0.25", 0.25).correct
    assert grade_number(1e300, 1.0).message == "Not yet: 1e+300 is not it. Check each step against the text above."


def test_half_unit_and_mistakes_are_checked():
    with pytest.raises(ValueError, match="^sig_digits must be at least 1, got 0$"):
        half_unit(1.0, 0)  # was 5.0
    with pytest.raises(TypeError, match="^value must be a number, got str$"):
        half_unit("1", 3)
    with pytest.raises(TypeError, match="^mistakes key 'a' must be a number, got str$"):
        grade_number(2.0, 1.0, mistakes={"a": "by a typo"})  # was a TypeError inside a subtraction


@pytest.mark.parametrize("answer, shown", [(math.nan, "nan"), (np.float64("nan"), "np.float64(nan)"),
                                           ("nan", "'nan'")])
def test_nan_is_no_number_answer(answer, shown):
    # was "Not yet: nan is not it. Check each step against the text above."
    feedback = grade_number(answer, 1.0)
    assert feedback.correct is False and feedback.message == f"Not yet: expected a number, got {shown}."


def test_a_choice_is_checked_against_a_str_and_explanations():
    with pytest.raises(TypeError, match="^expected must be a str, got NoneType$"):
        grade_choice("A", None, explanations={"A": "right"})  # was AttributeError: 'NoneType' ... 'upper'
    with pytest.raises(TypeError, match="^explanations must be a dict {choice: explanation} with str choices"):
        grade_choice("A", "A", explanations=None)
    assert grade_choice(None, "A", explanations={"A": "right"}).correct is None


# --- what a verdict shows ------------------------------------------------------------------------


@pytest.mark.parametrize("correct, colour", [(True, "#1b7a2f"), (False, "#b3261e"), (None, "#555")])
def test_a_verdict_prints_its_message_and_renders_in_its_colour(correct, colour):
    feedback = Feedback(correct, "Not yet: 0 < 1 & 2 > 1.")
    assert str(feedback) == repr(feedback) == "Not yet: 0 < 1 & 2 > 1."
    assert feedback._repr_html_() == (f'<p style="color:{colour};font-weight:600">'
                                      "Not yet: 0 &lt; 1 &amp; 2 &gt; 1.</p>")


def test_no_answer_yet_is_neither_right_nor_wrong():
    for feedback in (unanswered(), grade_number(None, 1.0), grade_choice(None, "A", explanations={"A": "."})):
        assert feedback == Feedback(None, "Not answered yet: replace None with your answer and run the cell again.")


@pytest.mark.parametrize("answer, expected, options, message", [
    (0.25, 0.25, {}, "Correct: 0.2500."),
    (0.25, 0.25, {"decimals": 2}, "Correct: 0.25."),
    (8, 8.0, {"decimals": 0}, "Correct: 8."),
    (0.3, 0.25, {}, "Not yet: 0.3000 is not it. Check each step against the text above."),
    (0.3, 0.25, {"decimals": 1}, "Not yet: 0.3 is not it. Check each step against the text above."),
    (1e15 - 1, 1.0, {}, "Not yet: 999999999999999.0000 is not it. Check each step against the text above."),
    (1e15, 1.0, {}, "Not yet: 1e+15 is not it. Check each step against the text above."),
    (-1e15, 1.0, {}, "Not yet: -1e+15 is not it. Check each step against the text above."),
    (10**400, 1.0, {}, "Not yet: 1.00000e+400 is not it. Check each step against the text above."),
    (4.6, 1.0, {"sig_digits": 3}, "Not yet: 4.6 is not it. Check each step against the text above."),
    (1.23456789, 1.0, {"sig_digits": 3}, "Not yet: 1.23457 is not it. Check each step against the text above."),
    (1.23456789, 1.0, {"sig_digits": 3, "decimals": 5},
     "Not yet: 1.234568 is not it. Check each step against the text above."),
])
def test_the_verdict_shows_the_answer_and_the_right_value_as_asked(answer, expected, options, message):
    assert grade_number(answer, expected, **options).message == message


@pytest.mark.parametrize("value, sig_digits, places", [
    (5.0589, 3, 2), (-5.0589, 3, 2), (0.0417, 3, 4), (14.9, 3, 1), (999.5, 3, 0), (13_288.0, 3, 0), (0.0, 3, 2),
    (0.5, 1, 1), (7.0, 1, 0),
])
def test_decimals_for(value, sig_digits, places):
    assert decimals_for(value, sig_digits) == places


def test_decimals_for_checks_its_arguments():
    with pytest.raises(TypeError, match="^value must be a number, got str$"):
        decimals_for("1", 3)
    with pytest.raises(ValueError, match="^sig_digits must be at least 1, got 0$"):
        decimals_for(1.0, 0)
    assert SIG_DIGITS == 3


# --- what counts as a number, and what a student typed -----------------------------------------


@pytest.mark.parametrize("answer, right", [
    (Fraction(1, 4), True), ("0.25", True), (" 0.25 ", True), (np.float32(0.25), True), (np.int64(0), False),
    ("1/4", None), ([0.25], None), (1j, None), (True, None), (np.bool_(False), None), ({}, None),
])
def test_numbers_of_every_type_are_graded_and_anything_else_is_no_number(answer, right):
    feedback = grade_number(answer, 0.25)
    if right is None:
        assert feedback.correct is False and feedback.message == f"Not yet: expected a number, got {answer!r}."
    else:
        assert feedback.correct is right


def test_a_number_beyond_a_float_keeps_its_sign():
    for huge, sign in [(10**400, ""), (-(10**400), "-"), (Fraction(10**400, 3), ""), (Fraction(-(10**400), 3), "-")]:
        feedback = grade_number(huge, 1.0, mistakes={-1e300: "by a dropped sign."})
        assert feedback.correct is False and " is not it" in feedback.message
        assert feedback.message.startswith(f"Not yet: {sign}"), feedback.message


@pytest.mark.parametrize("typed, given", [
    ("1.30", 3), (" 1.30 ", 3), ("-0.0130", 3), ("+1.30E-5", 3), ("1.3e2", 2), ("1300", 4), ("0", 1), ("0.0", 1),
    (1.30, 2), (1300, 2), (0.013, 2), (-1.3e-5, 2), (7, 1),
])
def test_the_significant_digits_an_answer_was_written_with(typed, given):
    """Typed as text, every digit after the leading zeros counts; a number's trailing zeros do not."""
    assert feedback_module._digits_given(typed) == given


def test_a_typed_answer_with_enough_digits_is_off_in_the_last_digit_and_one_with_too_few_is_short():
    # 1.30 for 1.3219: right to 2 digits. Typed "1.30" it has 3 (a slip); as the number 1.30, or "1.3", it has 2.
    assert grade_number("1.30", 1.3219, sig_digits=3).message == (
        "Not yet: 1.3 is close but off in the last digit. If you rounded values along the way, carry more digits "
        "and round only the result; otherwise check the last step.")
    for short in (1.30, "1.3", 1.3):
        assert grade_number(short, 1.3219, sig_digits=3).message == (
            "Not yet: 1.3 is close, but the exercise asks for 3 significant digits.")
    # 1.33 is as far as 1.31 from 1.32 but does not round to 1.3: off in the last digit, whatever is typed
    assert "off in the last digit" in grade_number("1.33", 1.3219, sig_digits=3).message


def test_too_few_digits_looks_at_what_was_typed():
    assert feedback_module._too_few_digits(2, 2, 1.9, 3) and feedback_module._too_few_digits(2.0, "2", 1.9, 3)
    assert not feedback_module._too_few_digits(2.0, 2.0, 1.9, 3)  # a float was typed with its point: 2 digits
    assert feedback_module._too_few_digits(2.0, 2.0, 1.9, 4) is False  # "2.0" to 2 digits is 1.9, not 2.0
    assert feedback_module._too_few_digits(1.9, 1.9, 1.9, 3)  # 1.9 is 1.90 with too few digits
    assert not feedback_module._too_few_digits(1.9, "1.90", 1.9, 3)
    assert not feedback_module._too_few_digits(0, 0, 0.004, 3)  # 0 is nothing rounded: not "too few digits"
    assert not feedback_module._too_few_digits(math.inf, math.inf, 1.0, 3)


# --- the hints, in their order -----------------------------------------------------------------


def test_a_named_mistake_is_recognised_cut_off_or_rounded_twice_at_the_asked_precision():
    mistakes = {3.5159: "by the natural log.", 0.79549: "by rounding twice."}
    for answer in (3.52, 3.5159, 3.51, "3.51"):  # rounded, exact, cut off
        assert grade_number(answer, 5.0589, mistakes=mistakes, sig_digits=3).message == (
            f"Not yet: {float(answer):g} is what you get by the natural log.")
    assert grade_number(0.796, 5.0589, mistakes=mistakes, sig_digits=3).message == (
        "Not yet: 0.796 is what you get by rounding twice.")  # 0.79549 -> 0.7955 -> 0.796
    # without a stated precision a mistake is matched to rel_tol only
    assert "is not it" in grade_number(3.51, 5.0589, mistakes=mistakes).message


def test_the_first_matching_mistake_names_the_answer():
    mistakes = {2.0: "by the first slip.", 2.0004: "by the second slip."}
    assert grade_number(2.0, 5.0, mistakes=mistakes).message == "Not yet: 2.0000 is what you get by the first slip."


def test_too_few_digits_comes_before_a_mistake_of_that_value():
    assert grade_number(2, 1.9, mistakes={2.0: "by a balanced tree."}, sig_digits=3).message == (
        "Not yet: 2 has too few digits: the exercise asks for 3 significant digits. If that is all your working "
        "gives, it is what you get by a balanced tree.")
    assert grade_number(2.00, 1.9, mistakes={2.0: "by a balanced tree."}, sig_digits=3).message == (
        "Not yet: 2 is what you get by a balanced tree.")


@pytest.mark.parametrize("answer, expected, percentage", [
    (60, 0.6, True), (-60, -0.6, True), (1.67, 0.0167, True), (100, 1.0, False), (0, 0.0, False),
    (150, 1.5, False), (6, 0.6, False),
])
def test_a_percentage_only_where_a_fraction_between_0_and_1_is_asked(answer, expected, percentage):
    message = grade_number(answer, expected, sig_digits=3).message
    assert ("looks like a percentage; give it as a fraction (divide by 100)" in message) is percentage, message


def test_each_rounding_slip_gets_its_hint_in_order():
    def hint(answer, expected=4.6166, **options):
        return grade_number(answer, expected, sig_digits=3, **options).message

    assert hint(4.61) == ("Not yet: 4.61 is cut off after 3 significant digits: round instead (a next digit of 5 "
                          "or more raises the last one).")
    assert hint(4.61, early_rounded=[4.609]) == (
        "Not yet: 4.61 comes from cutting the result off after 3 significant digits (round instead), or from "
        "rounding intermediate values too early (carry more digits and round only the result).")
    assert hint(0.796, 0.79549) == ("Not yet: 0.796 comes from rounding a rounded number (0.12345 -> 0.1235 -> "
                                    "0.124, where 0.12345 -> 0.123): round the full-precision value once.")
    assert hint(4.63, early_rounded=[4.6251]) == (
        "Not yet: 4.63 is what you get by rounding the intermediate values to 3 significant digits before the last "
        "step: carry two or three more digits through the steps and round only the result.")
    assert hint(4.63) == ("Not yet: 4.63 is close but off in the last digit. If you rounded values along the way, "
                          "carry more digits and round only the result; otherwise check the last step.")
    assert hint(4.6) == "Not yet: 4.6 is close, but the exercise asks for 3 significant digits."
    assert hint(4.7) == "Not yet: 4.7 is not it. Check each step against the text above."
    assert hint(4.62, early_rounded=[4.62]) == "Correct: 4.6166."  # early rounding that gives the right answer


def test_a_slip_that_gives_the_right_value_is_no_slip():
    # 4.6126 cut off is 4.61, which is also 4.6126 rounded: right, not "cut off"
    assert grade_number(4.61, 4.6126, sig_digits=3).correct
    assert "is not it" in grade_number(4.7, 4.6166, sig_digits=3, early_rounded=[4.6166]).message


def test_one_significant_digit_has_no_digit_fewer_to_be_close_to():
    assert grade_number(0.4, 0.25, sig_digits=1).message == (
        "Not yet: 0.4 is not it. Check each step against the text above.")
    assert grade_number(0.3, 0.25, sig_digits=1).correct  # half up


def test_early_rounded_values_are_checked():
    with pytest.raises(TypeError, match="^early_rounded value must be a number, got str$"):
        grade_number(4.63, 4.6166, sig_digits=3, early_rounded=["4.63"])


def test_the_misrounded_values_of_a_mistake():
    assert feedback_module._misrounded(0.79549, 3) == [0.795, 0.796, 0.795, 0.795]
    assert feedback_module._misrounded(4.6166, 3) == [4.61, 4.62, 4.62, 4.62]
    assert feedback_module._misrounded(0.01249, 2) == [0.012, 0.013, 0.012, 0.012]


# --- round_to and half_unit ---------------------------------------------------------------------


def test_round_to_keeps_the_exponent_of_the_value():
    assert round_to(1.0, 3) == 1.0 and round_to(10.0, 1) == 10.0 and round_to(-1.0, 2) == -1.0
    assert round_to(-4.6166, 3, ROUND_DOWN) == -4.61  # cut off toward 0
    assert round_to(0.5, 1) == 0.5 and round_to(0.05, 1) == 0.05 and round_to(95, 1) == 100.0
    with pytest.raises(TypeError, match="^value must be a number, got str$"):
        round_to("1.0", 3)
    with pytest.raises(ValueError, match="^sig_digits must be at least 1, got 0$"):
        round_to(1.0, 0)


@pytest.mark.parametrize("value", [math.inf, -math.inf, math.nan, 0, 0.0])
def test_half_unit_of_no_finite_digits_is_zero(value):
    assert half_unit(value, 3) == 0.0


@pytest.mark.parametrize("value", [True, np.bool_(True), None, "1"])
def test_half_unit_refuses_what_is_no_number(value):
    with pytest.raises(TypeError, match=f"^value must be a number, got {type(value).__name__}$"):
        half_unit(value, 3)


# --- grade_choice ----------------------------------------------------------------------------------


def test_a_choice_is_read_without_case_or_spaces_and_explained():
    explanations = {"a": "it is not.", "B": "it is."}
    assert grade_choice(" b ", "b", explanations=explanations) == Feedback(True, "Correct: it is.")
    assert grade_choice("A", "B", explanations=explanations) == Feedback(False, "Not yet: it is not.")
    assert grade_choice("c", "B", explanations=explanations) == Feedback(False, "Not yet: answer one of A, B.")
    assert grade_choice(1, "B", explanations={"1": "one.", "B": "b."}) == Feedback(False, "Not yet: one.")
    with pytest.raises(TypeError, match="with str choices, got dict"):
        grade_choice("A", "A", explanations={1: "one."})


def test_a_verdict_cannot_be_changed_once_given():
    feedback = grade_number(1.0, 1.0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        feedback.correct = False


def test_an_int_answer_is_shown_as_a_number_of_decimals_and_only_a_huge_one_by_its_digits():
    assert grade_number(7, 1.0).message == "Not yet: 7.0000 is not it. Check each step against the text above."
    assert grade_number(-7, 1.0, sig_digits=3).message == (
        "Not yet: -7 is not it. Check each step against the text above.")


def test_the_band_is_half_a_unit_and_a_billionth_more_for_float_rounding():
    half = half_unit(1.0, 3)
    assert grade_number(1.0 + half * (1 + 0.5e-9), 1.0, sig_digits=3).correct
    assert not grade_number(1.0 + half * (1 + 1.5e-9), 1.0, sig_digits=3).correct


def test_a_value_near_the_rounded_answer_but_outside_the_band_is_off_in_the_last_digit_not_cut_off():
    # 4.6126 cut off and rounded are both 4.61; 4.606 is within half a unit of 4.61, not of 4.6126
    assert grade_number(4.606, 4.6126, sig_digits=3).message == (
        "Not yet: 4.606 is close but off in the last digit. If you rounded values along the way, carry more digits "
        "and round only the result; otherwise check the last step.")


def test_two_significant_digits_are_close_at_one():
    assert grade_number(0.7, 0.6533, sig_digits=2).message == (
        "Not yet: 0.7 is close, but the exercise asks for 2 significant digits.")
    assert "off in the last digit" in grade_number(0.61, 0.6533, sig_digits=2).message


def test_a_mistake_is_matched_rounded_to_one_two_or_three_more_digits_first():
    assert feedback_module._misrounded(0.0124951, 2) == [0.012, 0.013, 0.013, 0.012]
    assert feedback_module._misrounded(0.012499949, 2) == [0.012, 0.013, 0.013, 0.013]
