"""Self-checks of chapter 5, *Smoothing and interpolation* (notebooks/05_smoothing_interpolation.ipynb):
section "Check yourself", and the exercise closing "Going further: add-one and add-k on real text".

Every numeric exercise states its precision in the notebook and its checker accepts any
answer at that precision (3 significant digits, 2 for the add-k mass).

>>> check_interpolated_probability(0.238).correct, check_em_step(0.51).correct
(True, True)
>>> check_kneser_ney_probability(0.0644).correct
True
"""

from __future__ import annotations

import math

from lmcore.exercises.feedback import SIG_DIGITS, Feedback, grade_choice, grade_number
from lmcore.i18n import translatable

__all__ = [
    "INTERPOLATION_EXERCISE",
    "check_interpolated_probability",
    "check_rescue_choice",
    "EM_EXERCISE",
    "check_em_step",
    "ADD_K_EXERCISE",
    "check_add_one_unseen_bigram",
    "check_add_k_unseen_mass",
    "RESCUED_TOKEN_EXERCISE",
    "check_rescued_token_bits",
    "KNESER_NEY_EXERCISE",
    "check_kneser_ney_probability",
]

#: Interpolation exercise: weights λ1, λ2, λ3 (unigram first) and the three estimates of one word.
INTERPOLATION_EXERCISE = {"lambdas": (0.2, 0.3, 0.5), "probs": (0.04, 0.1, 0.4)}


def check_interpolated_probability(answer: object) -> Feedback:
    """λ = (0.2, 0.3, 0.5), P1 = 0.04, P2 = 0.1, P3 = 0.4: the interpolated probability Σ_i λ_i P_i.

    Draws on section 3, "Linear interpolation".
    """
    lambdas, probs = INTERPOLATION_EXERCISE["lambdas"], INTERPOLATION_EXERCISE["probs"]
    terms = [w * p for w, p in zip(lambdas, probs)]
    return grade_number(answer, sum(terms), mistakes={
        sum(w * p for w, p in zip(reversed(lambdas), probs)):
            translatable("with the weights in reverse order: λ1 weighs the unigram estimate, λ3 the trigram one."),
        sum(probs) / 3: translatable("by averaging the three estimates: interpolation weighs each one by its λ."),
        sum(terms[1:]): translatable("by leaving out the unigram term λ1 P1 = 0.008; every order contributes."),
        terms[2]: translatable("with the trigram term alone; add λ1 P1 and λ2 P2."),
        sum(probs): translatable("by adding the estimates without their weights."),
    }, sig_digits=SIG_DIGITS)


def check_rescue_choice(answer: object) -> Feedback:
    """A test word gets 0 from the trigram and the bigram estimates, 0.002 from the add-one unigram.

    Which weights (λ1, λ2, λ3) leave its interpolated probability at 0?
    A: (0.1, 0.3, 0.6)   B: (0, 0.4, 0.6)   C: (0.01, 0.01, 0.98)   D: (1, 0, 0)

    Draws on section 3, "Linear interpolation".
    """
    return grade_choice(answer, "B", explanations={
        "A": translatable("0.1 x 0.002 = 0.0002 > 0: the unigram weight rescues the word."),
        "B": translatable("with λ1 = 0 only the bigram and trigram estimates count, and both are 0, so the zero "
                          "comes back (and the perplexity is infinite). Only the unigram estimate is never 0, so "
                          "λ1 must be > 0."),
        "C": translatable("even a small λ1 = 0.01 gives 0.01 x 0.002 = 0.00002 > 0: a small weight still rescues "
                          "the word."),
        "D": translatable("the unigram alone gives 0.002 > 0; it ignores the context, but it never gives 0."),
    })


#: EM exercise: starting weights (λ1, λ2) of a two-order model and two held-out tokens' (P1, P2).
EM_EXERCISE = {"lambdas": (0.5, 0.5), "order_probs": ((0.01, 0.5), (0.02, 0.0))}


def check_em_step(answer: object) -> Feedback:
    """λ1 after one EM step from :data:`EM_EXERCISE`: the mean over the tokens of λ1 P1 / Σ_j λ_j P_j.

    Draws on section 4, "Choosing λ".
    """
    lambdas, rows = EM_EXERCISE["lambdas"], EM_EXERCISE["order_probs"]
    shares = [[w * p / sum(v * q for v, q in zip(lambdas, row)) for w, p in zip(lambdas, row)] for row in rows]
    new = [sum(column) / len(rows) for column in zip(*shares)]
    weighted = [[w * p for w, p in zip(lambdas, row)] for row in rows]
    pooled = sum(row[0] for row in weighted) / sum(sum(row) for row in weighted)
    return grade_number(answer, new[0], mistakes={
        new[1]: translatable("for λ2, the bigram's weight; the question asks for λ1, the unigram's."),
        sum(row[0] for row in weighted) / len(rows):
            translatable("by averaging λ1 P1 without dividing each by its token's mixed probability Σ_j λ_j P_j."),
        pooled: translatable("by dividing the summed λ1 P1 by the summed mixed probabilities; EM takes each "
                             "token's share first, then the mean of the shares."),
        lambdas[0]: translatable("by leaving λ1 where it started; one step moves it towards the order that "
                                 "explains the tokens better."),
        shares[0][0]: translatable("with the unigram's share of the first token only; λ1 is the mean of its "
                                   "shares over both tokens."),
        shares[1][0]: translatable("with the unigram's share of the second token only; λ1 is the mean of its "
                                   "shares over both tokens."),
    }, sig_digits=SIG_DIGITS)


#: Add-k exercises: a history h seen c(h) times with seen_types distinct next words, |V| outcomes.
ADD_K_EXERCISE = {"c_h": 50, "V": 1000, "seen_types": 20, "k": 0.1}


def check_add_one_unseen_bigram(answer: object) -> Feedback:
    """Add-one probability of a bigram (h, w) never seen in training: c(h) = 50, |V| = 1,000.

    ``(0 + 1) / (c(h) + |V|)``.

    Draws on section 2, "Add-one and add-k smoothing".
    """
    c_h, size = ADD_K_EXERCISE["c_h"], ADD_K_EXERCISE["V"]
    return grade_number(answer, 1 / (c_h + size), mistakes={
        0.0: translatable("with the MLE (no smoothing): add-one gives every unseen bigram a count of 1."),
        1 / size: translatable("without c(h) in the denominator: it is c(h) + |V| = 1,050, the history's count "
                               "plus the |V| added ones."),
        1 / (c_h + 1): translatable("by adding 1 to the denominator: one is added to each of the |V| counts, so "
                                    "the denominator grows by |V|."),
        1 / c_h: translatable("with c(h) alone in the denominator: add |V| for the ones added to every count."),
    }, decimals=6, sig_digits=SIG_DIGITS)


def check_add_k_unseen_mass(answer: object) -> Feedback:
    """Total add-k probability given to the words never seen after h: c(h) = 50, |V| = 1,000,
    20 distinct words seen after h, k = 0.1.

    ``k (|V| - seen_types) / (c(h) + k |V|)``.

    Introduced in notebooks/05_smoothing_interpolation.ipynb, section "Going further: add-one and add-k on real text".
    """
    c_h, size, seen, k = (ADD_K_EXERCISE[key] for key in ("c_h", "V", "seen_types", "k"))
    unseen = size - seen
    return grade_number(answer, k * unseen / (c_h + k * size), mistakes={
        k * size / (c_h + k * size): translatable("by counting all |V| words: the 20 seen words get their k too, "
                                                  "but only the 980 unseen ones count here."),
        unseen / (c_h + size): translatable("with k = 1 (add-one); the exercise adds k = 0.1."),
        unseen / size: translatable("with the fraction of the vocabulary never seen after h, which is not a "
                                    "probability mass: weigh it by k / (c(h) + k|V|) per word."),
        k * unseen / c_h: translatable("without k|V| in the denominator (a probability mass cannot exceed 1)."),
        # 0.66 is also what rounding 0.1/150 to 0.00067 before multiplying by 980 gives: the hint names both
        k * unseen / (c_h + k * unseen): translatable("by adding k only for the unseen words in the denominator "
                                                      "(every one of the |V| counts gets k), or by rounding "
                                                      "k / (c(h) + k|V|) to 2 digits before multiplying by 980."),
    }, decimals=4, sig_digits=2)


#: A test token rescued by the unigram: the weights and its three estimates.
RESCUED_TOKEN_EXERCISE = {"lambdas": (0.05, 0.25, 0.7), "probs": (0.0004, 0.0, 0.0)}


def check_rescued_token_bits(answer: object) -> Feedback:
    """Surprisal in bits of a token rescued by the unigram: -log2(λ1 P1) = -log2(0.05 x 0.0004).

    Draws on section 3, "Linear interpolation", and chapter 2, section 1, "Surprisal and entropy".
    """
    lambdas, probs = RESCUED_TOKEN_EXERCISE["lambdas"], RESCUED_TOKEN_EXERCISE["probs"]
    mixed = sum(w * p for w, p in zip(lambdas, probs))
    return grade_number(answer, -math.log2(mixed), mistakes={
        -math.log(mixed): translatable("with the natural log: that is nats; divide by ln 2 for bits."),
        -math.log10(mixed): translatable("with log10; use log2 for bits."),
        -math.log2(probs[0]): translatable("with the unigram estimate alone: the mixture gives it only λ1 = 0.05 "
                                           "of its weight, so the token costs log2(1/0.05) = 4.32 bits more."),
        -math.log2(lambdas[0]): translatable("with the weight alone; multiply it by the unigram estimate."),
        mixed: translatable("by giving the probability λ1 P1; its surprisal is -log2 of it."),
        math.log2(mixed): translatable("with log2 P, which is negative; the surprisal is -log2 P, a positive "
                                       "number of bits."),
    }, sig_digits=SIG_DIGITS)


#: Kneser-Ney exercise: discount d; the history h (its count, the different words after it); the pair's
#: count; the word w (the different words before it, its count); the training text's different bigrams
#: and tokens. c(w) and the token count are there for the raw unigram, which Kneser-Ney does not use.
KNESER_NEY_EXERCISE = {"d": 0.75, "c_h": 25, "types_after_h": 12, "c_hw": 2, "types_before_w": 40, "c_w": 500,
                       "bigram_types": 1000, "tokens": 5000}


def check_kneser_ney_probability(answer: object) -> Feedback:
    """Interpolated Kneser-Ney bigram probability of :data:`KNESER_NEY_EXERCISE`'s pair (h, w):

        P_KN(w | h) = max(c(h, w) - d, 0) / c(h) + λ(h) P_cont(w)
        λ(h) = d N1+(h •) / c(h),   P_cont(w) = N1+(• w) / N1+(• •)

    here (2 - 0.75)/25 + (0.75 x 12/25) x 40/1,000 = 0.05 + 0.36 x 0.04 = 0.0644.

    Draws on section 5, "Beyond linear interpolation".
    """
    data = KNESER_NEY_EXERCISE
    d, c_h, c_hw = data["d"], data["c_h"], data["c_hw"]
    discounted = max(c_hw - d, 0) / c_h
    backoff_weight = d * data["types_after_h"] / c_h
    p_cont = data["types_before_w"] / data["bigram_types"]
    return grade_number(answer, discounted + backoff_weight * p_cont, mistakes={
        discounted + p_cont: translatable("by adding P_cont(w) without its weight λ(h) = d N1+(h •) / c(h): the "
                                          "lower order gets only the probability the discounts freed."),
        discounted + backoff_weight * data["c_w"] / data["tokens"]:
            translatable("with the raw unigram c(w) / N = 500/5,000 as the lower order; Kneser-Ney uses "
                         "P_cont(w) = N1+(• w) / N1+(• •), how many different words w follows."),
        c_hw / c_h + backoff_weight * p_cont: translatable("without subtracting d from c(h, w): the discounts are "
                                                          "what pays for λ(h)."),
        discounted: translatable("with the discounted bigram term alone; add the lower order's share "
                                 "λ(h) P_cont(w)."),
        discounted + data["types_after_h"] / c_h * p_cont:
            translatable("with λ(h) = N1+(h •) / c(h), without d: each of the N1+(h •) words seen after h "
                         "gave up d, not 1."),
        c_hw / c_h: translatable("with the MLE c(h, w) / c(h): Kneser-Ney discounts it and adds the lower order."),
    }, sig_digits=SIG_DIGITS)
