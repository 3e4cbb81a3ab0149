"""Chapter 3's self-checks: any answer at the stated precision passes, typical mistakes get their hint.

(To be merged into tests/test_exercises.py by the lead.)
"""

import json
import math
from pathlib import Path

import pytest

from lmcore import exercises as ex
from lmcore.exercises.feedback import half_unit

ROOT = Path(__file__).resolve().parents[1]

CHAPTER_3_CHECKS = [
    ex.check_loss_in_bits, ex.check_reverse_cross_entropy, ex.check_below_the_floor,
    ex.check_coded_bits_per_character, ex.check_brown_bits_per_word,
]


def h(p, m):
    return -sum(a * math.log2(b) for a, b in zip(p, m))


# checker: (exact answer, significant digits the notebook asks for, values of the typical mistakes)
NUMERIC = {
    ex.check_loss_in_bits: (3.2 / math.log(2), 3, [3.2 * math.log(2), 3.2, math.exp(3.2), 2**3.2,
                                                   3.2 / math.log10(2)]),
    ex.check_reverse_cross_entropy: (h((0.6, 0.4), (0.9, 0.1)), 3, [
        h((0.9, 0.1), (0.6, 0.4)), h((0.6, 0.4), (0.6, 0.4)), h((0.9, 0.1), (0.9, 0.1)),
        h((0.6, 0.4), (0.9, 0.1)) - h((0.6, 0.4), (0.6, 0.4)), h((0.6, 0.4), (0.9, 0.1)) * math.log(2)]),
    ex.check_coded_bits_per_character: (1.25, 3, [12_500 / 80_000, 80_000 / 12_500, 80_000 / 100_000,
                                                  1.25 * math.log(2)]),
    ex.check_brown_bits_per_word: (math.log2(247), 3, [math.log(247), math.log10(247), 247 / 8, 1 / 247]),
}


def rounded(value: float, sig_digits: int) -> float:
    return float(f"{value:.{sig_digits}g}")


@pytest.mark.parametrize("check", CHAPTER_3_CHECKS, ids=lambda f: f.__name__)
def test_unanswered_is_neither_right_nor_wrong(check):
    assert check(None).correct is None and "Not answered yet" in str(check(None))


def test_every_numeric_check_is_in_the_table():
    assert set(CHAPTER_3_CHECKS) - {ex.check_below_the_floor} == set(NUMERIC)
    assert ex.chapter03.SIG_DIGITS == 3


@pytest.mark.parametrize("check", NUMERIC, ids=lambda f: f.__name__)
def test_any_answer_at_the_stated_precision_is_right(check):
    expected, digits, _ = NUMERIC[check]
    half = half_unit(expected, digits)
    assert check(expected).correct and check(rounded(expected, digits)).correct
    assert check(f"{expected:.{digits}g}").correct  # typed as text
    for sign in (1, -1):
        assert check(expected + sign * half * 0.999).correct
        assert not check(expected + sign * half * 1.02).correct


@pytest.mark.parametrize("check", NUMERIC, ids=lambda f: f.__name__)
def test_each_typical_mistake_gets_its_own_hint(check):
    expected, digits, mistakes = NUMERIC[check]
    hints = set()
    for value in mistakes:
        for answer in (value, rounded(value, digits)):
            feedback = check(answer)
            assert feedback.correct is False and " is what you get " in feedback.message, (value, feedback)
        hints.add(feedback.message.split(" is what you get ")[1])
        assert abs(rounded(expected, digits) - value) > half_unit(value, digits)
    assert len(hints) == len(mistakes)
    assert "expected a number" in check("about four").message


def test_the_course_numbers_behind_the_checks():
    assert ex.check_loss_in_bits(4.62).correct and not ex.check_loss_in_bits(4.63).correct
    assert ex.check_reverse_cross_entropy(1.42).correct
    assert ex.check_brown_bits_per_word(7.95).correct
    assert "significant digits" in ex.check_brown_bits_per_word(7.9).message  # the course's rounding
    assert ex.check_coded_bits_per_character(1.25).correct


def test_below_the_floor_choice():
    assert ex.check_below_the_floor("b").correct
    assert ex.check_below_the_floor(" A ").correct is False
    assert "Gibbs" in ex.check_below_the_floor("C").message
    assert "answer one of A, B, C" in ex.check_below_the_floor("D").message


def test_the_notebook_states_each_precision_and_checks_each_once():
    cells = json.loads((ROOT / "notebooks" / "03_cross_entropy.ipynb").read_text(encoding="utf-8"))["cells"]
    for check in CHAPTER_3_CHECKS:
        at = [i for i, c in enumerate(cells) if f"exercises.{check.__name__}(answer)" in "".join(c["source"])]
        assert len(at) == 1, check.__name__
        question = "".join(cells[at[0] - 1]["source"])
        if check in NUMERIC:
            assert "to 3 significant digits" in question, check.__name__
