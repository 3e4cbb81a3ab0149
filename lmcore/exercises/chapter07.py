"""Self-checks of chapter 7, *The same yardstick for neural models* (notebooks/07_neural_models.ipynb):
exercises 1-5 in "Check yourself", exercise 6 closing "Going further: what perplexity does not tell".

Every numeric exercise states its precision in the notebook ("exactly", "to 3 significant
digits") and its checker accepts any answer at that precision (:data:`SIG_DIGITS`).

>>> check_parameter_count(13284).correct, check_bits_per_character_from_perplexity(1.27).correct
(True, True)
>>> print(check_parameter_count(13120))  # doctest: +NORMALIZE_WHITESPACE
Not yet: 13120 is what you get without the biases: b1 has one number per hidden unit (64) and b2 one per
vocabulary entry (100).
"""

from __future__ import annotations

import math
import numbers

from lmcore.exercises.feedback import SIG_DIGITS, Feedback, grade_choice, grade_number
from lmcore.i18n import tr, translatable

__all__ = [
    "PARAMETER_EXERCISE",
    "check_parameter_count",
    "UNIT_EXERCISE",
    "check_bits_per_character_from_perplexity",
    "COMPARISON_EXERCISE",
    "check_which_predicts_better",
    "PASSES_EXERCISE",
    "check_forward_passes",
    "CHUNK_EXERCISE",
    "check_full_context_share",
    "check_contaminated_test",
]


def _grade_count(answer: object, right: int, mistakes: dict[float, str]) -> Feedback:
    """A count is right only as the whole number itself."""
    if isinstance(answer, numbers.Real) and not isinstance(answer, (bool, numbers.Integral)) \
            and math.isfinite(answer) and answer != round(answer):  # an int is whole, however large
        return Feedback(False, tr("Not yet: a count is a whole number, got {answer}.", answer=answer))
    return grade_number(answer, right, decimals=0, rel_tol=1e-12, mistakes=mistakes)


# Exercise 1: the parameters of a small model, exactly.
PARAMETER_EXERCISE = {"vocabulary": 100, "context": 5, "dim": 16, "hidden": 64}


def check_parameter_count(answer: object) -> Feedback:
    """Parameters of a model with |V| = 100, k = 5, d = 16, H = 64:
    E 100·16 + W1 (5·16)·64 + b1 64 + W2 64·100 + b2 100 = 13,284.

    >>> check_parameter_count(11764).correct   # E counted as k·d = 80 numbers, the x of one context
    False

    Draws on section 1, "A small neural language model".
    """
    v, k, d, h = (PARAMETER_EXERCISE[key] for key in ("vocabulary", "context", "dim", "hidden"))
    right = v * d + k * d * h + h + h * v + v
    return _grade_count(answer, right, {
        # hints with numbers of the exercise in them: translated here, filled in, and shown as they are
        right - h - v: tr("without the biases: b1 has one number per hidden unit ({h}) and b2 one per "
                          "vocabulary entry ({v}).", h=h, v=v),
        v * d + d * h + h + h * v + v: tr("with W1 as d x H; it reads all k = {k} embeddings side by side, so it "
                                          "is (k·d) x H = {kd} x {h}.", k=k, kd=k * d, h=h),
        k * d * h + h + h * v + v: tr("without the embedding table E: each of the {v} entries has its own {d} "
                                      "numbers, and they are learned too.", v=v, d=d),
        k * d + k * d * h + h + h * v + v: tr("with E as k·d = {kd} numbers: that is the vector x of one context; "
                                              "the table E holds d = {d} numbers for each of the |V| = {v} tokens, "
                                              "|V|·d = {vd}.", kd=k * d, d=d, v=v, vd=v * d),
        v * d * k + k * d * h + h + h * v + v: translatable("with one embedding table per context position; the k "
                                                            "positions share one table E (|V| x d)."),
    })


# Exercise 2: from perplexity per token to bits per character.
UNIT_EXERCISE = {"perplexity": 40, "tokens": 10_000, "characters": 42_000}


def check_bits_per_character_from_perplexity(answer: object) -> Feedback:
    """A BPE model with perplexity 40 per token on 10,000 tokens of a text of 42,000 characters
    (no unknown tokens): log2(40) · 10,000 / 42,000 = 1.2671 bits per character.

    Draws on section 2, "Perplexity depends on the unit", and chapter 4, section 4, "The same
    number in bits".
    """
    pp, n, c = (UNIT_EXERCISE[key] for key in ("perplexity", "tokens", "characters"))
    bits = math.log2(pp)
    return grade_number(answer, bits * n / c, sig_digits=SIG_DIGITS, mistakes={
        math.log(pp) * n / c: translatable("with the natural log: that is nats per character; bits need log2."),
        bits: translatable("by stopping at the bits per token; spread the total over the characters: × 10,000 / "
                           "42,000."),
        bits * c / n: translatable("by turning the ratio round: the total is bits per token × tokens, divided by "
                                   "characters."),
        pp * n / c: translatable("by scaling the perplexity itself; scale its logarithm, the bits per token."),
        pp ** (n / c): translatable("with the perplexity per character, 40 ** (10,000 / 42,000); its log2 is the "
                                    "answer."),
    })


# Exercise 3: a word model and a character model on the same text.
COMPARISON_EXERCISE = {"word perplexity": 150, "word tokens": 1_100, "char perplexity": 2.9, "char tokens": 5_600}


def check_which_predicts_better(answer: object) -> Feedback:
    """Word model: perplexity 150 on 1,100 tokens; character model: 2.9 on 5,600 tokens (the
    characters, the same text, no unknown tokens). Bits per character: 1.4199 against 1.5361,
    so A, the word model.

    Draws on section 2, "Perplexity depends on the unit".
    """
    return grade_choice(answer, "A", explanations={
        "A": translatable("the word model needs log2(150) · 1,100 / 5,600 = 1.4199 bits per character, the "
                          "character model log2(2.9) = 1.5361: the word model predicts this text better."),
        "B": translatable("2.9 is a perplexity per character and 150 one per word: different units. Per character "
                          "of the same text, the word model needs 1.4199 bits and the character model 1.5361."),
        "C": translatable("they can be compared: both describe the same text, so divide each one's total bits by "
                          "its 5,600 characters: 1.4199 against 1.5361 bits per character."),
    })


# Exercise 4: sliding windows.
PASSES_EXERCISE = {"tokens": 1_000, "window": 100, "stride": 25}


def check_forward_passes(answer: object) -> Feedback:
    """Forward passes to score 1,000 tokens with windows of 100 and stride 25: 1 + (1,000 - 100) / 25 = 37.

    Draws on section 3, "Fixed context windows".
    """
    n, w, s = (PASSES_EXERCISE[key] for key in ("tokens", "window", "stride"))
    right = 1 + math.ceil((n - w) / s)
    return _grade_count(answer, right, {
        n / s: translatable("by dividing the text by the stride; the last window already ends at token 1,000 when "
                            "it starts at 900, so windows start at 0, 25, ..., 900."),
        (n - w) / s: translatable("without the first window: windows start at 0, 25, ..., 900, which is 900 / 25 + "
                                  "1."),
        n / w: translatable("with disjoint chunks; a stride of 25 starts a new window every 25 tokens."),
        n - w + 1: translatable("with a stride of 1; here the window moves 25 tokens at a time."),
    })


# Exercise 5: disjoint chunks and a fixed context.
CHUNK_EXERCISE = {"context": 10, "window": 12}


def check_full_context_share(answer: object) -> Feedback:
    """A model that sees k = 10 tokens, text cut into chunks of 12 (stride = window = 12), far from any
    sentence start: positions 10 and 11 of each chunk have all 10 tokens, so 2 / 12 = 0.1667.

    Draws on section 3, "Fixed context windows".
    """
    k, w = CHUNK_EXERCISE["context"], CHUNK_EXERCISE["window"]
    right = (w - k) / w
    return grade_number(answer, right, sig_digits=SIG_DIGITS, mistakes={
        k / w: translatable("with the share that lacks some context; the question asks for those with all 10 "
                            "tokens."),
        (w - k - 1) / w: translatable("one short: position 10 of a chunk has exactly 10 tokens before it (0 to 9), "
                                      "enough; positions 10 and 11 both see all 10."),
        (w - k + 1) / w: translatable("one too many: position 9 has only 9 tokens before it in its chunk."),
    })


def check_contaminated_test(answer: object) -> Feedback:
    """A model's perplexity on a benchmark's test set is far below its perplexity on fresh text of the
    same kind. The likely reason: (B) the test set was in its training text.

    Exercise 6, closing its section.
    Introduced in notebooks/07_neural_models.ipynb, section "Going further: what perplexity does not tell".
    """
    return grade_choice(answer, "B", explanations={
        "A": translatable("a better model would be better on fresh text of the same kind too; a gap this large "
                          "between two samples of one kind of text points at the samples, not at the model."),
        "B": translatable("a test text seen in training is predicted from memory (chapter 4's memoriser: 3.73 on "
                          "its training text, infinite on new text). Large models read much of the web, which may "
                          "hold the benchmark: check for overlap (contamination) before trusting the number."),
        "C": translatable("perplexity per token is per token whatever the length; a long test text only makes the "
                          "estimate more reliable (chapter 3)."),
    })
