"""Instant self-checks for the chapters' "Check yourself" exercises.

Each ``check_...(answer)`` returns a :class:`Feedback`: whether the answer is right
and, for the typical wrong answers (a natural log instead of log2, a forgotten
``</s>``, a mean of sentence perplexities...), a hint that names the mistake. A
notebook cell ending in a check shows the feedback; ``None`` means "not answered
yet".

>>> check_ab_perplexity(2.5).correct
True
>>> print(check_ab_perplexity(2.2361))  # doctest: +NORMALIZE_WHITESPACE
Not yet: 2.2361 is what you get with log2(0.2) = -2.3219 in place of log2(0.16);
the text "A B" has probability 0.8 x 0.2 = 0.16.
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
    """Model A has perplexity 50 on a test set, model B 100 on the same test set. Which is better?

    Introduced in notebooks/04_perplexity.ipynb, section "Check yourself".
    """
    return check_choice(answer, "A", explanations={
        "A": "lower perplexity is better; A is as uncertain as a uniform choice among 50 words, B among 100.",
        "B": "perplexity is an effective number of choices per word, so the higher one is the more confused "
             "model.",
    })


def check_ab_perplexity(answer) -> Feedback:
    """P(A) = 0.8, P(B) = 0.2: the perplexity of the text "A B".

    Introduced in notebooks/04_perplexity.ipynb, section "Check yourself".
    """
    return check_number(answer, 2.5, mistakes={
        5 ** 0.5: "with log2(0.2) = -2.3219 in place of log2(0.16); the text \"A B\" has probability "
                  "0.8 x 0.2 = 0.16.",
        1 / 0.16: "without the N-th root: 1/P is the inverse probability of the whole text, "
                  "perplexity takes its square root for N = 2 words.",
        0.16 ** 0.5: "without inverting: perplexity is P(text) to the power -1/N, not 1/N.",
        -math.log2(0.16) / 2: "by stopping at the cross-entropy (bits per word); perplexity is 2 to that power.",
    }, digits=4)


def check_ab_cross_entropy(answer) -> Feedback:
    """P(A) = 0.8, P(B) = 0.2: the cross-entropy of the text "A B" in bits per word.

    Introduced in notebooks/04_perplexity.ipynb, section "Check yourself".
    """
    bits = -math.log2(0.16) / 2
    return check_number(answer, bits, mistakes={
        -math.log(0.16) / 2: "with the natural log: that is nats per word; divide by ln 2 for bits.",
        -math.log2(0.2) / 2: "with log2(0.2) = -2.3219 in place of log2(0.16) = -2.6439.",
        -math.log2(0.16): "without dividing by N = 2: that is the whole text's information, not per word.",
        -math.log10(0.16) / 2: "with log10: that is in bans (decimal digits); use log2 for bits.",
    })


def check_uniform_perplexity(answer, k: int = 26) -> Feedback:
    """A model that gives each of ``k`` letters the same probability: its perplexity on any text.

    Introduced in notebooks/04_perplexity.ipynb, section "Check yourself".
    """
    return check_number(answer, k, mistakes={
        math.log2(k): f"by reporting the cross-entropy log2({k}); perplexity is 2 to that power.",
        1 / k: "by reporting the probability of one letter; perplexity is its inverse.",
    }, digits=2)


# A bigram model for the </s> exercise: P(w | previous word) on a three-word language.
EOS_EXERCISE_PROBS = {("<s>", "the"): 0.5, ("the", "cat"): 0.25, ("cat", "</s>"): 0.5}


def check_sentence_perplexity_with_eos(answer) -> Feedback:
    """Perplexity of "the cat" under :data:`EOS_EXERCISE_PROBS`, predicting and counting ``</s>``.

    Introduced in notebooks/04_perplexity.ipynb, section "Check yourself".
    """
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
    """Corpus perplexity of :data:`AGGREGATION_EXERCISE`: total log-probability over all tokens.

    Introduced in notebooks/04_perplexity.ipynb, section "Check yourself".
    """
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


# A word model's score on a test text, for converting to a unit every tokenization shares.
BITS_PER_CHARACTER_EXERCISE = {"perplexity per token": 512, "tokens N": 1000, "characters": 3000}


def check_bits_per_character(answer) -> Feedback:
    """Bits per character of :data:`BITS_PER_CHARACTER_EXERCISE`: total bits / total characters.

    Introduced in notebooks/04_perplexity.ipynb, section "Check yourself".

    >>> check_bits_per_character(3).correct, check_bits_per_character(9).correct
    (True, False)
    """
    data = BITS_PER_CHARACTER_EXERCISE
    pp, n, chars = data["perplexity per token"], data["tokens N"], data["characters"]
    return check_number(answer, n * math.log2(pp) / chars, mistakes={
        math.log2(pp): "by stopping at bits per token, log2(512) = 9; the text's total bits, N x 9, "
                       "are then shared among its characters.",
        2 ** (n * math.log2(pp) / chars): "by giving the perplexity per character, 2 to the bits per character; "
                                          "the question asks for the bits.",
        n * math.log(pp) / chars: "with the natural log: that is nats per character; use log2 for bits.",
        n * math.log10(pp) / chars: "with log10; use log2 for bits.",
        pp * n / chars: "by dividing the perplexity by the characters per token; perplexities do not add up, "
                        "bits do: convert to bits first.",
        math.log2(pp) * chars / n: "by multiplying the bits per token by the characters per token; "
                                   "divide: each token's bits are shared among its characters.",
    })


# --- chapter 5: smoothing and interpolation ---

#: Interpolation exercise: weights λ1, λ2, λ3 (unigram first) and the three estimates of one word.
INTERPOLATION_EXERCISE = {"lambdas": (0.2, 0.3, 0.5), "probs": (0.01, 0.1, 0.4)}


def check_interpolated_probability(answer) -> Feedback:
    """λ = (0.2, 0.3, 0.5), P1 = 0.01, P2 = 0.1, P3 = 0.4: the interpolated probability Σ_i λ_i P_i.

    Introduced in notebooks/05_smoothing_interpolation.ipynb, section "Check yourself".
    """
    lambdas, probs = INTERPOLATION_EXERCISE["lambdas"], INTERPOLATION_EXERCISE["probs"]
    terms = [w * p for w, p in zip(lambdas, probs)]
    return check_number(answer, sum(terms), mistakes={
        sum(w * p for w, p in zip(reversed(lambdas), probs)): "with the weights in reverse order: λ1 weighs "
                                                              "the unigram estimate, λ3 the trigram one.",
        sum(probs) / 3: "by averaging the three estimates: interpolation weighs each one by its λ.",
        sum(terms[1:]): "by leaving out the unigram term λ1 P1 = 0.002; every order contributes.",
        terms[2]: "with the trigram term alone; add λ1 P1 and λ2 P2.",
        sum(probs): "by adding the estimates without their weights.",
    }, digits=4)


def check_rescue_choice(answer) -> Feedback:
    """A test word gets 0 from the trigram and the bigram estimates, 0.002 from the add-one unigram.

    Which weights (λ1, λ2, λ3) leave its interpolated probability at 0?
    A: (0.1, 0.3, 0.6)   B: (0, 0.4, 0.6)   C: (0.01, 0.01, 0.98)   D: (1, 0, 0)

    Introduced in notebooks/05_smoothing_interpolation.ipynb, section "Check yourself".
    """
    return check_choice(answer, "B", explanations={
        "A": "0.1 x 0.002 = 0.0002 > 0: the unigram weight rescues the word.",
        "B": "with λ1 = 0 only the bigram and trigram estimates count, and both are 0, so the zero comes back "
             "(and the perplexity is infinite). Only the unigram estimate is never 0, so λ1 must be > 0.",
        "C": "even a small λ1 = 0.01 gives 0.01 x 0.002 = 0.00002 > 0: a small weight still rescues the word.",
        "D": "the unigram alone gives 0.002 > 0; it ignores the context, but it never gives 0.",
    })


def check_test_set_tuning(answer) -> Feedback:
    """Why is a perplexity reported on the test set optimistic when λ was chosen on that same test set?

    A: λ was fitted to the quirks of those very sentences, so the number no longer estimates
       the perplexity on new text.
    B: the test set is smaller than the training set.
    C: EM always overfits, whatever data it runs on.
    D: it is not optimistic: tuning on the data you report on gives the fairest number.

    Introduced in notebooks/05_smoothing_interpolation.ipynb, section "Check yourself".
    """
    return check_choice(answer, "A", explanations={
        "A": "choosing λ on the test set is training on it: the weights fit those sentences' quirks, so the "
             "number looks better than the model will do on text it has not seen. Choose on held-out data, "
             "report once on the test set.",
        "B": "a small test set makes the number noisy, but noise alone goes both ways; the optimism comes from "
             "choosing λ on the same sentences you report on.",
        "C": "EM on held-out data gives weights that carry over to new text; the problem is which data it "
             "runs on, not EM.",
        "D": "the lowest number on the test set is what you chose for; it is no longer an estimate for new "
             "text, just as a training-set perplexity is not.",
    })


#: Add-k exercises: a history h seen c(h) times with seen_types distinct next words, |V| outcomes.
ADD_K_EXERCISE = {"c_h": 50, "V": 1000, "seen_types": 20, "k": 0.1}


def check_add_one_unseen_bigram(answer) -> Feedback:
    """Add-one probability of a bigram (h, w) never seen in training: c(h) = 50, |V| = 1,000.

    ``(0 + 1) / (c(h) + |V|)``.

    Introduced in notebooks/05_smoothing_interpolation.ipynb, section "Check yourself".
    """
    c_h, size = ADD_K_EXERCISE["c_h"], ADD_K_EXERCISE["V"]
    return check_number(answer, 1 / (c_h + size), mistakes={
        0.0: "with the MLE (no smoothing): add-one gives every unseen bigram a count of 1.",
        1 / size: "without c(h) in the denominator: it is c(h) + |V| = 1,050, the history's count plus the "
                  "|V| added ones.",
        1 / (c_h + 1): "by adding 1 to the denominator: one is added to each of the |V| counts, so the "
                       "denominator grows by |V|.",
        1 / c_h: "with c(h) alone in the denominator: add |V| for the ones added to every count.",
    }, digits=6)


def check_add_k_unseen_mass(answer) -> Feedback:
    """Total add-k probability given to the words never seen after h: c(h) = 50, |V| = 1,000,
    20 distinct words seen after h, k = 0.1.

    ``k (|V| - seen_types) / (c(h) + k |V|)``.

    Introduced in notebooks/05_smoothing_interpolation.ipynb, section "Check yourself".
    """
    c_h, size, seen, k = (ADD_K_EXERCISE[key] for key in ("c_h", "V", "seen_types", "k"))
    unseen = size - seen
    return check_number(answer, k * unseen / (c_h + k * size), mistakes={
        k * size / (c_h + k * size): "by counting all |V| words: the 20 seen words get their k too, but "
                                     "only the 980 unseen ones count here.",
        unseen / (c_h + size): "with k = 1 (add-one); the exercise adds k = 0.1.",
        unseen / size: "with the fraction of the vocabulary never seen after h, which is not a probability "
                       "mass: weigh it by k / (c(h) + k|V|) per word.",
        k * unseen / c_h: "without k|V| in the denominator (a probability mass cannot exceed 1).",
        k * unseen / (c_h + k * unseen): "by adding k only for the unseen words in the denominator: every "
                                         "one of the |V| counts gets k.",
    }, digits=4)


def check_set_for_choosing_k(answer) -> Feedback:
    """On which data do you choose k (or λ)? A: training set, B: held-out set, C: test set.

    Introduced in notebooks/05_smoothing_interpolation.ipynb, section "Check yourself".
    """
    return check_choice(answer, "B", explanations={
        "A": "on the training set the unsmoothed counts fit best, so k would shrink towards 0 and give "
             "unseen words nothing: the training text has no unseen words to reward smoothing.",
        "B": "held-out data is text the counts have not seen, so it rewards the right amount of smoothing, "
             "and the test set stays unused until the one final report.",
        "C": "the test set must stay unused until the final report; a k chosen there makes that report "
             "optimistic.",
    })
