"""What the self-check tests share (tests/unit/test_feedback.py, tests/unit/test_exercises_ch0N.py and
tests/notebooks/test_exercises.py): a verdict's assertion, a student's rounding, half a unit of the last
asked digit computed by hand (not by lmcore), and the name of the rounding hint a checker gives.

A test module imports what it needs (``from exercise_support import ...``; pytest puts ``tests/`` on
the path, as for ``browser_support``).
"""

from __future__ import annotations

import math


def assert_feedback(check, answer, correct, words):
    """``check(answer)`` is right (``correct``) or not, and its message holds ``words``."""
    feedback = check(answer)
    assert feedback.correct is correct and words in feedback.message, feedback.message


def rounded(value: float, sig_digits: int) -> float:
    """``value`` as a student writes it to ``sig_digits`` significant digits.

    >>> rounded(4.6166, 3), rounded(0.000952381, 2)
    (4.62, 0.00095)
    """
    return float(f"{value:.{sig_digits}g}")


def half_unit_by_hand(value: float, sig_digits: int) -> float:
    """Half a unit of the ``sig_digits``-th significant digit of ``value``, by the formula (0 has none).

    >>> half_unit_by_hand(1.3219, 3), half_unit_by_hand(57.54, 3), half_unit_by_hand(0.0, 3)
    (0.005, 0.05, 0.0)
    """
    if value == 0:
        return 0.0
    return 0.5 * 10 ** (math.floor(math.log10(abs(value))) - sig_digits + 1)


def cross_entropy_bits(p, m) -> float:
    """H(p, m) in bits, written out: -Σ p log2 m.

    >>> cross_entropy_bits((0.5, 0.5), (0.5, 0.5))
    1.0
    """
    return -sum(a * math.log2(b) for a, b in zip(p, m))


#: Words of each rounding hint of ``grade_number``, by the slip it names.
ROUNDING_HINTS = {"truncated": "is cut off after", "double-rounded": "rounding a rounded number",
                  "truncated or early-rounded": "comes from cutting the result off",
                  "early-rounded": "rounding the intermediate values", "close": "off in the last digit",
                  "too few digits": "significant digits."}


def rounding_hint_for(check, answer) -> str:
    """What the checker says of ``answer``: "right", "mistake" (a named one), a key of
    :data:`ROUNDING_HINTS`, or "not it"."""
    feedback = check(answer)
    if feedback.correct:
        return "right"
    if " is what you get " in feedback.message and "intermediate values" not in feedback.message:
        return "mistake"
    return next((name for name, words in ROUNDING_HINTS.items() if words in feedback.message), "not it")
