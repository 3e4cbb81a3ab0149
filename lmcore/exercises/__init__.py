"""Instant self-checks for the chapters' "Check yourself" exercises.

Each ``check_...(answer)`` returns a :class:`Feedback`: whether the answer is right
and, for the typical wrong answers (a natural log instead of log2, a forgotten
``</s>``, a mean of sentence perplexities...), a hint that names the mistake. A
notebook cell ending in a check shows the feedback; ``None`` means "not answered
yet". One module per chapter (``chapter01``, ``chapter02``, ``chapter03``, ``chapter04``,
``chapter05``, ``chapter06``, ``chapter07``) and ``feedback`` (the
:class:`Feedback` they return, and ``grade_number`` and ``grade_choice``, which grade an answer,
and the precision most exercises ask for, ``SIG_DIGITS``); this face
exports every check, so that a chapter writes ``from lmcore import exercises`` and calls
``exercises.check_...(answer)``.
"""

from lmcore.exercises import chapter01, chapter02, chapter03, chapter04, chapter05, chapter06, chapter07
from lmcore.exercises.chapter01 import *  # noqa: F403
from lmcore.exercises.chapter02 import *  # noqa: F403
from lmcore.exercises.chapter03 import *  # noqa: F403
from lmcore.exercises.chapter04 import *  # noqa: F403  (re-exported)
from lmcore.exercises.chapter05 import *  # noqa: F403
from lmcore.exercises.chapter06 import *  # noqa: F403
from lmcore.exercises.chapter07 import *  # noqa: F403
from lmcore.exercises.feedback import SIG_DIGITS, Feedback, grade_choice, grade_number, unanswered

__all__ = [
    "unanswered", "Feedback", "grade_choice", "grade_number", "SIG_DIGITS",
    *chapter01.__all__,
    *chapter02.__all__,
    *chapter03.__all__,
    *chapter04.__all__,
    *chapter05.__all__,
    *chapter06.__all__,
    *chapter07.__all__,
]
