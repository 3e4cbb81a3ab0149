"""Self-checks of chapter 6, *BLEU* (notebooks/06_bleu.ipynb), section "Check yourself".

Every numeric exercise states its precision in the notebook ("to 3 significant digits") and
its checker accepts any answer at that precision (``grade_number(..., sig_digits=...)``).

>>> check_clipped_unigram_precision(0.6).correct, check_clipped_unigram_precision(0.6004).correct
(True, True)
>>> print(check_clipped_unigram_precision(1.0))  # doctest: +NORMALIZE_WHITESPACE
Not yet: 1 is what you get without clipping: "the" is counted 3 times but a reference has it only
twice, and "cat" twice where a reference has it once; clip each count at the reference's.
"""

from __future__ import annotations

import math
from collections import Counter

from lmcore.exercises.feedback import SIG_DIGITS, Feedback, grade_choice, grade_number, round_to
from lmcore.i18n import translatable

__all__ = [
    "CLIPPING_EXERCISE",
    "check_clipped_unigram_precision",
    "MULTI_REFERENCE_EXERCISE",
    "check_multi_reference_precision",
    "BREVITY_EXERCISE",
    "check_bleu_with_brevity",
    "CORPUS_EXERCISE",
    "check_corpus_bleu",
    "SCALE_EXERCISE",
    "check_bleu_point_difference",
    "check_comparable_scores",
]


def _clipped(hypothesis: str, references: list[str], *, clip: str = "max") -> float:
    """Unigram precision with counts clipped at the most in one reference (``clip="max"``), at the
    sum over references (``"sum"``), at the first reference only (``"first"``), or not at all (``"none"``)."""
    counts = Counter(hypothesis.split())
    refs = [Counter(reference.split()) for reference in references]
    limit = {"max": lambda w: max(r[w] for r in refs), "sum": lambda w: sum(r[w] for r in refs),
             "first": lambda w: refs[0][w], "none": lambda w: math.inf if any(r[w] for r in refs) else 0}[clip]
    return sum(min(c, limit(w)) for w, c in counts.items()) / sum(counts.values())


#: Exercise 1: one reference; unigram precision to 3 significant digits.
CLIPPING_EXERCISE = {"hypothesis": "the cat the cat the", "references": ["the cat sat on the mat"]}


def check_clipped_unigram_precision(answer: object) -> Feedback:
    """Clipped unigram precision of "the cat the cat the" against "the cat sat on the mat": (2 + 1) / 5.

    Draws on section 2, "Clipped n-gram precision".
    """
    hyp, refs = CLIPPING_EXERCISE["hypothesis"], CLIPPING_EXERCISE["references"]
    return grade_number(answer, _clipped(hyp, refs), sig_digits=SIG_DIGITS, mistakes={
        _clipped(hyp, refs, clip="none"): translatable('without clipping: "the" is counted 3 times but a reference '
                                                       'has it only twice, and "cat" twice where a reference has '
                                                       "it once; clip each count at the reference's."),
        2 / 6: translatable('by counting each matching word type once ("the", "cat": 2) and dividing by the '
                            "reference's length (6 words); count each word as often as it appears, up to the "
                            "reference's count, and divide by the hypothesis's 5 words."),
        3 / 6: translatable("by dividing the clipped matches by the reference's length; divide by the hypothesis's "
                            "5 words."),
        2 / 5: translatable('by counting each matching word type once ("the", "cat"); a word counts as often as it '
                            "appears, up to the reference's count."),
    })


#: Exercise 2: two references; unigram precision to 3 significant digits.
MULTI_REFERENCE_EXERCISE = {"hypothesis": "a a a a b b", "references": ["a b b b", "a a c"]}


def check_multi_reference_precision(answer: object) -> Feedback:
    """Clipped unigram precision of "a a a a b b" against "a b b b" and "a a c": "a" clipped at 2 (the
    most in ONE reference, the second), "b" at 3 (the first), so it keeps its 2: (2 + 2) / 6.

    >>> check_multi_reference_precision(0.667).correct, check_multi_reference_precision(0.833).correct
    (True, False)

    Draws on section 2, "Clipped n-gram precision".
    """
    hyp, refs = MULTI_REFERENCE_EXERCISE["hypothesis"], MULTI_REFERENCE_EXERCISE["references"]
    return grade_number(answer, _clipped(hyp, refs), sig_digits=SIG_DIGITS, mistakes={
        _clipped(hyp, refs, clip="sum"): translatable("by clipping at the copies in all references together (3 for "
                                                      '"a"); the limit is the most copies in any single reference '
                                                      "(2)."),
        _clipped(hyp, refs, clip="none"): translatable("without clipping: the hypothesis has four a's, no "
                                                       "reference more than two."),
        _clipped(hyp, refs, clip="first"): translatable("by clipping at the first reference only; every reference "
                                                        "counts, and the one with the most copies sets the limit."),
    })


#: Exercise 3: p_1..p_4, the hypothesis length c and the reference lengths.
BREVITY_EXERCISE = {"precisions": (0.8, 0.5, 0.3, 0.2), "c": 9, "reference_lengths": (10, 12)}


def check_bleu_with_brevity(answer: object) -> Feedback:
    """BLEU from p = (0.8, 0.5, 0.3, 0.2), c = 9, references of 10 and 12 tokens: r = 10 (the closest),
    BP = exp(1 - 10/9), times the geometric mean of the p_n.

    Draws on section 2, "Clipped n-gram precision".
    """
    p, c, lengths = (BREVITY_EXERCISE[k] for k in ("precisions", "c", "reference_lengths"))
    geometric = math.exp(sum(math.log(x) for x in p) / len(p))

    def bp(r: float) -> float:
        return 1.0 if c > r else math.exp(1 - r / c)

    right = bp(min(lengths, key=lambda r: (abs(r - c), r))) * geometric
    return grade_number(answer, right, sig_digits=SIG_DIGITS, mistakes={
        geometric: translatable("without the brevity penalty: c = 9 is shorter than r = 10, so multiply by exp(1 - "
                                "10/9)."),
        bp(max(lengths)) * geometric: translatable("with r = 12, the longest reference; r is the reference length "
                                                   "closest to c."),
        bp(sum(lengths) / len(lengths)) * geometric:
            translatable("with r = 11, the mean reference length; r is the length closest to c."),
        bp(10) * sum(p) / len(p): translatable("with the arithmetic mean of the p_n; BLEU takes their geometric "
                                               "mean."),
        math.exp(1 - 9 / 10) * geometric: translatable("with exp(1 - c/r); the penalty is exp(1 - r/c)."),
    }, early_rounded=[  # the geometric mean and BP each rounded to 3 digits, BP's r/c too
        round_to(geometric, 3) * round_to(bp(10), 3),
        round_to(geometric, 3) * round_to(math.exp(1 - round_to(10 / 9, 3)), 3),
    ])


#: Exercise 4: two sentences, max order N = 2: each sentence's (matches, totals) per order and its c, r.
CORPUS_EXERCISE = {"sentences": (
    {"matches": (3, 1), "totals": (4, 3), "c": 4, "r": 4},
    {"matches": (6, 5), "totals": (6, 5), "c": 6, "r": 6},
)}


def check_corpus_bleu(answer: object) -> Feedback:
    """Corpus BLEU (N = 2) of the two sentences of :data:`CORPUS_EXERCISE`: pool matches and totals,
    sqrt(9/10 * 6/8) (c = r, so BP = 1).

    Draws on section 3, "Corpus BLEU pools the counts".
    """
    sentences = CORPUS_EXERCISE["sentences"]

    def score(matches, totals, c, r) -> float:
        bp = 1.0 if c > r else math.exp(1 - r / c)
        return bp * math.exp(sum(math.log(m / t) for m, t in zip(matches, totals)) / len(matches))

    pooled = score(*(tuple(map(sum, zip(*(s[k] for s in sentences)))) for k in ("matches", "totals")),
                   sum(s["c"] for s in sentences), sum(s["r"] for s in sentences))
    each = [score(s["matches"], s["totals"], s["c"], s["r"]) for s in sentences]
    by_order = math.sqrt(math.prod(sum(s["matches"][n] / s["totals"][n] for s in sentences) / len(sentences)
                                   for n in range(2)))  # each order's precision averaged over the sentences
    return grade_number(answer, pooled, sig_digits=SIG_DIGITS, mistakes={
        sum(each) / len(each): translatable("by averaging the two sentence scores (0.5 and 1); corpus BLEU adds up "
                                            "the matches and totals of all sentences first, then combines once."),
        math.sqrt(each[0] * each[1]): translatable("with the geometric mean of the sentence scores; pool the "
                                                   "counts instead."),
        (9 / 10 + 6 / 8) / 2: translatable("with the arithmetic mean of p_1 and p_2; BLEU takes their geometric "
                                           "mean."),
        by_order: translatable("by averaging each order's precision over the sentences (p_1 = (3/4 + 1)/2, p_2 = "
                               "(1/3 + 1)/2); pool the counts first: p_1 = 9/10, p_2 = 6/8."),
    })


#: Exercise 5: two systems on the same test set, same references and tokenizer, printed by two tools.
SCALE_EXERCISE = {"system X (nltk, 0-1 scale)": 0.31, "system Y (sacrebleu, 0-100 scale)": 29.5}


def check_bleu_point_difference(answer: object) -> Feedback:
    """X - Y in BLEU points (the 0-100 scale): 31 - 29.5 = 1.5.

    Draws on section 2, "Clipped n-gram precision", and section 6, "Tokenization changes the number".
    """
    x, y = SCALE_EXERCISE.values()
    return grade_number(answer, 100 * x - y, sig_digits=2, mistakes={
        x - y: translatable("by subtracting 29.5 from 0.31 as printed; X is on the 0-1 scale: 0.31 is 31 BLEU "
                            "points."),
        y - x: translatable("by comparing 29.5 with 0.31 as printed; X is on the 0-1 scale: 0.31 is 31 BLEU "
                            "points, 1.5 more than Y."),
        y - 100 * x: translatable("with Y - X; the question asks for X - Y (X is ahead)."),
        x - y / 100: translatable("on the 0-1 scale; the question asks for BLEU points (0-100)."),
    })


def check_comparable_scores(answer: object) -> Feedback:
    """Two papers report BLEU on the same Chinese test set with the same references: system P 0.31
    with tokenize="zh", system Q 0.24 on the annotators' word segmentation. Which is better?
    A: P, by 0.07.  B: Q: word BLEU is stricter, so 0.24 is worth more.  C: cannot tell from these
    numbers: rescore both with the same tokenization.  D: they are equal within rounding.

    Draws on section 6, "Tokenization changes the number".
    """
    return grade_choice(answer, "C", explanations={
        "A": translatable("0.31 and 0.24 count different things: characters (zh) against words. A character is "
                          "matched far more easily than a word, so zh gives higher numbers for the same output; "
                          "the difference says nothing about the systems."),
        "B": translatable("word BLEU is usually lower, but by how much depends on the text and on the system; "
                          "there is no conversion factor. Only a rescoring with one tokenizer compares them."),
        "C": translatable("BLEU is comparable only with the same tokenization (and references, case, "
                          "smoothing...): that is what the signature is for. Rescore both outputs with one "
                          "setting, e.g. tokenize='zh'."),
        "D": translatable("the numbers differ by 0.07, far more than rounding, but they are not comparable in the "
                          "first place."),
    })
