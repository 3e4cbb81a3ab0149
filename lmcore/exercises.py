"""Instant self-checks for the chapters' "Check yourself" exercises.

Each ``check_...(answer)`` returns a :class:`Feedback`: whether the answer is right
and, for the typical wrong answers (a natural log instead of log2, a forgotten
``</s>``, a mean of sentence perplexities...), a hint that names the mistake. A
notebook cell ending in a check shows the feedback; ``None`` means "not answered
yet".

>>> check_ab_perplexity(2.5).correct
True
>>> print(check_ab_perplexity(2.2361))
Not yet: 2.2361 is what you get with log2(0.2) = -2.3219 in place of log2(0.16); the text "A B" has probability 0.8 x 0.2 = 0.16.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass


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


# --- chapter 4: perplexity -------------------------------------------------------------


def check_better_model(answer) -> Feedback:
    """Model A has perplexity 50 on a test set, model B 100 on the same test set. Which is better?"""
    return check_choice(answer, "A", explanations={
        "A": "lower perplexity is better; A is as uncertain as a uniform choice among 50 words, B among 100.",
        "B": "perplexity is an effective number of choices per word, so the higher one is the more confused "
             "model.",
    })


def check_ab_perplexity(answer) -> Feedback:
    """P(A) = 0.8, P(B) = 0.2: the perplexity of the text "A B"."""
    return check_number(answer, 2.5, mistakes={
        5 ** 0.5: "with log2(0.2) = -2.3219 in place of log2(0.16); the text \"A B\" has probability "
                  "0.8 x 0.2 = 0.16.",
        1 / 0.16: "without the N-th root: 1/P is the inverse probability of the whole text, "
                  "perplexity takes its square root for N = 2 words.",
        0.16 ** 0.5: "without inverting: perplexity is P(text) to the power -1/N, not 1/N.",
        -math.log2(0.16) / 2: "by stopping at the cross-entropy (bits per word); perplexity is 2 to that power.",
    }, digits=4)


def check_ab_cross_entropy(answer) -> Feedback:
    """P(A) = 0.8, P(B) = 0.2: the cross-entropy of the text "A B" in bits per word."""
    bits = -math.log2(0.16) / 2
    return check_number(answer, bits, mistakes={
        -math.log(0.16) / 2: "with the natural log: that is nats per word; divide by ln 2 for bits.",
        -math.log2(0.2) / 2: "with log2(0.2) = -2.3219 in place of log2(0.16) = -2.6439.",
        -math.log2(0.16): "without dividing by N = 2: that is the whole text's information, not per word.",
        -math.log10(0.16) / 2: "with log10: that is in bans (decimal digits); use log2 for bits.",
    })


def check_uniform_perplexity(answer, k: int = 26) -> Feedback:
    """A model that gives each of ``k`` letters the same probability: its perplexity on any text."""
    return check_number(answer, k, mistakes={
        math.log2(k): f"by reporting the cross-entropy log2({k}); perplexity is 2 to that power.",
        1 / k: "by reporting the probability of one letter; perplexity is its inverse.",
    }, digits=2)


# A bigram model for the </s> exercise: P(w | previous word) on a three-word language.
EOS_EXERCISE_PROBS = {("<s>", "the"): 0.5, ("the", "cat"): 0.25, ("cat", "</s>"): 0.5}


def check_sentence_perplexity_with_eos(answer) -> Feedback:
    """Perplexity of "the cat" under :data:`EOS_EXERCISE_PROBS`, predicting and counting ``</s>``."""
    logs = [math.log(p) for p in EOS_EXERCISE_PROBS.values()]
    without_eos = logs[:2]
    return check_number(answer, math.exp(-sum(logs) / 3), mistakes={
        math.exp(-sum(without_eos) / 2): "by forgetting </s>: it is predicted (with P = 0.5) and counted, "
                                         "so N = 3.",
        math.exp(-sum(logs) / 2): "by scoring </s> but not counting it: N = 3 predicted tokens, not 2 words.",
        math.exp(-sum(logs) / 4): "by counting <s> as well: <s> is given, never predicted, so it is not in N.",
    })


# Two test sentences with their per-token probabilities, for the aggregation exercise.
AGGREGATION_EXERCISE = {"sentence 1": [0.5, 0.5], "sentence 2": [0.1, 0.2, 0.1, 0.05]}


def check_corpus_perplexity(answer) -> Feedback:
    """Corpus perplexity of :data:`AGGREGATION_EXERCISE`: total log-probability over all tokens."""
    sentences = list(AGGREGATION_EXERCISE.values())
    all_logs = [math.log(p) for s in sentences for p in s]
    per_sentence = [math.exp(-sum(map(math.log, s)) / len(s)) for s in sentences]
    return check_number(answer, math.exp(-sum(all_logs) / len(all_logs)), mistakes={
        sum(per_sentence) / len(per_sentence): "by averaging the two sentence perplexities; corpus perplexity "
                                               "pools all tokens: exp(-total log-prob / total tokens).",
        math.exp(sum(math.log(p) for p in per_sentence) / 2): "with a geometric mean of sentence perplexities, "
                                                                "which weighs a 2-token sentence like a "
                                                                "4-token one.",
    })
