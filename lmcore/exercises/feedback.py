"""What every self-check shares: the :class:`Feedback` verdict and the number and choice checkers.

A chapter's checks (``lmcore.exercises.chapterNN``) are each a few lines on top of
:func:`check_number` or :func:`check_choice`: the expected answer, and the typical
wrong answers with the hint that names the mistake.

>>> check_number(0.25, 1 / 4).correct, check_number(None, 1.0).correct
(True, None)
"""

from __future__ import annotations

import html
import math
import numbers
from dataclasses import dataclass
from decimal import Decimal

import numpy as np

from lmcore.checks import check_int
from lmcore.checks import check_number as _check_real
from lmcore.i18n import tr

__all__ = ["Feedback", "unanswered", "check_choice", "check_number", "half_unit"]


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


def check_number(answer: object, expected: float, *, mistakes: dict[float, str] | None = None, digits: int = 4,
                 rel_tol: float = 5e-4, sig_digits: int | None = None) -> Feedback:
    """Compare a numeric answer with ``expected``; match known ``mistakes`` {value: hint} too.

    Without ``sig_digits``, an answer is right when it agrees with ``expected`` to
    ``rel_tol`` (so that an answer rounded to four significant digits passes).

    With ``sig_digits`` (the precision the exercise states: "to 3 significant digits"),
    any answer at that precision is right: one within half a unit of the
    ``sig_digits``-th significant digit of ``expected``,

        |answer - expected| <= 0.5 * 10 ** (floor(log10 |expected|) - sig_digits + 1),

    and a mistake is recognised at the same precision of its own value. An answer that
    is right only to one digit fewer is told to give more digits.

    >>> check_number(1.32, 1.3219, sig_digits=3).correct, check_number(1.33, 1.3219, sig_digits=3).correct
    (True, False)
    >>> print(check_number(1.3, 1.3219, sig_digits=3))
    Not yet: 1.3 is close, but the exercise asks for 3 significant digits.
    """
    expected = _check_real(expected, "expected")
    digits = check_int(digits, "digits", minimum=0)
    rel_tol = _check_real(rel_tol, "rel_tol", low=0)
    if sig_digits is not None:
        sig_digits = check_int(sig_digits, "sig_digits")
    for value in mistakes or {}:
        _check_real(value, f"mistakes key {value!r}")
    if answer is None:
        return unanswered()
    original, answer = answer, _as_number(answer)
    if answer is None:
        return Feedback(False, tr("Not yet: expected a number, got {answer}.", answer=repr(original)))
    if sig_digits is None:
        def agrees(value: float) -> bool:
            return math.isclose(answer, value, rel_tol=rel_tol)
        shown = f"{answer:.{digits}f}" if not abs(answer) >= 1e15 else f"{answer:.6g}"  # no 300-digit numbers
    else:
        def agrees(value: float, digits_needed: int = sig_digits) -> bool:
            return abs(answer - value) <= half_unit(value, digits_needed) * (1 + 1e-9)  # a hair for float rounding
        shown = f"{answer:.{max(digits, sig_digits) + 2}g}"
    if math.isinf(answer) and isinstance(original, numbers.Integral):  # an int beyond a float: its digits
        shown = f"{Decimal(int(original)):.6g}"
    if agrees(expected):
        return Feedback(True, tr("Correct: {value}.", value=f"{expected:.{digits}f}"))
    for value, hint in (mistakes or {}).items():
        if agrees(value):
            return Feedback(False, tr("Not yet: {answer} is what you get {hint}", answer=shown, hint=tr(hint)))
    if sig_digits is not None and sig_digits > 1 and agrees(expected, sig_digits - 1):
        return Feedback(False, tr("Not yet: {answer} is close, but the exercise asks for {digits} significant digits.",
                                  answer=shown, digits=sig_digits))
    return Feedback(False, tr("Not yet: {answer} is not it. Check each step against the text above.", answer=shown))


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


def check_choice(answer: object, expected: str, *, explanations: dict[str, str]) -> Feedback:
    """Compare a multiple-choice answer (case and surrounding spaces ignored)."""
    if answer is None:
        return unanswered()
    key = str(answer).strip().upper()
    known = {k.upper(): v for k, v in explanations.items()}
    if key not in known:
        return Feedback(False, tr("Not yet: answer one of {choices}.", choices=", ".join(sorted(known))))
    verdict = tr("Correct: {explanation}") if key == expected.upper() else tr("Not yet: {explanation}")
    return Feedback(key == expected.upper(), verdict.format(explanation=tr(known[key])))
