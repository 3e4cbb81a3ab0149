"""Self-checks of chapter 1, *The Shannon game* (notebooks/01_shannon_game.ipynb): exercises 1-5 of
"Check yourself", and exercise 6 (:func:`check_lower_bound`), which closes the Going-further
section "why Shannon's bounds hold".

Each numeric check asks for 3 significant digits and accepts any answer within half a unit of
the third significant digit of the expected value; it recognises the typical wrong answers (a
natural or decimal log in place of log2, whole halvings in place of log2, a probability or a
ratio in place of bits, a ratio of surprisals in place of their difference, a dropped sign or
weight, a rank in place of a probability, the other bound).

>>> check_olives_surprisal(5.06).correct
True
>>> print(check_olives_surprisal(3.51))  # doctest: +NORMALIZE_WHITESPACE
Not yet: 3.51 is what you get with the natural log: that is nats; divide by ln 2 = 0.6931 for bits
(or use log2).
"""

from __future__ import annotations

import math

from lmcore.exercises.feedback import SIG_DIGITS, Feedback, decimals_for, grade_choice, grade_number, round_to
from lmcore.i18n import translatable
from lmcore.shannon import PIZZA

__all__ = [
    "OLIVES_PROBABILITY",
    "check_olives_surprisal",
    "check_extra_bits",
    "check_rank_or_probability",
    "LETTER_EXERCISE_COUNTS",
    "letter_exercise_frequencies",
    "check_upper_bound",
    "check_lower_bound",
    "UNIFORM_EXERCISE_WORDS",
    "check_uniform_bits",
]

#: Exercise 1: the probability of "olives" in the pizza sentence. Not in the chapter's table, so that
#: its surprisal is computed, not read off the printed ones.
OLIVES_PROBABILITY = 0.03

_NATURAL_LOG = translatable("with the natural log: that is nats; divide by ln 2 = 0.6931 for bits (or use log2).")
_DECIMAL_LOG = translatable("with log10: that counts decimal digits; use log2 for bits.")
_SIGN = translatable("with the sign left out: surprisal is -log2 p, never negative.")


def _grade(answer: object, expected: float, mistakes: dict[float, str],
           early_rounded: tuple[float, ...] = ()) -> Feedback:
    """:func:`grade_number` at :data:`SIG_DIGITS` significant digits, a right answer shown to as many
    (5.06, not 5.0589); a mistake too is recognised at that precision of its own value."""
    return grade_number(answer, expected, mistakes=mistakes, decimals=decimals_for(expected, SIG_DIGITS),
                        sig_digits=SIG_DIGITS, early_rounded=early_rounded)


def check_olives_surprisal(answer: object) -> Feedback:
    """The surprisal, in bits, of "olives" (probability 0.03), to 3 significant digits:
    -log2 0.03 = log2 (1 / 0.03) = 5.0589.

    Draws on section 1, "Guess the next word".

    >>> check_olives_surprisal(5.06).correct, check_olives_surprisal("5.0589").correct
    (True, True)
    """
    p = OLIVES_PROBABILITY
    whole_halvings = float(math.floor(-math.log2(p)))  # counting halvings stops at 1/32 = 0.03125, just above p
    return _grade(answer, -math.log2(p), {
        -math.log(p): _NATURAL_LOG,
        -math.log10(p): _DECIMAL_LOG,
        p: translatable("by giving the probability itself; surprisal is -log2 of it, in bits."),
        1 / p: translatable("with 1/p, the inverse probability; surprisal is its log2."),
        math.log2(p): _SIGN,
        whole_halvings: translatable("by counting whole halvings: 1/32 = 0.03125 costs 5 bits, and 0.03 is a "
                                     "little less probable, so it costs a little more; use log2 and give 3 "
                                     "significant digits."),
    })


def check_extra_bits(answer: object) -> Feedback:
    """How many more bits does "fried rice" (0.0001) cost than "pepperoni" (0.1)? To 3 significant digits.

    ``-log2 0.0001 - (-log2 0.1) = log2 1000``.

    Draws on section 1, "Guess the next word".

    >>> print(check_extra_bits(4))  # doctest: +NORMALIZE_WHITESPACE
    Not yet: 4 is what you get by dividing the two surprisals (13.3 / 3.32 = 4); "how many more bits" is
    their difference.
    """
    rice, pepperoni = PIZZA["fried rice"], PIZZA["pepperoni"]
    extra = math.log2(pepperoni / rice)
    return _grade(answer, extra, {
        math.log(pepperoni / rice): _NATURAL_LOG,
        math.log10(pepperoni / rice): _DECIMAL_LOG,
        pepperoni / rice: translatable("with the ratio of the probabilities; in bits it is the log2 of that ratio."),
        pepperoni - rice: translatable("with the difference of the probabilities; subtract their surprisals "
                                       "instead."),
        -math.log2(rice) - math.log2(pepperoni): translatable("by adding the two surprisals; the question is the "
                                                              "difference."),
        -math.log2(rice): translatable("with the surprisal of fried rice alone; subtract that of pepperoni."),
        math.log2(rice) / math.log2(pepperoni): translatable('by dividing the two surprisals (13.3 / 3.32 = 4); '
                                                             '"how many more bits" is their difference.'),
        -extra: translatable("by subtracting the other way round: fried rice, the less probable, costs more bits, "
                             "not fewer."),
    }, early_rounded=(round_to(-math.log2(rice), SIG_DIGITS) - round_to(-math.log2(pepperoni), SIG_DIGITS),))


def check_rank_or_probability(answer: object) -> Feedback:
    """Model A ranks the true word first but gives it probability 0.05; model B ranks it fourth with
    probability 0.2. Which model pays fewer bits for this word? A, B, or C (the same).

    Draws on section 1, "Guess the next word", and section 2, "Play it on real text: the Shannon game".
    """
    return grade_choice(answer, "B", explanations={
        "A": translatable("a first place is worth nothing by itself: the cost is -log2 P, and A gave the word only "
                          "0.05 (4.32 bits), while B gave it 0.2 (2.32 bits). A spread its probability over many "
                          "words."),
        "B": translatable("the cost is -log2 P(true word): 2.32 bits for B against 4.32 bits for A. Rank is the "
                          "number of guesses; scoring uses the probability."),
        "C": translatable("the rank does not enter the score; the probability does, and 0.2 against 0.05 is 2 bits "
                          "apart."),
    })


#: Guess counts of a 20-letter game: how many letters took 1, 2, 3, 4, 5 guesses.
LETTER_EXERCISE_COUNTS = {1: 12, 2: 4, 3: 2, 4: 1, 5: 1}


def letter_exercise_frequencies() -> list[float]:
    """q_1 .. q_5 of :data:`LETTER_EXERCISE_COUNTS` (12, 4, 2, 1 and 1 of 20 letters).

    >>> letter_exercise_frequencies()
    [0.6, 0.2, 0.1, 0.05, 0.05]
    """
    total = sum(LETTER_EXERCISE_COUNTS.values())
    return [LETTER_EXERCISE_COUNTS[i] / total for i in sorted(LETTER_EXERCISE_COUNTS)]


def _bounds(q, log=math.log2) -> tuple[float, float]:
    following = q[1:] + [0.0]
    lower = sum(i * (a - b) * log(i) for i, (a, b) in enumerate(zip(q, following), start=1))
    upper = -sum(x * log(x) for x in q if x > 0)
    return lower, upper


def check_upper_bound(answer: object) -> Feedback:
    """Shannon's upper bound -Σ q_i log2 q_i for :data:`LETTER_EXERCISE_COUNTS`, to 3 significant digits.

    Draws on section 4, "Shannon's letter game".

    >>> print(check_upper_bound(15.0))  # doctest: +NORMALIZE_WHITESPACE
    Not yet: 15 is what you get by adding the -log2 q_i without weighing each by its q_i.
    """
    q = letter_exercise_frequencies()
    lower, upper = _bounds(q)
    counts = [float(c) for c in LETTER_EXERCISE_COUNTS.values()]
    return _grade(answer, upper, {
        _bounds(q, math.log)[1]: _NATURAL_LOG,
        lower: translatable("with the lower bound's formula; the upper bound is the entropy of the guess numbers."),
        -sum(c * math.log2(c) for c in counts): translatable("with the counts in place of the fractions q_i = "
                                                             "count / 20."),
        math.log2(5): translatable("with log2 5, as if the five guess numbers were equally likely; weigh each by "
                                   "its q_i."),
        -sum(math.log2(x) for x in q): translatable("by adding the -log2 q_i without weighing each by its q_i."),
        -upper: translatable("with the sign left out: -Σ q_i log2 q_i is never negative."),
    })


def check_lower_bound(answer: object) -> Feedback:
    """Shannon's lower bound Σ i (q_i - q_{i+1}) log2 i for :data:`LETTER_EXERCISE_COUNTS`, to 3
    significant digits (q_6 = 0).

    Exercise 6 of the chapter: it closes the Going-further section "why Shannon's bounds hold", where
    the lower bound is derived (not a "Check yourself" exercise).
    """
    q = letter_exercise_frequencies()
    lower, upper = _bounds(q)
    no_factor = sum((a - b) * math.log2(i) for i, (a, b) in enumerate(zip(q, q[1:] + [0.0]), start=1))
    return _grade(answer, lower, {
        _bounds(q, math.log)[0]: _NATURAL_LOG,
        upper: translatable("with the upper bound's formula (the entropy of the guess numbers); the lower bound "
                            "weighs each log2 i by i (q_i - q_{i+1})."),
        no_factor: translatable("without the factor i in i (q_i - q_{i+1}) log2 i."),
        sum(i * (a - b) * math.log2(i) for i, (a, b) in enumerate(zip(q, q[1:]), start=1)):
            translatable("without the last term: q_6 = 0, so the last term is 5 (q_5 - 0) log2 5."),
        -lower: translatable("with q_{i+1} - q_i in place of q_i - q_{i+1}: the q_i fall as i grows, so no term is "
                             "negative."),
    })


#: The uniform-model exercise: a model that gives each of this many words the same probability.
UNIFORM_EXERCISE_WORDS = 30_000


def check_uniform_bits(answer: object) -> Feedback:
    """A model gives each of 30,000 words the same probability, whatever the context: how many bits
    does it pay per word, on any text? To 3 significant digits: log2 30,000 = 14.9 (not 10,000 words,
    whose 13.3 bits the chapter prints as the surprisal of a word of probability 0.0001).

    Draws on section 1, "Guess the next word".
    """
    n = UNIFORM_EXERCISE_WORDS
    return _grade(answer, math.log2(n), {
        math.log(n): _NATURAL_LOG,
        math.log10(n): _DECIMAL_LOG,
        1 / n: translatable("by giving the probability of one word; its surprisal is -log2 of it, in bits."),
        float(n): translatable("with the number of equally likely words (that is the perplexity of chapter 4); the "
                               "bits are its log2."),
        -math.log2(n): _SIGN,
    })
