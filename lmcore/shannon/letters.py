"""Shannon's letter game (1951): guess each letter of a text until right, and bound the entropy of
English from the numbers of guesses.

The text is written in 27 symbols, a-z and the space (:data:`LETTERS`, :func:`to_letters`). A
player guesses the next symbol, is told "no" until right, and the number of guesses is recorded.
Let q_i be the fraction of symbols that took exactly i guesses (:func:`guess_frequencies`).
Shannon showed that, for an ideal player who knows the source and guesses in order of
probability, the entropy per symbol lies between (:func:`shannon_bounds`)

    lower = Σ_{i=1}^{27} i (q_i - q_{i+1}) log2 i      (q_28 = 0)
    upper = -Σ_i q_i log2 q_i                          (the entropy of the guess numbers)

The upper bound holds for any player who guesses the same way every time (an identical twin
could decode the text from the guess numbers alone); the lower bound is about ideal guessing.

A model plays the same game (:func:`letter_game`): its guess count for a letter is the *rank*
it gives the true letter (1 + the letters it finds more probable; ties in a-z, space order).
Its :func:`~lmcore.evaluate.cross_entropy`-like cost ``-mean log2 P(letter)`` is printed beside.
:data:`SHANNON_1951` holds numbers from Shannon's paper, quoted, not computed.

Introduced in notebooks/01_shannon_game.ipynb, section "Shannon's letter game".

>>> counts = guess_counts("to be", ["t", "o", "_", "ab", "e"])   # "_" stands for the space
>>> counts.tolist()
[1, 1, 1, 2, 1]
>>> [round(x, 4) for x in shannon_bounds(guess_frequencies(counts))]
[0.4, 0.7219]
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from lmcore.checks import check_distribution, check_int, check_sentences, check_str, check_tokens, check_weights
from lmcore.lm import LanguageModel, Sentences, check_language_model, check_model_probs
from lmcore.ngram import KneserNey
from lmcore.text import BOS_ID, Vocabulary

__all__ = [
    "LETTERS", "SHANNON_1951", "to_letters", "guess_counts", "guess_frequencies", "shannon_bounds",
    "letter_vocabulary", "fit_letter_model", "LetterRun", "letter_game", "log2_symbols",
]

#: The 27 symbols of Shannon's letter game, in the order a model breaks ties: a-z, then the space.
LETTERS = "abcdefghijklmnopqrstuvwxyz "

#: Entropy estimates for 27-symbol English (bits per letter) printed in Shannon (1951), "Prediction
#: and Entropy of Printed English", Bell System Technical Journal 30: F_N uses N - 1 letters of
#: context; "long context" is the range his bounds gave with about 100 letters of context.
#: Quoted from the paper, not computed here.
SHANNON_1951 = {"F0": 4.76, "F1": 4.03, "F2": 3.32, "F3": 3.1, "long context": (0.6, 1.3)}

_SPACE_RUNS = re.compile(" +")
# Latin letters that no Unicode decomposition turns into a-z: spelled as English writes them.
_SPELLED_OUT = str.maketrans({"ß": "ss", "ẞ": "ss", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe", "ø": "o", "Ø": "o",
                              "ł": "l", "Ł": "l", "đ": "d", "Đ": "d", "ð": "d", "Ð": "d", "þ": "th", "Þ": "th",
                              "ı": "i"})


def to_letters(text: str | Sentences) -> str:
    """``text`` in the 27 symbols of the letter game: lower case a-z and single spaces.

    Letters are lower-cased (accents dropped; ß, æ, œ, ø, þ ... spelled ss, ae, oe, o, th),
    apostrophes removed (``don't`` and ``don’t`` -> ``dont``), anything else becomes a space
    (a dash between two words too), and runs of spaces become one. ``text`` is a str, or a list
    of sentences (lists of tokens), joined with spaces.

    >>> to_letters("Don't fear, Lord's people -- 2 of them!")
    'dont fear lords people of them'
    >>> to_letters([["in", "the", "beginning"], ["god"]])
    'in the beginning god'
    >>> to_letters("Straße—Æsir’s café")
    'strasse aesirs cafe'
    """
    if not isinstance(text, str):
        if not isinstance(text, Sequence) or not all(isinstance(s, Sequence) and not isinstance(s, str)
                                                     for s in text):
            raise TypeError(f"text must be a str or a list of sentences (lists of tokens), got {type(text).__name__}")
        check_sentences(text, "text", allow_empty=True)
        text = " ".join(" ".join(sentence) for sentence in text)
    if text.isascii():
        plain = text.lower()
    else:  # accents dropped; letters without an ASCII form spelled out (ß: ss) or, like any other symbol, a space
        decomposed = unicodedata.normalize("NFKD", text.translate(_SPELLED_OUT).lower())
        plain = "".join(char for char in decomposed if not unicodedata.combining(char)
                        and unicodedata.category(char) != "Cf")  # nor invisible format characters
    plain = re.sub(r"['`\u2018\u2019\u02bc]", "", plain)
    plain = re.sub(r"[^a-z]", " ", plain)
    return _SPACE_RUNS.sub(" ", plain).strip()


def _check_letters(letters: object, name: str = "letters") -> str:
    if not check_str(letters, name):
        raise ValueError(f"{name} is empty")
    odd = sorted(set(letters) - set(LETTERS))
    if odd:
        raise ValueError(f"{name} has symbols outside a-z and space: {odd}; pass it through to_letters() first")
    return letters


def guess_counts(sentence: str, guesses: Sequence[str]) -> np.ndarray:
    """The number of guesses each symbol of ``sentence`` took, from a record of the guesses.

    ``guesses[i]`` holds the symbols guessed for symbol i, in order, the right one last
    (``"_"`` may stand for the space): ``"eat"`` means e, then a, then t, which was right,
    so 3 guesses. A repeated guess, a wrong last guess or a guess after the right one is
    refused, so that a scripted game is a possible game.

    Introduced in notebooks/01_shannon_game.ipynb, section "Shannon's letter game".

    >>> guess_counts("ab", ["ea", "b"]).tolist()
    [2, 1]
    """
    _check_letters(sentence, "sentence")
    check_tokens(guesses, "guesses")
    if len(guesses) != len(sentence):
        raise ValueError(f"guesses has {len(guesses)} entries for a sentence of {len(sentence)} symbols")
    counts = np.empty(len(sentence), dtype=np.int64)
    for i, (truth, tried) in enumerate(zip(sentence, guesses)):
        tried = tried.replace("_", " ")
        shown = repr(truth if truth != " " else "_")
        if not tried or tried[-1] != truth:
            raise ValueError(f"guesses[{i}] = {tried!r} must end with the right symbol {shown}")
        if len(set(tried)) != len(tried):
            raise ValueError(f"guesses[{i}] = {tried!r} guesses a symbol twice")
        _check_letters(tried, f"guesses[{i}]")
        counts[i] = len(tried)
    return counts


def guess_frequencies(counts: ArrayLike, n_symbols: int = len(LETTERS)) -> np.ndarray:
    """q_1 .. q_n: the fraction of symbols that took exactly i guesses (index 0 is q_1).

    >>> guess_frequencies([1, 1, 2, 1], n_symbols=3).tolist()
    [0.75, 0.25, 0.0]
    """
    n_symbols = check_int(n_symbols, "n_symbols")
    try:
        counts = np.asarray(counts)
    except (TypeError, ValueError):
        raise TypeError("counts must be a list of integers (numbers of guesses)") from None
    if counts.ndim != 1 or counts.size == 0:
        raise ValueError(f"counts must be a non-empty list of numbers of guesses, got shape {counts.shape}")
    if not np.issubdtype(counts.dtype, np.number) or (counts != np.round(counts)).any():
        raise TypeError("counts must hold whole numbers of guesses")
    if counts.min() < 1 or counts.max() > n_symbols:
        raise ValueError(f"counts must be between 1 and {n_symbols} guesses, got {counts.min()} to {counts.max()}")
    return np.bincount(counts.astype(np.int64), minlength=n_symbols + 1)[1:] / counts.size


def shannon_bounds(frequencies: ArrayLike) -> tuple[float, float]:
    """Shannon's (1951) lower and upper bounds, in bits per symbol, from guess-count frequencies.

        lower = Σ_i i (q_i - q_{i+1}) log2 i   (q beyond the last given is 0)
        upper = -Σ_i q_i log2 q_i

    ``frequencies[i - 1]`` is q_i, the fraction of symbols guessed at the i-th try; they sum to 1
    (counts are refused: divide them by their total, or use :func:`guess_frequencies`). Shannon's
    proof assumes an ideal player, whose q_i never increase; for other q (a few symbols of a
    game) the numbers are still computed, but the lower one can exceed the upper.

    Introduced in notebooks/01_shannon_game.ipynb, section "Shannon's letter game".

    >>> shannon_bounds([1.0])            # always right at once: 0 bits either way
    (0.0, 0.0)
    >>> [round(x, 4) for x in shannon_bounds([0.5, 0.5])]
    [1.0, 1.0]
    >>> shannon_bounds([3, 1])
    Traceback (most recent call last):
    ...
    ValueError: frequencies: probabilities sum to 4, expected 1: these look like counts; divide them by their total (4)
    """
    try:
        q = check_distribution(frequencies, "frequencies")
    except ValueError:
        total = _counts_total(frequencies)
        if total is None:
            raise
        raise ValueError(f"frequencies: probabilities sum to {total:g}, expected 1: these look like counts; "
                         f"divide them by their total ({total:g})") from None
    i = np.arange(1, q.size + 1)
    lower = float(np.sum(i * (q - np.r_[q[1:], 0.0]) * np.log2(i)))
    nonzero = q[q > 0]
    upper = float(-(nonzero * np.log2(nonzero)).sum())
    return lower + 0.0, upper + 0.0


def _counts_total(values: object) -> float | None:
    """The total of ``values`` if they look like counts (whole numbers >= 0 summing to more than 1), else None."""
    try:
        counts = check_weights(values, "frequencies")
    except (TypeError, ValueError):
        return None
    total = float(counts.sum())
    return total if total > 1 and (counts == np.round(counts)).all() else None


# --- a model plays the letter game -----------------------------------------------------------------


def letter_vocabulary() -> Vocabulary:
    """A vocabulary of the 27 symbols in :data:`LETTERS` order (a-z, space), for letter models.

    >>> letter_vocabulary().words[:3], len(letter_vocabulary().words)
    (('a', 'b', 'c'), 27)
    """
    return Vocabulary(list(LETTERS))


def fit_letter_model(train_letters: str, order: int) -> KneserNey:
    """A character n-gram model of the 27 symbols: Kneser-Ney of ``order``, fitted on one long
    stream ``train_letters`` (no sentence markers: the course's convention, so its outcomes are
    exactly the 27 symbols, and the first letters of a text are scored with shorter contexts).

    >>> model = fit_letter_model("the cat sat on the mat " * 20, order=2)
    >>> len(model.outcomes), model.outcomes[-1]
    (27, ' ')
    """
    _check_letters(train_letters, "train_letters")
    return KneserNey(order, convention="course").fit([list(train_letters)], vocab=letter_vocabulary())


@dataclass(frozen=True)
class LetterRun:
    """A model's letter game on a text: per symbol its guess count (``ranks``) and surprisal
    (``bits``); over the text the guess-count ``frequencies`` q_i, Shannon's ``lower`` and ``upper``
    bounds from them, and the model's ``cross_entropy`` (mean bits per symbol)."""

    order: int
    ranks: np.ndarray
    bits: np.ndarray
    frequencies: np.ndarray
    lower: float
    upper: float
    cross_entropy: float


def letter_game(model: LanguageModel, letters: str) -> LetterRun:
    """``model`` plays Shannon's letter game on ``letters``: its guesses are its 27 symbols in order
    of probability (ties in a-z, space order), so its guess count for a symbol is the rank of the
    true symbol. Each symbol is predicted from the ``order - 1`` symbols before it in ``letters``
    (fewer at the start). One evaluation of the model for all positions and symbols at once.

    Introduced in notebooks/01_shannon_game.ipynb, section "Shannon's letter game".

    >>> model = fit_letter_model("ab " * 50, order=2)
    >>> letter_game(model, "ab ab").ranks.tolist()     # always the symbol it has seen next
    [1, 1, 1, 1, 1]
    >>> letter_game(model, "ba b").ranks.tolist()      # never seen b a, a space, space b
    [2, 2, 3, 2]
    """
    check_language_model(model)
    if model.vocab.words != tuple(LETTERS) or model.outcome_ids.size != len(LETTERS):
        raise ValueError("model must predict exactly the 27 symbols a-z and space: fit it with fit_letter_model")
    _check_letters(letters)
    ids = model.vocab.encode(list(letters)).astype(np.int64)
    n, order, n_symbols = ids.size, model.context_length + 1, len(LETTERS)
    contexts = np.full((n, order), BOS_ID, dtype=np.int64)
    for back in range(1, order):
        contexts[back:, order - 1 - back] = ids[:-back]
    context_len = np.minimum(np.arange(n), order - 1)
    grams = np.repeat(contexts, n_symbols, axis=0)
    grams[:, -1] = np.tile(model.outcome_ids, n)
    probs = check_model_probs(model, model.id_probs(grams, np.repeat(context_len, n_symbols))).reshape(n, n_symbols)
    truth = np.searchsorted(model.outcome_ids, ids)
    p_true = probs[np.arange(n), truth]
    earlier = np.arange(n_symbols)[None, :] < truth[:, None]
    ranks = 1 + (probs > p_true[:, None]).sum(axis=1) + ((probs == p_true[:, None]) & earlier).sum(axis=1)
    with np.errstate(divide="ignore"):
        bits = -np.log2(p_true)
    frequencies = guess_frequencies(ranks, n_symbols)
    lower, upper = shannon_bounds(frequencies)
    return LetterRun(order, ranks, bits + 0.0, frequencies, lower, upper, float(bits.mean()) + 0.0)


def log2_symbols() -> float:
    """log2 27 = 4.7549 bits: the cost of a symbol when all 27 are equally likely (Shannon's F_0).

    >>> round(log2_symbols(), 4)
    4.7549
    """
    return math.log2(len(LETTERS))
