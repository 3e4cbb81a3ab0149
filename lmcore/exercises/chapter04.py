"""Self-checks of chapter 4, *Perplexity* (notebooks/04_perplexity.ipynb): exercises 1-6 in section
"Check yourself", each drawing on the class alone (its docstring names the sections), and exercise 7
closing the section "Going further: words and characters".

Every numeric exercise states its precision in the notebook ("to 3 significant digits")
and its checker accepts any answer at that precision (:data:`SIG_DIGITS`).

>>> check_weighted_branching(8).correct, check_weighted_branching(8.004).correct
(True, True)
>>> print(check_weighted_branching(17))  # doctest: +NORMALIZE_WHITESPACE
Not yet: 17 is what you get by averaging the inverse probabilities (2 and 32); perplexity averages
their logarithms (the bits) and then goes back: 2 ** mean(bits).
"""

from __future__ import annotations

import math

from lmcore.exercises.feedback import SIG_DIGITS, Feedback, grade_number, round_to
from lmcore.i18n import translatable

__all__ = [
    "BRANCHING_EXERCISE",
    "check_weighted_branching",
    "CROSS_ENTROPY_EXERCISE",
    "check_cross_entropy_bits",
    "BITS_GAIN_EXERCISE",
    "check_perplexity_after_gain",
    "SURPRISING_TOKEN_EXERCISE",
    "check_one_surprising_token",
    "EOS_EXERCISE_PROBS",
    "check_sentence_perplexity_with_eos",
    "AGGREGATION_EXERCISE",
    "check_corpus_perplexity",
    "BITS_PER_CHARACTER_EXERCISE",
    "check_bits_per_character",
]

# Half of the test tokens get probability 1/2, the other half 1/32.
BRANCHING_EXERCISE = {"probabilities": (1 / 2, 1 / 32), "shares": (0.5, 0.5)}


def check_weighted_branching(answer: object) -> Feedback:
    """Perplexity of a model that gives half the tokens probability 1/2 and half 1/32:
    2 ** (mean surprisal in bits) = 2 ** ((1 + 5) / 2) = 8.

    Draws on section 3, "Perplexity as a branching factor", and section 4, "The same number in bits".
    """
    (p, q), (a, b) = BRANCHING_EXERCISE["probabilities"], BRANCHING_EXERCISE["shares"]
    bits = -(a * math.log2(p) + b * math.log2(q))
    return grade_number(answer, 2**bits, sig_digits=SIG_DIGITS, mistakes={
        a / p + b / q: translatable("by averaging the inverse probabilities (2 and 32); perplexity averages their "
                                    "logarithms (the bits) and then goes back: 2 ** mean(bits)."),
        1 / (a * p + b * q): translatable("by inverting the mean probability; perplexity inverts the geometric "
                                          "mean, 2 ** mean(bits)."),
        bits: translatable("by stopping at the cross-entropy in bits per token; perplexity is 2 to that power."),
        math.exp(bits): translatable("by raising e to a number of bits; bits go back with 2 ** H."),
    })


# A unigram model over three words and a four-word test text.
CROSS_ENTROPY_EXERCISE = {"model": {"A": 0.6, "B": 0.3, "C": 0.1}, "text": ("A", "A", "B", "C")}


def check_cross_entropy_bits(answer: object) -> Feedback:
    """Cross-entropy, in bits per word, of the text "A A B C" under P(A) = 0.6, P(B) = 0.3, P(C) = 0.1:
    -(1/N) Σ log2 P(w_i).

    Draws on section 4, "The same number in bits".
    """
    model, words = CROSS_ENTROPY_EXERCISE["model"], CROSS_ENTROPY_EXERCISE["text"]
    logs2 = [math.log2(model[w]) for w in words]
    bits = -sum(logs2) / len(words)
    return grade_number(answer, bits, sig_digits=SIG_DIGITS, mistakes={
        bits * math.log(2): translatable("with the natural log: that is nats per word; divide by ln 2 for bits."),
        bits / math.log2(10): translatable("with log10; use log2 for bits."),
        -sum(logs2): translatable("without dividing by N = 4: that is the whole text's information, not per word."),
        -sum(math.log2(p) for p in model.values()) / len(model):
            translatable("by scoring each word type once; A occurs twice in the text and costs its bits twice."),
        -sum(p * math.log2(p) for p in model.values()):
            translatable("with the entropy of the model's own distribution; the cross-entropy scores the text that "
                         "actually came."),
        2**bits: translatable("by giving the perplexity, 2 to the bits; the question asks for the bits."),
    })


# The English trigram's cross-entropy on the test set (section 4) and a better model's gain.
BITS_GAIN_EXERCISE = {"bits per token": 6.3465, "gain in bits per token": 0.5}


def check_perplexity_after_gain(answer: object) -> Feedback:
    """A model 0.5 bits per token better than one with 6.3465 bits: its perplexity, 2 ** (6.3465 - 0.5).

    Draws on section 4, "The same number in bits".
    """
    bits, gain = BITS_GAIN_EXERCISE["bits per token"], BITS_GAIN_EXERCISE["gain in bits per token"]
    before = 2**bits
    return grade_number(answer, 2 ** (bits - gain), sig_digits=SIG_DIGITS, mistakes={
        before - gain: translatable("by subtracting the bits from the perplexity; bits are an exponent: 2 ** (H - "
                                    "0.5)."),
        math.exp(bits - gain): translatable("with e ** (H - 0.5); H is in bits, so the perplexity is 2 ** (H - 0.5)."),
        before / 2: translatable("by halving the perplexity: that is a gain of a whole bit; half a bit divides it "
                                 "by 2 ** 0.5."),
        2 ** (bits + gain): translatable("by adding the half bit: the better model needs fewer bits per token, so "
                                         "its perplexity is 2 ** (H - 0.5), lower than 81.37."),
    }, early_rounded=(2 ** round_to(bits - gain, SIG_DIGITS),
                      round_to(before, SIG_DIGITS) / round_to(2**gain, SIG_DIGITS)))


# 99 tokens with probability 0.1 and one very surprising token: few enough tokens that the mean
# probability's inverse (10.1) and leaving the token out (10.0) differ at 3 significant digits.
SURPRISING_TOKEN_EXERCISE = {"tokens": 100, "usual probability": 0.1, "surprising probability": 1e-10}


def check_one_surprising_token(answer: object) -> Feedback:
    """Perplexity of 100 tokens, 99 with probability 0.1 and one with 1e-10:
    10 ** ((99 * 1 + 10) / 100) = 10 ** 1.09 = 12.3027.

    Draws on section 2, "From probability to perplexity", and section 4, "The same number in bits".

    >>> print(check_one_surprising_token(10.1))  # doctest: +NORMALIZE_WHITESPACE
    Not yet: 10.1 is what you get by inverting the mean probability (0.099); perplexity averages the bits (the
    log-probabilities), not the probabilities, and the rare token's 33 bits count in full.
    """
    data = SURPRISING_TOKEN_EXERCISE
    n, usual, rare = data["tokens"], data["usual probability"], data["surprising probability"]
    mean_log = ((n - 1) * math.log(usual) + math.log(rare)) / n
    return grade_number(answer, math.exp(-mean_log), sig_digits=SIG_DIGITS, mistakes={
        1 / usual: translatable("by leaving the surprising token out; it costs 33 bits where the others cost 3.3, "
                                "and perplexity averages the bits of every token."),
        n / ((n - 1) * usual + rare): translatable("by inverting the mean probability (0.099); perplexity averages "
                                                   "the bits (the log-probabilities), not the probabilities, and "
                                                   "the rare token's 33 bits count in full."),
        ((n - 1) / usual + 1 / rare) / n: translatable("by averaging the inverse probabilities, where the rare "
                                                       "token's 10 ** 10 swamps the rest; perplexity averages "
                                                       "their logarithms (the bits) and goes back."),
        -mean_log: translatable("by stopping at the mean surprisal in nats; perplexity is e to that power."),
        -mean_log / math.log(2): translatable("by stopping at the mean surprisal in bits; perplexity is 2 to that "
                                              "power."),
    })


# A bigram model for the </s> exercise: P(w | previous word) on a three-word language. P(</s> | cat)
# is 0.25, not 0.5: with 0.5, leaving P(</s>) out of the product (N = 3) and counting <s> in N (N = 4)
# both gave 2.00.
EOS_EXERCISE_PROBS = {("<s>", "the"): 0.5, ("the", "cat"): 0.25, ("cat", "</s>"): 0.25}


def check_sentence_perplexity_with_eos(answer: object) -> Feedback:
    """Perplexity of "the cat" under :data:`EOS_EXERCISE_PROBS`, predicting and counting ``</s>``:
    (0.5 · 0.25 · 0.25) ** (-1/3) = 32 ** (1/3) = 2 ** (5/3) = 3.1748.

    Draws on section 1, "Why test on unseen text", and section 2, "From probability to perplexity".

    >>> print(check_sentence_perplexity_with_eos(2))  # doctest: +NORMALIZE_WHITESPACE
    Not yet: 2 is what you get by dividing by N = 3 but leaving P(</s> | cat) = 0.25 out of the product; each
    counted token brings its probability.
    """
    logs = [math.log(p) for p in EOS_EXERCISE_PROBS.values()]
    without_eos = logs[:2]
    return grade_number(answer, math.exp(-sum(logs) / 3), sig_digits=SIG_DIGITS, mistakes={
        math.exp(-sum(without_eos) / 2): translatable("by forgetting </s>: it is predicted (with P = 0.25) and "
                                                      "counted, so N = 3."),
        math.exp(-sum(without_eos) / 3): translatable("by dividing by N = 3 but leaving P(</s> | cat) = 0.25 out of "
                                                      "the product; each counted token brings its probability."),
        math.exp(-sum(logs) / 2): translatable("by scoring </s> but not counting it: N = 3 predicted tokens, not 2 "
                                               "words."),
        math.exp(-sum(logs) / 4): translatable("by counting <s> as well: <s> is given, never predicted, so it is "
                                               "not in N."),
    }, early_rounded=(2 ** round_to(-sum(logs) / 3 / math.log(2), SIG_DIGITS),))


# Two test sentences with their per-token probabilities, for the aggregation exercise.
AGGREGATION_EXERCISE = {"sentence 1": [0.5, 0.5], "sentence 2": [0.1, 0.2, 0.1, 0.05]}


def check_corpus_perplexity(answer: object) -> Feedback:
    """Corpus perplexity of :data:`AGGREGATION_EXERCISE`: total log-probability over all tokens,
    (0.5 · 0.5 · 0.1 · 0.2 · 0.1 · 0.05) ** (-1/6) = 40,000 ** (1/6) = 5.8480.

    Draws on section 2, "From probability to perplexity".
    """
    sentences = list(AGGREGATION_EXERCISE.values())
    all_logs = [math.log(p) for s in sentences for p in s]
    all_probs = [p for s in sentences for p in s]
    per_sentence = [math.exp(-sum(map(math.log, s)) / len(s)) for s in sentences]
    return grade_number(answer, math.exp(-sum(all_logs) / len(all_logs)), sig_digits=SIG_DIGITS, mistakes={
        sum(per_sentence) / len(per_sentence): translatable("by averaging the two sentence perplexities; corpus "
                                                            "perplexity pools all tokens: exp(-total log-prob / "
                                                            "total tokens)."),
        math.exp(sum(math.log(p) for p in per_sentence) / 2):
            translatable("with a geometric mean of sentence perplexities, which weighs a 2-token sentence like a "
                         "4-token one."),
        sum(len(s) * pp for s, pp in zip(sentences, per_sentence)) / len(all_probs):
            translatable("by weighting the sentence perplexities by their tokens: the weights are right, but "
                         "perplexities do not average; average the log-probabilities of all six tokens, then go "
                         "back."),
        len(all_probs) / sum(all_probs): translatable("by inverting the mean probability (1.45 / 6); perplexity "
                                                      "averages the log-probabilities of the six tokens, not the "
                                                      "probabilities."),
    }, early_rounded=(2 ** round_to(-sum(all_logs) / len(all_logs) / math.log(2), SIG_DIGITS),
                      math.exp(round_to(-sum(all_logs) / len(all_logs), SIG_DIGITS))))


# A word model's score on a test text, for converting to a unit every tokenization shares.
BITS_PER_CHARACTER_EXERCISE = {"perplexity per token": 512, "tokens N": 1000, "characters": 3000}


def check_bits_per_character(answer: object) -> Feedback:
    """Bits per character of :data:`BITS_PER_CHARACTER_EXERCISE`: total bits / total characters.

    Introduced in notebooks/04_perplexity.ipynb, section "Going further: words and characters" (exercise 7).

    >>> check_bits_per_character(3).correct, check_bits_per_character(9).correct
    (True, False)
    """
    data = BITS_PER_CHARACTER_EXERCISE
    pp, n, chars = data["perplexity per token"], data["tokens N"], data["characters"]
    return grade_number(answer, n * math.log2(pp) / chars, sig_digits=SIG_DIGITS, mistakes={
        math.log2(pp): translatable("by stopping at bits per token, log2(512) = 9; the text's total bits, N x 9, "
                                    "are then shared among its characters."),
        2 ** (n * math.log2(pp) / chars): translatable("by giving the perplexity per character, 2 to the bits per "
                                                       "character; the question asks for the bits."),
        n * math.log(pp) / chars: translatable("with the natural log: that is nats per character; use log2 for "
                                               "bits."),
        n * math.log10(pp) / chars: translatable("with log10; use log2 for bits."),
        pp * n / chars: translatable("by dividing the perplexity by the characters per token; perplexities do not "
                                     "add up, bits do: convert to bits first."),
        math.log2(pp) * chars / n: translatable("by multiplying the bits per token by the characters per token; "
                                                "divide: each token's bits are shared among its characters."),
    })
