"""Self-checks of chapter 5, *Smoothing and interpolation* (notebooks/05_smoothing_interpolation.ipynb),
section "Check yourself".
"""

from __future__ import annotations

from lmcore.exercises.feedback import Feedback, check_choice, check_number

__all__ = [
    "INTERPOLATION_EXERCISE",
    "check_interpolated_probability",
    "check_rescue_choice",
    "check_test_set_tuning",
    "ADD_K_EXERCISE",
    "check_add_one_unseen_bigram",
    "check_add_k_unseen_mass",
    "check_set_for_choosing_k",
]


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
