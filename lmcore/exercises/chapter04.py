"""Self-checks of chapter 4, *Perplexity* (notebooks/04_perplexity.ipynb), section "Check yourself".

>>> check_ab_perplexity(2.5).correct
True
>>> print(check_ab_perplexity(2.2361))  # doctest: +NORMALIZE_WHITESPACE
Not yet: 2.2361 is what you get with log2(0.2) = -2.3219 in place of log2(0.16);
the text "A B" has probability 0.8 x 0.2 = 0.16.
"""

from __future__ import annotations

import math

from lmcore.exercises.feedback import Feedback, check_choice, check_number

__all__ = [
    "check_better_model",
    "check_ab_perplexity",
    "check_ab_cross_entropy",
    "check_uniform_perplexity",
    "EOS_EXERCISE_PROBS",
    "check_sentence_perplexity_with_eos",
    "AGGREGATION_EXERCISE",
    "check_corpus_perplexity",
    "BITS_PER_CHARACTER_EXERCISE",
    "check_bits_per_character",
]


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
