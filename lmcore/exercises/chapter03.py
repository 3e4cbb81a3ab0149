"""Self-checks of chapter 3, *Cross-entropy* (notebooks/03_cross_entropy.ipynb), section "Check yourself";
each checker's docstring names the sections of the class it draws on.

Every numeric exercise states its precision in the notebook ("to 3 significant digits")
and its checker accepts any answer at that precision (:data:`SIG_DIGITS`).

>>> check_loss_in_bits(4.62).correct, check_loss_in_bits(4.6166).correct
(True, True)
>>> print(check_loss_in_bits(2.22))  # doctest: +NORMALIZE_WHITESPACE
Not yet: 2.22 is what you get by multiplying by ln 2; nats are turned into bits by dividing by ln 2
(a nat is 1.4427 bits).
"""

from __future__ import annotations

import math

from lmcore.exercises.feedback import SIG_DIGITS, Feedback, grade_choice, grade_number, round_to
from lmcore.i18n import translatable

__all__ = [
    "LOSS_EXERCISE",
    "check_loss_in_bits",
    "REVERSE_EXERCISE",
    "check_reverse_cross_entropy",
    "check_below_the_floor",
    "CODED_SIZE_EXERCISE",
    "check_coded_bits_per_character",
    "BROWN_PERPLEXITY",
    "PERPLEXITY_PAIR_EXERCISE",
    "check_bits_saved_by_lower_perplexity",
]

# A neural model's training loss: the mean negative log-likelihood per token, in nats.
LOSS_EXERCISE = {"loss in nats per token": 3.2}


def check_loss_in_bits(answer: object) -> Feedback:
    """A training loss of 3.2 nats per token as a cross-entropy in bits per token: 3.2 / ln 2 = 4.6166.

    Draws on section 7, "Perplexity is $2^H$" (its pitfall, the log base).
    """
    nats = LOSS_EXERCISE["loss in nats per token"]
    return grade_number(answer, nats / math.log(2), sig_digits=SIG_DIGITS, mistakes={
        nats * math.log(2): translatable("by multiplying by ln 2; nats are turned into bits by dividing by ln 2 (a "
                                         "nat is 1.4427 bits)."),
        nats: translatable("by leaving the loss in nats; the natural log counts nats, log2 counts bits."),
        math.exp(nats): translatable("by giving the perplexity, e ** loss; the question asks for bits per token."),
        2**nats: translatable("by raising 2 to a number of nats; that is neither the bits nor the perplexity (e ** "
                              "3.2)."),
        nats / math.log10(2): translatable("by converting as if the loss were in log10 units (bans); a loss in "
                                           "nats uses the natural log: divide by ln 2."),
    }, early_rounded=(nats * round_to(1 / math.log(2), SIG_DIGITS), nats / round_to(math.log(2), SIG_DIGITS)))


# Two distributions over two outcomes: the data p and a model m.
REVERSE_EXERCISE = {"p": (0.9, 0.1), "m": (0.6, 0.4)}


def _cross(p, m) -> float:
    return -sum(a * math.log2(b) for a, b in zip(p, m))


def check_reverse_cross_entropy(answer: object) -> Feedback:
    """H(m, p) for p = (0.9, 0.1) and m = (0.6, 0.4): -(0.6 log2 0.9 + 0.4 log2 0.1) = 1.4200 bits.

    Draws on section 1, "Cross-entropy and KL divergence".
    """
    p, m = REVERSE_EXERCISE["p"], REVERSE_EXERCISE["m"]
    entropy_p, entropy_m = _cross(p, p), _cross(m, m)
    return grade_number(answer, _cross(m, p), sig_digits=SIG_DIGITS, mistakes={
        _cross(p, m): translatable("with H(p, m), the data p weighting the model m's surprisals; H(m, p) swaps the "
                                   "roles: m's probabilities weight p's surprisals."),
        entropy_m: translatable("with the entropy H(m); the surprisals must be p's, -log2 p(x)."),
        entropy_p: translatable("with the entropy H(p); the weights must be m's probabilities."),
        _cross(m, p) - entropy_m: translatable("with KL(m||p) = H(m, p) - H(m); the question asks for H(m, p) "
                                               "itself."),
        _cross(p, m) - entropy_p: translatable("with KL(p||m) = H(p, m) - H(p), the waste of the other direction; "
                                               "the question asks for H(m, p) itself: m weights, p is scored."),
        _cross(m, p) * math.log(2): translatable("with the natural log: that is nats; use log2 for bits."),
    })


def check_below_the_floor(answer: object) -> Feedback:
    """A bigram model's test cross-entropy, measured on 50 symbols, is 0.93 bits per symbol below the
    chain's entropy rate of 1.0: what is going on? (A, B or C)

    Draws on section 1, "Cross-entropy and KL divergence", section 2, "Measured from one long sample", and
    section 3, "The floor made visible".
    """
    return grade_choice(answer, "B", explanations={
        "A": translatable("no model beats the source it models: KL(p||m) >= 0, so its cross-entropy rate H(p, m) "
                          "is never below the entropy rate H(p)."),
        "B": translatable("KL(p||m) >= 0 holds on average, for an endless test text. 50 symbols is a short sample, "
                          "and its average surprisal can fall below the rate by chance (the source's own score on "
                          "it can too); a test text that was also in the training text does it as well. Measure on "
                          "a long, unseen text."),
        "C": translatable("a KL divergence is never negative (Gibbs' inequality): the model must be scored "
                          "wrongly, or on too little or already seen text."),
    })


# An arithmetic coder's output for a test text.
CODED_SIZE_EXERCISE = {"coded bytes": 12_500, "characters": 80_000}


def check_coded_bits_per_character(answer: object) -> Feedback:
    """Bits per character of a coded text: 8 x 12,500 bytes / 80,000 characters = 1.25.

    Draws on section 5, "Compression is prediction", and section 6, "Real text, next to a figure from 1992".
    """
    size, chars = CODED_SIZE_EXERCISE["coded bytes"], CODED_SIZE_EXERCISE["characters"]
    return grade_number(answer, 8 * size / chars, sig_digits=SIG_DIGITS, mistakes={
        size / chars: translatable("by dividing bytes by characters: that is bytes per character; a byte is 8 bits."),
        chars / size: translatable("by dividing characters by bytes: that is characters per byte, the "
                                   "compression's reach, not its cost."),
        chars / (8 * size): translatable("by dividing characters by bits: that is characters per bit; turn it "
                                         "round."),
        8 * size / chars * math.log(2): translatable("by converting to nats; bits per character is the coded bits "
                                                     "over the characters."),
    })


# Brown et al. (1992): the perplexity per word of their trigram model on the Brown corpus.
BROWN_PERPLEXITY = 247


# Brown et al.'s perplexity per word and a better model's, on the same text.
PERPLEXITY_PAIR_EXERCISE = {"perplexity before": BROWN_PERPLEXITY, "perplexity after": 200}


def check_bits_saved_by_lower_perplexity(answer: object) -> Feedback:
    """Bits per word saved by going from perplexity 247 to 200 on the same text:
    perplexity is 2 ** H, so H_before - H_after = log2 247 - log2 200 = log2(247 / 200) = 0.3045.

    A ratio of perplexities is a difference of bits; rounding log2 247 and log2 200 to
    7.95 and 7.64 before subtracting gives 0.310, wrong in the third digit.

    Draws on section 7, "Perplexity is $2^H$".

    >>> print(check_bits_saved_by_lower_perplexity(0.305))
    Correct: 0.3045.
    >>> check_bits_saved_by_lower_perplexity(47).correct
    False
    """
    before, after = PERPLEXITY_PAIR_EXERCISE["perplexity before"], PERPLEXITY_PAIR_EXERCISE["perplexity after"]
    return grade_number(answer, math.log2(before / after), sig_digits=SIG_DIGITS, mistakes={
        before - after: translatable("by subtracting the perplexities; perplexity is 2 ** H, so bits subtract "
                                     "where perplexities divide: log2(247 / 200)."),
        math.log2(before - after): translatable("by taking log2 of the difference 247 - 200; the bits saved are "
                                                "the difference of the logs, log2 247 - log2 200."),
        (before - after) / before: translatable("with the relative drop in perplexity (19%); a ratio of "
                                                "perplexities is a difference of bits: log2(247 / 200)."),
        math.log(before / after): translatable("with the natural log: that is nats per word; bits need log2."),
        math.log10(before / after): translatable("with log10; bits need log2."),
        math.log2(after / before): translatable("by subtracting the other way round; the better model needs "
                                                "fewer bits, so the saving, log2 247 - log2 200, is positive."),
        math.log2(after): translatable("with the bits per word of the better model itself; the question asks "
                                       "how many fewer than log2 247 it needs."),
    }, early_rounded=(round_to(math.log2(before), SIG_DIGITS) - round_to(math.log2(after), SIG_DIGITS),))
