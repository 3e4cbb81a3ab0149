"""What every self-check shares: the :class:`Feedback` verdict and the number and choice graders.

A chapter's checks (``lmcore.exercises.chapterNN``) are each a few lines on top of
:func:`grade_number` or :func:`grade_choice`: the expected answer, and the typical
wrong answers with the hint that names the mistake. (``lmcore.checks`` validates a
function's arguments; a student's answer is graded here, never refused.)

>>> grade_number(0.25, 1 / 4).correct, grade_number(None, 1.0).correct
(True, None)
"""

from __future__ import annotations

import html
import math
import numbers
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal

import numpy as np

from lmcore.checks import check_int, check_number, check_str
from lmcore.i18n import tr, translatable

__all__ = ["SIG_DIGITS", "Feedback", "unanswered", "grade_choice", "grade_number", "decimals_for", "half_unit",
           "round_to"]

#: The precision most numeric exercises ask for ("to 3 significant digits").
SIG_DIGITS = 3


@dataclass(frozen=True)
class Feedback:
    """The verdict on one answer; prints as one line, renders as coloured HTML."""

    correct: bool | None
    message: str

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return self.message

    def _repr_html_(self) -> str:
        colour = {True: "#1b7a2f", False: "#b3261e", None: "#555"}[self.correct]
        return f'<p style="color:{colour};font-weight:600">{html.escape(self.message)}</p>'


def unanswered() -> Feedback:
    """The verdict on ``None``, in the course's language."""
    return Feedback(None, tr("Not answered yet: replace None with your answer and run the cell again."))


def grade_number(answer: object, expected: float, *, mistakes: dict[float, str] | None = None, decimals: int = 4,
                 rel_tol: float = 5e-4, sig_digits: int | None = None,
                 early_rounded: Iterable[float] = ()) -> Feedback:
    """Compare a numeric answer with ``expected``; match known ``mistakes`` {value: hint} too.

    Without ``sig_digits``, an answer is right when it agrees with ``expected`` to
    ``rel_tol`` (so that an answer rounded to four significant digits passes). ``None`` is no
    answer yet; NaN, text that is no number, a list... are told a number is expected. A right
    answer is shown as ``expected`` with ``decimals`` decimal places (:func:`decimals_for` gives
    the places of a number of significant digits).

    With ``sig_digits`` (the precision the exercise states: "to 3 significant digits"),
    any answer at that precision is right: one within half a unit of the
    ``sig_digits``-th significant digit of ``expected``,

        |answer - expected| <= 0.5 * 10 ** (floor(log10 |expected|) - sig_digits + 1),

    and a mistake is recognised at the same precision of its own value (cut off or rounded
    twice, too). The right value given with too few digits is told so first, and a mistake of that
    value only after it: too few digits is the simpler explanation (2 for 1.90). A wrong answer
    that no hint in ``mistakes`` names is told what went wrong, in this order:

    - a percentage where a fraction is asked: 100 times an ``expected`` between 0 and 1 (60 for 0.6);
    - cut off instead of rounded: ``expected`` truncated to ``sig_digits`` digits (4.61 for 4.6166;
      where that is also an early-rounded result, the hint names both slips);
    - rounded twice: ``expected`` rounded to one to three more digits, then to ``sig_digits``
      (0.796 from 0.7955 for 0.79549);
    - rounded too early: one of ``early_rounded``, the results the exercise's steps give when
      each intermediate value is rounded to ``sig_digits`` digits (0.394 × 0.895 = 0.353 for 0.352);
    - too few digits: right only to one digit fewer, and given with fewer than ``sig_digits``;
    - off in the last digits: right to one digit fewer but given with enough digits (a slip late
      in the steps, or intermediate values rounded);
    - otherwise, not it.

    >>> grade_number(1.32, 1.3219, sig_digits=3).correct, grade_number(1.33, 1.3219, sig_digits=3).correct
    (True, False)
    >>> print(grade_number(1.3, 1.3219, sig_digits=3))
    Not yet: 1.3 is close, but the exercise asks for 3 significant digits.
    >>> print(grade_number(4.61, 4.6166, sig_digits=3))  # doctest: +NORMALIZE_WHITESPACE
    Not yet: 4.61 is cut off after 3 significant digits: round instead (a next digit of 5 or more
    raises the last one).
    """
    expected = check_number(expected, "expected")
    decimals = check_int(decimals, "decimals", minimum=0)
    rel_tol = check_number(rel_tol, "rel_tol", low=0)
    if sig_digits is not None:
        sig_digits = check_int(sig_digits, "sig_digits")
    for value in mistakes or {}:
        check_number(value, f"mistakes key {value!r}")
    if answer is None:
        return unanswered()
    original, answer = answer, _as_number(answer)
    if answer is None or math.isnan(answer):  # NaN: "not a number", whatever computed it
        return Feedback(False, tr("Not yet: expected a number, got {answer}.", answer=repr(original)))
    if sig_digits is None:
        def agrees(value: float) -> bool:
            return math.isclose(answer, value, rel_tol=rel_tol)
        shown = f"{answer:.{decimals}f}" if not abs(answer) >= 1e15 else f"{answer:.6g}"  # no 300-digit numbers
    else:
        def agrees(value: float, digits_needed: int = sig_digits) -> bool:
            return abs(answer - value) <= half_unit(value, digits_needed) * (1 + 1e-9)  # a hair for float rounding
        shown = f"{answer:.{max(decimals, sig_digits) + 2}g}"
    if math.isinf(answer) and isinstance(original, numbers.Integral):  # an int beyond a float: its digits
        shown = f"{Decimal(int(original)):.6g}"
    if agrees(expected):
        return Feedback(True, tr("Correct: {value}.", value=f"{expected:.{decimals}f}"))
    named = [hint for value, hint in (mistakes or {}).items() if agrees(value)]
    if sig_digits is not None and _too_few_digits(answer, original, expected, sig_digits):
        # the simplest explanation comes first; a mistake of the same value is named after it
        if named:
            return Feedback(False, tr("Not yet: {answer} has too few digits: the exercise asks for {digits} "
                                      "significant digits. If that is all your working gives, it is what you get "
                                      "{hint}",
                                      answer=shown, digits=sig_digits, hint=tr(named[0])))
        return Feedback(False, tr("Not yet: {answer} is close, but the exercise asks for {digits} significant digits.",
                                  answer=shown, digits=sig_digits))
    if not named and sig_digits is not None:
        named = [hint for value, hint in (mistakes or {}).items()
                 if any(map(agrees, _misrounded(value, sig_digits)))]
    if named:
        return Feedback(False, tr("Not yet: {answer} is what you get {hint}", answer=shown, hint=tr(named[0])))
    if 0 < abs(expected) < 1 and agrees(100 * expected):
        return Feedback(False, tr("Not yet: {answer} looks like a percentage; give it as a fraction (divide by 100).",
                                  answer=shown))
    if sig_digits is not None:
        slip = _rounding_slip(answer, original, expected, sig_digits, early_rounded, agrees)
        if slip is not None:
            return Feedback(False, tr(slip, answer=shown, digits=sig_digits))
    return Feedback(False, tr("Not yet: {answer} is not it. Check each step against the text above.", answer=shown))


def _rounding_slip(answer: float, original: object, expected: float, sig_digits: int,
                   early_rounded: Iterable[float], agrees: Callable[..., bool]) -> str | None:
    """The hint (untranslated, with ``{answer}`` and ``{digits}`` fields) for an answer that went
    wrong in its rounding, or None; see :func:`grade_number` for the order of the checks."""
    right = round_to(expected, sig_digits)

    def names(value: float) -> bool:  # a value the student could have written that is not the right one
        return value != right and agrees(value)

    cut_off, *rounded_twice = _misrounded(expected, sig_digits)
    truncated = names(cut_off)
    rounded_early = any(names(round_to(check_number(value, "early_rounded value"), sig_digits))
                        for value in early_rounded)
    if truncated and rounded_early:  # two slips give this answer: name both
        return translatable("Not yet: {answer} comes from cutting the result off after {digits} significant digits "
                            "(round instead), or from rounding intermediate values too early (carry more digits and "
                            "round only the result).")
    if truncated:
        return translatable("Not yet: {answer} is cut off after {digits} significant digits: round instead (a next "
                            "digit of 5 or more raises the last one).")
    if any(map(names, rounded_twice)):
        return translatable("Not yet: {answer} comes from rounding a rounded number (0.12345 -> 0.1235 -> 0.124, "
                            "where 0.12345 -> 0.123): round the full-precision value once.")
    if rounded_early:
        return translatable("Not yet: {answer} is what you get by rounding the intermediate values to {digits} "
                            "significant digits before the last step: carry two or three more digits through the "
                            "steps and round only the result.")
    if sig_digits > 1 and agrees(expected, sig_digits - 1):
        if _digits_given(original) < sig_digits:
            return translatable("Not yet: {answer} is close, but the exercise asks for {digits} significant digits.")
        return translatable("Not yet: {answer} is close but off in the last digit. If you rounded values along the "
                            "way, carry more digits and round only the result; otherwise check the last step.")
    return None


def _misrounded(value: float, sig_digits: int) -> list[float]:
    """``value`` cut off, or rounded twice, to ``sig_digits`` digits: how a mistake's value can
    reach the checker (0.796 for 0.795462 rounded to 0.7955 first)."""
    return [round_to(value, sig_digits, ROUND_DOWN),
            *(round_to(round_to(value, sig_digits + extra), sig_digits) for extra in (1, 2, 3))]


def round_to(value: float, sig_digits: int, rounding: str = ROUND_HALF_UP) -> float:
    """``value`` to ``sig_digits`` significant digits, rounded as by hand: half up, from the
    digits the float prints as (0.7955 is 0.7955 here, not 0.79549999...), or cut off
    (``rounding=decimal.ROUND_DOWN``).

    >>> round_to(0.79549, 3), round_to(0.7955, 3), round_to(4.6166, 3, ROUND_DOWN), round_to(-2.25, 2)
    (0.795, 0.796, 4.61, -2.3)
    """
    value = check_number(value, "value")
    sig_digits = check_int(sig_digits, "sig_digits")
    if value == 0:
        return 0.0
    printed = Decimal(repr(value))
    exponent = printed.adjusted() - sig_digits + 1
    return float(printed.quantize(Decimal(f"1e{exponent}"), rounding=rounding))  # a unit of the last digit kept


def _too_few_digits(answer: float, original: object, expected: float, sig_digits: int) -> bool:
    """Whether ``answer`` is ``expected`` written with fewer than ``sig_digits`` significant digits:
    2 or "2" for 1.90 at 3 digits. A float with a whole value was typed with its point, so 2.0 has
    two digits (and is no rounding of 1.90 to two).

    >>> _too_few_digits(2, 2, 1.9, 3), _too_few_digits(2.0, 2.0, 1.9, 3), _too_few_digits(2.0, "2.00", 1.9, 3)
    (True, False, False)
    """
    if answer == 0 or not math.isfinite(answer):
        return False
    given = _digits_given(original) + (isinstance(original, float) and answer.is_integer())
    return given < sig_digits and answer == round_to(expected, given)


def _digits_given(original: object) -> int:
    """How many significant digits an answer was written with: typed as text, every digit after the
    leading zeros counts ("1.30" has 3); a number's trailing zeros don't (1.3, 1.30 and 1300 have 2)."""
    typed = isinstance(original, str)
    text = original.strip() if typed else repr(float(original))
    digits = re.sub(r"\D", "", text.lower().split("e")[0])  # the mantissa's digits
    return max(len(re.sub(r"^0+", "", digits) if typed else re.sub(r"^0+|0+$", "", digits)), 1)


def _as_number(answer: object) -> float | None:
    """An answer as a float, or None if it is no number: an int or a float (an int beyond a float's
    range is ±inf), a numpy number, a fraction, or a number typed as text ("0.6"); a bool is no
    number answer (True would otherwise count as 1)."""
    if isinstance(answer, (bool, np.bool_)):
        return None
    try:
        return float(answer)
    except OverflowError:  # an int (or a fraction) beyond a float's range
        return math.inf if answer > 0 else -math.inf
    except (TypeError, ValueError):
        return None


def decimals_for(value: float, sig_digits: int) -> int:
    """The decimal places that show ``value`` to ``sig_digits`` significant digits (none for a
    number with that many digits before the point).

    >>> decimals_for(5.0589, 3), decimals_for(0.0417, 3), decimals_for(14.9, 3), decimals_for(13_288.0, 3)
    (2, 4, 1, 0)
    """
    value = check_number(value, "value")
    sig_digits = check_int(sig_digits, "sig_digits")
    if value == 0 or not math.isfinite(value):
        return sig_digits - 1
    return max(0, sig_digits - 1 - math.floor(math.log10(abs(value))))


def half_unit(value: float, sig_digits: int) -> float:
    """Half a unit of the ``sig_digits``-th significant digit of ``value``: the widest an answer
    rounded to ``sig_digits`` significant digits can be from it.

    >>> half_unit(1.3219, 3), half_unit(0.000952, 3), half_unit(57.54, 3)
    (0.005, 5e-07, 0.05)
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"value must be a number, got {type(value).__name__}")
    sig_digits = check_int(sig_digits, "sig_digits")
    if value == 0 or not math.isfinite(value):
        return 0.0
    unit = 10.0 ** (math.floor(math.log10(abs(value))) - sig_digits + 1)
    return float(f"{unit / 2:.3g}")


def grade_choice(answer: object, expected: str, *, explanations: dict[str, str]) -> Feedback:
    """Compare a multiple-choice answer (case and surrounding spaces ignored) with ``expected``, one
    of the keys of ``explanations`` {choice: why it is right or wrong}."""
    check_str(expected, "expected")
    if not isinstance(explanations, Mapping) or not all(isinstance(key, str) for key in explanations):
        raise TypeError(f"explanations must be a dict {{choice: explanation}} with str choices, "
                        f"got {type(explanations).__name__}")
    if answer is None:
        return unanswered()
    key = str(answer).strip().upper()
    known = {k.upper(): v for k, v in explanations.items()}
    if key not in known:
        return Feedback(False, tr("Not yet: answer one of {choices}.", choices=", ".join(sorted(known))))
    verdict = tr("Correct: {explanation}") if key == expected.upper() else tr("Not yet: {explanation}")
    return Feedback(key == expected.upper(), verdict.format(explanation=tr(known[key])))
