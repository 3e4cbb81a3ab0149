"""Counting n-grams in numpy: framing sentences with ``<s>``/``</s>``, integer keys, count tables.

The machinery under every model of :mod:`lmcore.ngram`; a chapter never needs it directly
(models answer ``model.count(history, word)``, ``model.continuations(history)`` and
``model.token_counts(sentences)`` in tokens).

Every n-gram of ids ``(w_1, ..., w_k)`` is stored as one int64 key, the ids read as digits
in base |V| (``len(vocab)``): ``key = Σ_i w_i |V|^(k-i)``. So the key of a history is
``key // |V|`` and the key of a suffix is ``key % |V|^(k-1)``. For each order k,
:class:`NgramTable` keeps the sorted unique keys with their counts c(h, w) (``np.unique``)
and, separately, the history counts c(h) = Σ_w c(h, w): how often h occurs *as a history*,
which differs from its unigram count at the ends of sentences. Looking keys up is
``np.searchsorted`` (:func:`lookup`): no Python loop per token. Keys need |V| ** n < 2 ** 63:
order 4 allows 55,108 ids (the Chinese corpus's training words are 49,741), order 5 only 6,208;
models refuse more, by name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain

import numpy as np

from lmcore.vocab import BOS_ID, EOS_ID

__all__ = [
    "INT64_MAX", "FramedTokens", "NgramCounts", "NgramTable", "TokenCounts",
    "check_key_range", "check_order", "flatten_sentences", "frame_sentences", "lookup", "ngram_keys",
]

INT64_MAX = np.iinfo(np.int64).max


@dataclass(frozen=True)
class FramedTokens:
    """The predicted tokens of a set of sentences, one row each (:func:`frame_sentences`).

    ``grams[t, -1]`` is the predicted id and ``grams[t, -1 - j]`` the id j tokens
    before it; only the last ``context_len[t]`` context columns are real.
    """

    grams: np.ndarray
    context_len: np.ndarray
    sentence_index: np.ndarray
    position: np.ndarray  # index in the unpadded sentence; len(sentence) + j for the j-th </s>
    is_eos: np.ndarray


def frame_sentences(ids: np.ndarray, lengths: np.ndarray, order: int, n_start: int, n_end: int) -> FramedTokens:
    """Pad each sentence with ``n_start`` ``<s>`` and ``n_end`` ``</s>`` and list every predicted
    token with the ``order - 1`` ids before it (vectorized).

    ``ids`` holds all sentences' ids in a row, split by ``lengths``.

    >>> framed = frame_sentences(np.array([5, 6]), np.array([2]), order=2, n_start=1, n_end=1)
    >>> framed.grams.tolist(), framed.context_len.tolist()   # <s>=1 a=5, a b=6, b </s>=2
    ([[1, 5], [5, 6], [6, 2]], [1, 1, 1])
    """
    padded = lengths + n_start + n_end
    offsets = np.cumsum(padded) - padded
    sentence_of = np.repeat(np.arange(lengths.size), padded)
    position = np.arange(int(padded.sum())) - offsets[sentence_of] - n_start  # -n_start .. len + n_end - 1
    length_of = lengths[sentence_of]
    stream = np.full(position.size, BOS_ID, dtype=np.int64)
    stream[(position >= 0) & (position < length_of)] = ids
    stream[position >= length_of] = EOS_ID
    rows = np.flatnonzero(position >= 0)
    grams = np.empty((rows.size, order), dtype=np.int64)
    for back in range(order):
        # reads across sentence starts are harmless: context_len masks them
        grams[:, order - 1 - back] = stream[np.maximum(rows - back, 0)]
    return FramedTokens(
        grams=grams,
        context_len=np.minimum(position[rows] + n_start, order - 1),
        sentence_index=sentence_of[rows],
        position=position[rows],
        is_eos=position[rows] >= length_of[rows],
    )


def ngram_keys(grams: np.ndarray, k: int, base: int) -> np.ndarray:
    """Key of the k-gram in the last k columns of each row of ids: the ids read as digits in
    base ``base`` (Horner's rule), ``Σ_i w_i base^(k-i)``.

    >>> ngram_keys(np.array([[1, 5, 6]]), 2, base=10).tolist()   # (5, 6) -> 5 * 10 + 6
    [56]
    """
    keys = np.zeros(grams.shape[0], dtype=np.int64)
    for column in range(grams.shape[1] - k, grams.shape[1]):
        keys = keys * base + grams[:, column]
    return keys


def lookup(sorted_keys: np.ndarray, values: np.ndarray, query: np.ndarray, default=0) -> np.ndarray:
    """``values`` of the ``query`` keys in ``sorted_keys`` (sorted, distinct), ``default`` for keys not there.

    >>> lookup(np.array([3, 7]), np.array([10, 20]), np.array([7, 5, 3])).tolist()
    [20, 0, 10]
    """
    if sorted_keys.size == 0:
        return np.full(query.shape, default, dtype=values.dtype)
    # sorted queries walk the table in order, which is several times faster than random probes
    by_key = np.argsort(query)
    ordered = query[by_key]
    index = np.minimum(np.searchsorted(sorted_keys, ordered), sorted_keys.size - 1)
    found = np.empty(query.shape, dtype=values.dtype)
    found[by_key] = np.where(sorted_keys[index] == ordered, values[index], default)
    return found


@dataclass(frozen=True)
class NgramTable:
    """Counts of one order k.

    ``keys``/``counts``: each seen k-gram (h, w) and c(h, w), sorted by key.
    ``history_keys``/``history_counts``/``history_types``: each history h with
    c(h) = Σ_w c(h, w) and N1+(h •), the number of distinct words seen after h
    (Witten-Bell and Kneser-Ney need it). For k = 1 the only history is the empty
    one, key 0, and c() is the number of predicted training tokens.
    """

    order: int
    keys: np.ndarray
    counts: np.ndarray
    history_keys: np.ndarray
    history_counts: np.ndarray
    history_types: np.ndarray

    @classmethod
    def from_keys(cls, order: int, keys: np.ndarray, base: int) -> NgramTable:
        keys, counts = np.unique(keys, return_counts=True)
        counts = counts.astype(np.int64)
        histories = keys // base  # non-decreasing, since keys are sorted
        starts = np.flatnonzero(np.r_[True, histories[1:] != histories[:-1]]) if keys.size else np.zeros(0, np.int64)
        return cls(
            order=order,
            keys=keys,
            counts=counts,
            history_keys=histories[starts],
            history_counts=np.add.reduceat(counts, starts) if keys.size else counts,
            history_types=np.diff(np.r_[starts, keys.size]).astype(np.int64),
        )

    def count(self, keys: np.ndarray) -> np.ndarray:
        """c(h, w) for each k-gram key (0 if unseen)."""
        return lookup(self.keys, self.counts, keys)

    def history_count(self, history_keys: np.ndarray) -> np.ndarray:
        """c(h) for each history key (0 if h never occurred as a history)."""
        return lookup(self.history_keys, self.history_counts, history_keys)

    def history_type_count(self, history_keys: np.ndarray) -> np.ndarray:
        """N1+(h •) for each history key: how many different words followed h (0 if none)."""
        return lookup(self.history_keys, self.history_types, history_keys)


@dataclass(frozen=True)
class NgramCounts:
    """Counts of orders 1..n in base |V| = ``base``; ``tables[k - 1]`` holds order k."""

    base: int
    tables: tuple[NgramTable, ...]

    @classmethod
    def from_framed(cls, targets: FramedTokens, order: int, base: int) -> NgramCounts:
        tables = []
        for k in range(1, order + 1):
            has_history = targets.context_len >= k - 1
            grams = targets.grams if has_history.all() else targets.grams[has_history]  # skips a copy when padded
            tables.append(NgramTable.from_keys(k, ngram_keys(grams, k, base), base))
        return cls(base, tuple(tables))

    def ngram_ids(self, order: int) -> np.ndarray:
        """Every distinct n-gram of ``order`` seen in training, as an (M, order) array of ids in key order.

        ``counts.tables[order - 1].counts`` holds their counts, row for row.
        """
        return self.decode(self.tables[order - 1].keys, order)

    def decode(self, keys: np.ndarray, order: int) -> np.ndarray:
        """Ids of each k-gram key as an (M, order) array: the inverse of the key encoding."""
        ids = np.empty((len(keys), order), dtype=np.int64)
        rest = np.asarray(keys, dtype=np.int64)
        for column in range(order - 1, -1, -1):
            rest, ids[:, column] = np.divmod(rest, self.base)
        return ids

    def continuation_counts(self, order: int) -> tuple[np.ndarray, np.ndarray]:
        """``(keys of (order-1)-grams v, N1+(• v))``: how many distinct words precede v.

        Kneser-Ney's lower-order counts; ``order`` >= 2.
        """
        suffixes = self.tables[order - 1].keys % self.base ** (order - 1)
        return np.unique(suffixes, return_counts=True)

    def count_of_counts(self, order: int, largest: int = 4) -> np.ndarray:
        """``n[r]`` = number of distinct n-grams of ``order`` seen exactly r times, r = 0..largest."""
        return np.bincount(np.minimum(self.tables[order - 1].counts, largest + 1), minlength=largest + 2)[: largest + 1]


@dataclass(frozen=True)
class TokenCounts:
    """Training counts behind every predicted token of a test set (:meth:`NgramModel.token_counts`).

    Row t is the t-th predicted token (as in :meth:`NgramModel.token_logprobs`) with its
    history h of k - 1 tokens: ``ngram_counts[t]`` = c(h, w), how often the pair was seen in
    training; ``history_counts[t]`` = c(h), how often h was seen as a history;
    ``history_types[t]`` = N1+(h •), how many different words were seen after h.
    """

    order: int
    ngram_counts: np.ndarray
    history_counts: np.ndarray
    history_types: np.ndarray


def flatten_sentences(sentences, name: str) -> tuple[list, np.ndarray]:
    """All tokens of ``sentences`` (checked: a list of token lists) in one list, and the length of
    each sentence; errors name the argument ``name``.

    One list lets the vocabulary check and encode every token in a single call,
    several times faster than one call per sentence.
    """
    if isinstance(sentences, (str, bytes)) or not isinstance(sentences, Sequence):
        raise TypeError(f"{name} must be a list of token lists, got {type(sentences).__name__}")
    if len(sentences) == 0:
        raise ValueError(f"{name} is empty")
    for sentence in sentences:
        if type(sentence) not in (list, tuple) and (isinstance(sentence, str) or not isinstance(sentence, Sequence)):
            kind = type(sentence).__name__
            raise TypeError(f"{name} must be a list of token lists (split each sentence into tokens), got a {kind}")
    lengths = np.fromiter(map(len, sentences), dtype=np.int64, count=len(sentences))
    return list(chain.from_iterable(sentences)), lengths


def check_key_range(n_ids: int, order: int) -> None:
    """Raise unless n-grams of ``order`` over ``n_ids`` ids fit int64 keys (``n_ids ** order < 2 ** 63``)."""
    if n_ids**order > INT64_MAX:
        most = int(INT64_MAX ** (1 / order))
        while most**order > INT64_MAX:  # the float root may be one off
            most -= 1
        raise ValueError(
            f"order {order} with {n_ids} vocabulary ids needs n-gram keys up to {n_ids}**{order}, "
            f"beyond int64 (order {order} allows {most:,} ids): lower the order, raise min_count, "
            "or build the vocabulary from the training part only"
        )


def check_order(order) -> int:
    """``order`` as an int, checked: an integer >= 1 (a bool is refused)."""
    if isinstance(order, bool) or not isinstance(order, (int, np.integer)):
        raise TypeError(f"order must be an integer, got {type(order).__name__}")
    if order < 1:
        raise ValueError(f"order must be >= 1, got {order}")
    return int(order)
