"""Self-checks of chapter 2, *Entropy* (notebooks/02_entropy.ipynb): section "Check yourself", and
the exercises of two "Going further" sections.

Each numeric check accepts any answer within half a unit of the last significant
digit the exercise asks for (``|answer - expected| <= 0.5 · 10^(e - sig_digits + 1)``
for an expected value of order ``10^e``, :data:`SIG_DIGITS` of them), and recognises the
typical wrong answers.

>>> check_entropy_in_bits(1.16).correct
True
>>> print(check_entropy_in_bits(0.8018))  # doctest: +NORMALIZE_WHITESPACE
Not yet: 0.8018 is what you get with the natural log: that is nats; divide by ln 2 = 0.6931 for bits
(or use log2).
"""

from __future__ import annotations

import math
import numbers

from lmcore.exercises.feedback import SIG_DIGITS, Feedback, grade_choice, grade_number
from lmcore.i18n import tr, translatable

__all__ = [
    "ENTROPY_EXERCISE_P",
    "check_entropy_in_bits",
    "ZERO_EXERCISE_P",
    "check_entropy_with_impossible_outcome",
    "CODE_EXERCISE",
    "check_average_code_length",
    "MARKOV_EXERCISE_TRANSITION",
    "check_markov_entropy_rate",
    "MILLER_MADOW_EXERCISE",
    "check_miller_madow_correction",
    "check_one_sample_of_a_mixture",
]


def _grade(answer: object, expected: float, mistakes: dict[float, str]) -> Feedback:
    """:func:`grade_number` at :data:`SIG_DIGITS` significant digits; NaN and ∞ get a 0 · log 0 hint."""
    if _not_finite(answer):
        return Feedback(False, tr("Not yet: {answer} is what numpy gives for 0 · log2(0); by convention "
                                  "0 · log 0 = 0 (p log p goes to 0 as p goes to 0), so an impossible "
                                  "outcome contributes nothing.", answer=answer))
    return grade_number(answer, expected, mistakes=mistakes, sig_digits=SIG_DIGITS)


def _not_finite(answer: object) -> bool:
    """Whether ``answer`` is a NaN or an infinity computed in floats (a numpy float too), what
    0 · log2(0) gives; an int is never one, however large."""
    if isinstance(answer, (bool, numbers.Integral)) or not isinstance(answer, numbers.Real):
        return False
    return not math.isfinite(float(answer))


def _entropy(p, log=math.log2) -> float:
    return -sum(x * log(x) for x in p if x > 0)


#: Exercise 1: three outcomes with these probabilities.
ENTROPY_EXERCISE_P = (0.7, 0.2, 0.1)


def check_entropy_in_bits(answer: object) -> Feedback:
    """The entropy of :data:`ENTROPY_EXERCISE_P` in bits, to 3 significant digits.

    Draws on section 1, "Surprisal and entropy".
    """
    p = ENTROPY_EXERCISE_P
    return _grade(answer, _entropy(p), {
        _entropy(p, math.log): translatable("with the natural log: that is nats; divide by ln 2 = 0.6931 for bits "
                                            "(or use log2)."),
        _entropy(p, math.log10): translatable("with log10: that is in decimal digits (bans); use log2 for bits."),
        -_entropy(p): translatable("without the minus sign: log2 p is negative for p < 1, so H = -Σ p log2 p."),
        sum(-math.log2(x) for x in p) / len(p): translatable("by averaging the three surprisals without their "
                                                             "weights; entropy weighs each surprisal by its "
                                                             "probability."),
        sum(-math.log2(x) for x in p): translatable("by adding the surprisals without weighting them by p."),
        math.log2(len(p)): translatable("with log2 3, the entropy of three equally likely outcomes; these are not "
                                        "equally likely: weigh each surprisal -log2 p by its probability p."),
    })


#: Exercise 2: sun, clouds, rain and snow on a summer day; snow is impossible.
ZERO_EXERCISE_P = {"sun": 0.6, "clouds": 0.3, "rain": 0.1, "snow": 0.0}


def check_entropy_with_impossible_outcome(answer: object) -> Feedback:
    """The entropy of :data:`ZERO_EXERCISE_P` in bits, to 3 significant digits (0 · log 0 = 0).

    Draws on section 1, "Surprisal and entropy".
    """
    p = list(ZERO_EXERCISE_P.values())
    return _grade(answer, _entropy(p), {
        math.log2(len(p)): translatable("for four equally likely outcomes; here they are not, and snow, which "
                                        "cannot happen, adds nothing (0 · log 0 = 0)."),
        _entropy(p, math.log): translatable("with the natural log: that is nats; use log2 for bits."),
        math.log2(len(p) - 1): translatable("for three equally likely outcomes: leaving out snow is right, but sun "
                                            "(0.6), clouds (0.3) and rain (0.1) are not equally likely; weigh each "
                                            "surprisal by its probability."),
    })


#: Exercise 3: a distribution, and its Huffman code (the reference answer: the student builds it by hand).
CODE_EXERCISE = {"p": (0.4, 0.3, 0.2, 0.1), "code": ("0", "10", "110", "111")}


def check_average_code_length(answer: object) -> Feedback:
    """The average length Σ p(x) |code(x)| of the Huffman code of :data:`CODE_EXERCISE`, in bits,
    to 3 significant digits.

    The merges 0.1 + 0.2 = 0.3, 0.3 + 0.3 = 0.6, 0.6 + 0.4 = 1 give the code words 0, 10, 110, 111,
    so L = 0.4 · 1 + 0.3 · 2 + 0.2 · 3 + 0.1 · 3 = 1.9.

    Draws on section 3, "The coding bound".

    >>> check_average_code_length(1.90).correct
    True
    >>> print(check_average_code_length(2))  # doctest: +NORMALIZE_WHITESPACE
    Not yet: 2 has too few digits: the exercise asks for 3 significant digits. If that is all your working
    gives, it is what you get with 2 bits for every outcome, a balanced tree, and also with the lengths 2, 1, 3, 3
    for 0.4, 0.3, 0.2, 0.1: both merge a 0.3 with 0.4. Once 0.1 and 0.2 are merged into 0.3, the two least probable
    are the two 0.3s, not a 0.3 and 0.4.
    >>> print(check_average_code_length(2.00))  # doctest: +NORMALIZE_WHITESPACE
    Not yet: 2 is what you get with 2 bits for every outcome, a balanced tree, and also with the lengths 2, 1, 3, 3
    for 0.4, 0.3, 0.2, 0.1: both merge a 0.3 with 0.4. Once 0.1 and 0.2 are merged into 0.3, the two least probable
    are the two 0.3s, not a 0.3 and 0.4.
    """
    p, code = CODE_EXERCISE["p"], CODE_EXERCISE["code"]
    lengths = [len(word) for word in code]
    shannon_lengths = [math.ceil(-math.log2(x)) for x in p]  # within a bit of H, yet not the shortest
    return _grade(answer, sum(x * n for x, n in zip(p, lengths)), {
        sum(lengths) / len(lengths): translatable("by averaging the code word lengths without weights; a frequent "
                                                  "outcome's code word is used more often, so weigh each length by "
                                                  "p."),
        _entropy(p): translatable("with the entropy H(p): the lower bound, which this code, like every code for "
                                  "single outcomes here, cannot reach. Weigh each code word's length by its "
                                  "probability."),
        float(sum(lengths)): translatable("by adding the lengths; weigh each by its probability instead."),
        math.log2(len(p)): translatable("with 2 bits for every outcome, a balanced tree, and also with the lengths "
                                        "2, 1, 3, 3 for 0.4, 0.3, 0.2, 0.1: both merge a 0.3 with 0.4. Once 0.1 and "
                                        "0.2 are merged into 0.3, the two least probable are the two 0.3s, not a 0.3 "
                                        "and 0.4."),
        sum(x * n for x, n in zip(p, shannon_lengths)): translatable(
            "with the lengths ⌈-log2 p⌉ = 2, 2, 3, 4: such a code is within a bit of H, but merging the two least "
            "probable outcomes, again and again, gives a shorter one."),
    })


#: Exercise 4: a two-state chain, from a: a or b equally likely; from b: always a.
MARKOV_EXERCISE_TRANSITION = ((0.5, 0.5), (1.0, 0.0))


def check_markov_entropy_rate(answer: object) -> Feedback:
    """The entropy rate, in bits per symbol, of the chain :data:`MARKOV_EXERCISE_TRANSITION`,
    to 3 significant digits: ``H = Σ_i π_i H(P_i·)`` with π the stationary distribution (2/3, 1/3).

    Draws on section 5, "Entropy of a sequence and the entropy rate".
    """
    rows = MARKOV_EXERCISE_TRANSITION
    pi = (2 / 3, 1 / 3)  # π_a · 0.5 = π_b · 1: the flow a -> b equals the flow b -> a
    row_entropies = [_entropy(row) for row in rows]
    return _grade(answer, sum(w * h for w, h in zip(pi, row_entropies)), {
        sum(row_entropies) / 2: translatable("by averaging the rows' entropies equally; weigh each by how often "
                                             "the chain is in that state, the stationary π = (2/3, 1/3)."),
        _entropy(pi): translatable("with the entropy of the stationary distribution H(π), the unigram entropy that "
                                   "ignores the previous symbol; the rate is the average uncertainty of the *next* "
                                   "symbol."),
        row_entropies[0]: translatable("with the entropy of row a alone; the chain is in state b a third of the "
                                       "time, where the next symbol is certain (0 bits)."),
        sum(w * h for w, h in zip(reversed(pi), row_entropies)): translatable(
            "with the weights swapped: row a gets π_a = 2/3, the share of time the chain spends in state a, and "
            "row b gets π_b = 1/3."),
    })


#: Exercise 5: a sample's size and the number of distinct types in it.
MILLER_MADOW_EXERCISE = {"tokens n": 100, "types K": 20}


def check_miller_madow_correction(answer: object) -> Feedback:
    """The Miller-Madow correction (K - 1) / (2n) for :data:`MILLER_MADOW_EXERCISE`, in bits,
    to 3 significant digits.

    Introduced in notebooks/02_entropy.ipynb, section "Going further: correcting the plug-in bias".
    """
    n, k = MILLER_MADOW_EXERCISE["tokens n"], MILLER_MADOW_EXERCISE["types K"]
    nats = (k - 1) / (2 * n)
    return _grade(answer, nats / math.log(2), {
        nats: translatable("in nats: the formula (K - 1) / (2n) is in nats; divide by ln 2 for bits."),
        k / (2 * n) / math.log(2): translatable("with K in place of K - 1."),
        (k - 1) / n / math.log(2): translatable("without the 2 in (K - 1) / (2n)."),
        (k - 1) / (2 * n) * math.log(2): translatable("by multiplying by ln 2; nats to bits divides by ln 2."),
    })


def check_one_sample_of_a_mixture(answer: object) -> Feedback:
    """A source tosses a fair coin once: heads, it then rolls a fair die forever; tails, a die that
    always shows 6. Its entropy rate is (log2 6 + 0) / 2 = 1.2925 bits per roll. One long sample's
    -(1/n) log2 p(x_1..x_n) converges to ...

    A: 1.2925, the entropy rate.   B: 2.5850 or 0, depending on the toss.
    C: 2.5850 always.              D: it does not settle at all.

    Introduced in notebooks/02_entropy.ipynb, section "Going further: one long sample is enough, and when it is
    not" (its exercise, after "One sample is not always enough").
    """
    return grade_choice(answer, "B", explanations={
        "A": translatable("that is the average over many samples; one sample shows only one die. The source is not "
                          "ergodic, so the Shannon-McMillan-Breiman theorem does not apply."),
        "B": translatable("one sample comes from one die: a fair-die sample settles on log2 6 = 2.5850 bits per "
                          "roll, an all-6 sample on 0. The source is stationary but not ergodic."),
        "C": translatable("a sample of the die that always shows 6 is all 6s, which the mixture gives probability "
                          "1/2 + 1/2 · 6^-n, about 1/2: -(1/n) log2 (1/2) goes to 0."),
        "D": translatable("each die on its own is an ergodic source, so once the die is chosen the sample's "
                          "per-roll surprisal settles: on the rate of the die that was picked."),
    })
