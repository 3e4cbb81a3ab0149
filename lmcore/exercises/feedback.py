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
from dataclasses import dataclass

__all__ = ["UNANSWERED", "Feedback", "check_choice", "check_number"]


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


UNANSWERED = Feedback(None, "Not answered yet: replace None with your answer and run the cell again.")


def check_number(answer, expected: float, *, mistakes: dict[float, str] | None = None, digits: int = 4,
                 rel_tol: float = 5e-4) -> Feedback:
    """Compare a numeric answer with ``expected``; match known ``mistakes`` {value: hint} too.

    An answer is right when it agrees with ``expected`` to ``rel_tol`` (so that an
    answer rounded to four significant digits passes).
    """
    if answer is None:
        return UNANSWERED
    if isinstance(answer, bool) or not isinstance(answer, (int, float)):
        try:
            answer = float(answer)
        except (TypeError, ValueError):
            return Feedback(False, f"Not yet: expected a number, got {answer!r}.")
    if math.isclose(answer, expected, rel_tol=rel_tol):
        return Feedback(True, f"Correct: {expected:.{digits}f}.")
    for value, hint in (mistakes or {}).items():
        if math.isclose(answer, value, rel_tol=rel_tol):
            return Feedback(False, f"Not yet: {answer:.{digits}f} is what you get {hint}")
    return Feedback(False, f"Not yet: {answer:.{digits}f} is not it. Check each step against the text above.")


def check_choice(answer, expected: str, *, explanations: dict[str, str]) -> Feedback:
    """Compare a multiple-choice answer (case and surrounding spaces ignored)."""
    if answer is None:
        return UNANSWERED
    key = str(answer).strip().upper()
    known = {k.upper(): v for k, v in explanations.items()}
    if key not in known:
        return Feedback(False, f"Not yet: answer one of {', '.join(sorted(known))}.")
    return Feedback(key == expected.upper(), ("Correct: " if key == expected.upper() else "Not yet: ") + known[key])
