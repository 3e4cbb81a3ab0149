"""Counting n-grams in numpy: framing sentences with ``<s>``/``</s>``, integer keys, count tables.

The machinery under every model of :mod:`lmcore.ngram`; a chapter never needs it directly
(models answer ``model.count(history, word)``, ``model.continuations(history)`` and
``model.token_counts(sentences)`` in tokens).

Every n-gram is stored as one int64 key, built as a trie numbers its nodes
(:class:`NgramIndex`): a 1-gram's key is its id; every distinct j-gram the training text
holds gets a number, its rank among them; and the key of a k-gram ``(w_1, ..., w_k)`` is
``node(w_1 .. w_{k-1}) * |V| + w_k``. So the key of its history is ``key // |V|``, the
n-grams after one history are the keys in ``[h |V|, (h + 1) |V|)``, sorted keys list the
n-grams in the order of their ids, and a key stays below (number of distinct
(k-1)-grams) x |V|: any order fits int64 for any corpus of fewer than about 10**14 distinct
n-grams. For each order k, :class:`NgramTable` keeps the sorted unique keys with their
counts c(h, w) and, over the history numbers ``key // |V|``, the history counts
c(h) = Σ_w c(h, w): how often h occurs *as a history*, which differs from its unigram count
at the ends of sentences. Looking keys up is ``np.searchsorted`` (:func:`lookup`), looking
histories up is indexing (:func:`take`): no Python loop per token.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import chain

import numpy as np
from numpy.typing import ArrayLike

from lmcore.checks import check_int, check_sentences
from lmcore.text import BOS_ID, EOS_ID, Vocabulary

# What other packages use; the rest (NgramIndex, lookup, take, ...) serves this package's models.
__all__ = ["FramedTokens", "NgramCounts", "NgramTable", "TokenCounts", "check_order", "flatten_sentences",
           "frame_sentences"]

INT64_MAX = np.iinfo(np.int64).max
INT32_TOKENS = 2**31  # a padded stream this long or longer counts in int64: a count or position may pass int32


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


_CHUNK = 1 << 20  # elements per step where a loop keeps the temporaries small


def _padded_stream(ids: np.ndarray, lengths: np.ndarray, n_start: int, n_end: int,
                   cap: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """All sentences in one row of ids (int32), each after ``n_start`` ``<s>`` and before ``n_end``
    ``</s>``, and the depth of each token: how many tokens of its sentence come before it (int32;
    with ``cap``, at most ``cap``, in the smallest unsigned type). A token is predicted when its
    depth is ``n_start`` or more, and a k-gram ends there from depth k - 1.

    >>> [a.tolist() for a in _padded_stream(np.array([5, 6]), np.array([2]), 1, 1)]   # <s>=1 a=5 b=6 </s>=2
    [[1, 5, 6, 2], [0, 1, 2, 3]]
    >>> _padded_stream(np.array([5, 6]), np.array([2]), 1, 1, cap=2)[1].tolist()
    [0, 1, 2, 2]
    """
    padded = lengths + n_start + n_end
    starts = np.cumsum(padded) - padded
    total = int(padded.sum())
    if cap is None:
        depth = np.ones(total, dtype=np.int32)
        if depth.size:  # depth counts up from 0 in each sentence: +1 everywhere, reset at each start
            shown = padded > 0  # a sentence padded to nothing has no start
            depth[0] = 0
            depth[starts[shown][1:]] = 1 - padded[shown][:-1]
            np.cumsum(depth, out=depth)
    else:  # the first cap tokens of each sentence, one step each: no array over the tokens but this
        depth = np.full(total, cap, dtype=np.min_scalar_type(cap))
        for j in range(cap):
            depth[starts[padded > j] + j] = j
    stream = np.full(total, BOS_ID, dtype=np.int32)  # the <s> are in place
    real = np.ones(total, dtype=bool)  # a mask, not an array of positions: a byte per token
    for j in range(n_start):
        real[starts + j] = False
    ends = starts + n_start + lengths
    for j in range(n_end):
        real[ends + j] = False
    stream[real] = ids
    del real
    for j in range(n_end):
        stream[ends + j] = EOS_ID
    return stream, depth


def _positions(depth: np.ndarray, least: int, dtype) -> np.ndarray:
    """The positions where ``depth`` is ``least`` or more, ascending, as ``dtype``, a piece at a time
    (no int64 array of them all): the ends of the k-grams for ``least`` = k - 1.

    >>> _positions(np.array([0, 1, 2, 0, 1], dtype=np.uint8), 1, np.int32).tolist()
    [1, 2, 4]
    """
    out = np.empty(np.count_nonzero(depth >= least), dtype=dtype)
    kept = 0
    for start in range(0, depth.size, _CHUNK):
        found = np.flatnonzero(depth[start : start + _CHUNK] >= least)
        out[kept : kept + found.size] = found
        out[kept : kept + found.size] += start
        kept += found.size
    return out


def _sorted_keys(ends: np.ndarray, node: np.ndarray, stream: np.ndarray, base: int) -> tuple[np.ndarray, np.ndarray]:
    """The keys ``node[t - 1] * |V| + stream[t]`` of the k-grams ending at the tokens t in ``ends``
    (int32, ascending; ``node`` numbers the (k-1)-gram ending at each token), sorted, and t for each.

    Where a key and a token's position fit together in 63 bits, they are packed into one int64
    and sorted in place: no int64 index, and ``ends`` becomes the positions. The packed values are
    distinct, so any sort gives the same order, and numpy's default one, vectorized (x86-simd-sort
    on AVX2 and AVX-512, Highway's on ARM), sorts them about 9 times faster than the stable one
    (timsort) here. ``ends`` ascending makes the gathers below walk the arrays in order.
    """
    keys = np.empty(ends.size, dtype=np.int64)
    for start in range(0, ends.size, _CHUNK):
        at, chunk = ends[start : start + _CHUNK], keys[start : start + _CHUNK]
        chunk[:] = node[at - 1]
        chunk *= base
        chunk += stream[at]
    bits = int(stream.size - 1).bit_length()  # of any position; keys exist only where 2 tokens or more do
    if keys.size == 0 or int(keys.max()).bit_length() + bits > 63:
        order = np.argsort(keys, kind="stable")
        return keys[order], ends[order]
    keys <<= bits
    keys |= ends
    keys.sort()
    for start in range(0, keys.size, _CHUNK):  # ends becomes the positions in key order
        ends[start : start + _CHUNK] = keys[start : start + _CHUNK] & ((1 << bits) - 1)
    keys >>= bits
    return keys, ends


def _number_tokens(first: np.ndarray, positions: np.ndarray, out: np.ndarray) -> np.ndarray:
    """``out`` with the rank of each distinct key at the token where it ends (``positions``, in key
    order; ``first`` marks each key's first row); every other token keeps what it held, as no
    k-gram's number is ever read where none ends (the next order reads it one token before a
    (k+1)-gram's end, which is a k-gram's end)."""
    rank = -1
    for start in range(0, first.size, _CHUNK):
        ranks = np.cumsum(first[start : start + _CHUNK], dtype=out.dtype)
        ranks += rank
        out[positions[start : start + _CHUNK]] = ranks
        rank = ranks[-1]
    return out


def frame_sentences(ids: np.ndarray, lengths: np.ndarray, order: int, n_start: int, n_end: int) -> FramedTokens:
    """Pad each sentence with ``n_start`` ``<s>`` and ``n_end`` ``</s>`` and list every predicted
    token with the ``order - 1`` ids before it (vectorized).

    ``ids`` holds all sentences' ids in a row, split by ``lengths``.

    >>> framed = frame_sentences(np.array([5, 6]), np.array([2]), order=2, n_start=1, n_end=1)
    >>> framed.grams.tolist(), framed.context_len.tolist()   # <s>=1 a=5, a b=6, b </s>=2
    ([[1, 5], [5, 6], [6, 2]], [1, 1, 1])
    """
    ids, lengths = _ids_and_lengths(ids, lengths)
    order = check_int(order, "order")
    n_start, n_end = check_int(n_start, "n_start", minimum=0), check_int(n_end, "n_end", minimum=0)
    stream, depth = _padded_stream(ids, lengths, n_start, n_end)
    rows = np.flatnonzero(depth >= n_start)
    grams = np.empty((rows.size, order), dtype=np.int64)
    for back in range(order):
        # reads across sentence starts are harmless: context_len masks them
        grams[:, order - 1 - back] = stream[np.maximum(rows - back, 0)]
    sentence_index = np.repeat(np.arange(lengths.size), lengths + n_end)
    position = depth[rows] - n_start
    return FramedTokens(grams, np.minimum(depth[rows], order - 1), sentence_index, position,
                        is_eos=position >= lengths[sentence_index])


@dataclass(frozen=True)
class NgramIndex:
    """The numbers of a trie's nodes, as keys for n-grams of any order (see the module's docstring).

    ``nodes[j - 2]`` holds the sorted keys of the distinct j-grams the index knows, j = 2, 3, ...;
    a j-gram's number is its rank there (a 1-gram's number is its id).

    >>> index = NgramIndex.from_rows([np.array([[5], [6]]), np.array([[5, 6], [6, 5]]), np.array([[5, 6, 5]])], 10)
    >>> index.keys(np.array([[5, 6, 5], [6, 6, 6]]), 3).tolist()   # (5 6) is node 0, then 5; (6 6) is unknown
    [5, -1]
    >>> index.decode(np.array([5]), 3).tolist()
    [[5, 6, 5]]
    """

    base: int
    nodes: tuple[np.ndarray, ...]

    def __post_init__(self):
        for j, nodes in enumerate(self.nodes, start=2):
            if nodes.size * self.base > INT64_MAX:
                raise ValueError(f"{nodes.size:,} distinct {j}-grams over {self.base:,} ids need keys beyond int64")

    def node_ids(self, grams: np.ndarray, j: int) -> np.ndarray:
        """Number of the j-gram in the last j columns of each row of ids (-1 if the index lacks it)."""
        if j == 0:
            return np.zeros(grams.shape[0], dtype=np.int64)
        node = grams[:, -j].astype(np.int64)
        for i in range(2, j + 1):
            nodes = self.nodes[i - 2]
            if nodes.size == 0:
                return np.full(grams.shape[0], -1, dtype=np.int64)
            key = node * self.base + grams[:, i - j - 1]
            at = np.minimum(np.searchsorted(nodes, key), nodes.size - 1)
            node = np.where((node >= 0) & (nodes[at] == key), at, -1)
        return node

    def keys(self, grams: np.ndarray, k: int) -> np.ndarray:
        """Key of the k-gram in the last k columns of each row of ids (-1 if its history is unknown,
        which no table holds)."""
        history = self.node_ids(grams[:, :-1], k - 1)
        return np.where(history >= 0, history * self.base + grams[:, -1], -1)

    def decode(self, keys: np.ndarray, k: int) -> np.ndarray:
        """Ids of each k-gram key as an (M, k) array: the inverse of :meth:`keys`."""
        ids = np.empty((len(keys), k), dtype=np.int64)
        history, ids[:, -1] = np.divmod(np.asarray(keys, dtype=np.int64), self.base)
        for column in range(k - 2, 0, -1):
            history, ids[:, column] = np.divmod(self.nodes[column - 1][history], self.base)
        if k > 1:
            ids[:, 0] = history
        return ids

    @classmethod
    def from_rows(cls, rows: Sequence[ArrayLike], base: int) -> NgramIndex:
        """The index of the n-grams ``rows[k - 1]`` ((M_k, k) ids, k = 1..n) and of all their prefixes."""
        rows = [np.asarray(r, dtype=np.int64).reshape(-1, k) for k, r in enumerate(rows, start=1)]
        prefix = [r[:, 0] for r in rows]  # the number of each row's prefix of length j, j = 1 first
        nodes = []
        for j in range(2, len(rows)):
            keys = np.concatenate([prefix[m] * base + rows[m][:, j - 1] for m in range(j - 1, len(rows))])
            unique, inverse = np.unique(keys, return_inverse=True)
            nodes.append(unique)
            ends = np.cumsum([rows[m].shape[0] for m in range(j - 1, len(rows))])
            for m, part in zip(range(j - 1, len(rows)), np.split(inverse.ravel(), ends[:-1])):
                prefix[m] = part
        return cls(base, tuple(nodes))


def lookup(sorted_keys: np.ndarray, values: np.ndarray, query: np.ndarray, default: float = 0) -> np.ndarray:
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


def take(values: np.ndarray, numbers: np.ndarray, default: float = 0) -> np.ndarray:
    """``values[numbers]``, ``default`` where a number is -1 (unknown): for arrays over history numbers.

    >>> take(np.array([10, 20, 30]), np.array([2, -1, 0])).tolist()
    [30, 0, 10]
    """
    if values.size == 0:
        return np.full(numbers.shape, default, dtype=values.dtype)
    return np.where(numbers >= 0, values[numbers], default)  # values[-1] is read, then replaced


@dataclass(frozen=True)
class NgramTable:
    """Counts of one order k.

    ``keys``/``counts``: each seen k-gram (h, w) and c(h, w), sorted by key (int32 counts where
    the number of tokens allows). ``suffix_rows`` (k >= 2): the row of each k-gram's suffix
    (w_2 .. w_k) in the table of order k - 1, for Kneser-Ney's continuation counts. A history h
    is numbered by its trie node, ``key // base`` (the empty history is 0), below ``n_histories``.

    ``history_counts[h]`` = c(h) = Σ_w c(h, w), how often h occurs *as a history* (not its
    unigram count at the ends of sentences), and ``history_types[h]`` = N1+(h •), the number
    of distinct words seen after h, are arrays over all history numbers (0 for a node never
    seen as a history), computed on first use: Kneser-Ney never asks for them.
    """

    order: int
    base: int
    keys: np.ndarray
    counts: np.ndarray
    n_histories: int
    suffix_rows: np.ndarray | None = None

    @property
    def histories(self) -> np.ndarray:
        """The history number of each k-gram, row for row (non-decreasing)."""
        return self.keys // self.base

    @cached_property
    def history_counts(self) -> np.ndarray:
        found = np.bincount(self.histories, weights=self.counts, minlength=self.n_histories)  # exact below 2**53
        return found.astype(self.counts.dtype)

    @cached_property
    def history_types(self) -> np.ndarray:
        return np.bincount(self.histories, minlength=self.n_histories).astype(self.counts.dtype)

    def count(self, keys: np.ndarray) -> np.ndarray:
        """c(h, w) for each k-gram key (0 if unseen)."""
        return lookup(self.keys, self.counts, keys)

    def history_count(self, histories: np.ndarray) -> np.ndarray:
        """c(h) for each history number (0 if h never occurred as a history, or is -1: unknown)."""
        return take(self.history_counts, histories)

    def history_type_count(self, histories: np.ndarray) -> np.ndarray:
        """N1+(h •) for each history number: how many different words followed h (0 if none)."""
        return take(self.history_types, histories)


@dataclass(frozen=True)
class NgramCounts:
    """Counts of orders 1..n; ``tables[k - 1]`` holds order k, keyed by ``index`` (:class:`NgramIndex`)."""

    index: NgramIndex
    tables: tuple[NgramTable, ...]

    @property
    def base(self) -> int:
        """|V|: the number of vocabulary ids."""
        return self.index.base

    @classmethod
    def from_sentences(cls, ids: np.ndarray, lengths: np.ndarray, order: int, n_start: int, n_end: int,
                       base: int, count_padding: bool = False) -> NgramCounts:
        """Count every k-gram, k = 1..order, that ends at a predicted token of the sentences ``ids``
        (all in a row, split by ``lengths``) padded with ``n_start`` ``<s>`` and ``n_end`` ``</s>``;
        with ``count_padding``, every k-gram of the padded sentences, those made of ``<s>`` alone
        too (nltk's everygrams: :class:`~lmcore.ngram.Convention`).

        A trie built level by level, one sort per order: the number of the k-gram ending at token
        t comes from the number of the (k-1)-gram ending at t - 1, and its suffix is the (k-1)-gram
        ending at t. Arrays over the tokens are int32 (ids, positions, node numbers) or bytes (depths).
        """
        stream, depth = _padded_stream(ids, lengths, n_start, n_end, cap=max(order, n_start))  # as far as asked
        count_type = np.int32 if stream.size < INT32_TOKENS else np.int64  # counts, rows and node numbers
        seen = np.bincount(stream if count_padding else stream[depth >= n_start], minlength=base)
        keys = np.flatnonzero(seen)
        tables = [NgramTable(1, base, keys, seen[keys].astype(count_type), 1)]
        row_of = np.cumsum(seen > 0, dtype=count_type) - 1  # node number -> row in the last table
        node, nodes = stream, []  # the number of the (k-1)-gram ending at each token (a 1-gram's: its id)
        padding = np.flatnonzero(depth < n_start).astype(count_type)  # the <s> tokens
        for k in range(2, order + 1):
            keys, positions = _sorted_keys(_positions(depth, k - 1, count_type), node, stream, base)  # ends, by key
            first = np.empty(keys.size, dtype=bool)
            np.not_equal(keys[1:], keys[:-1], out=first[1:])
            first[:1] = True
            unique = keys[first]
            del keys
            suffix = node[positions[first]]  # the (k-1)-gram ending where each k-gram first ends
            counts = np.diff(np.flatnonzero(first).astype(count_type), append=count_type(first.size))
            uncount = k <= n_start and not count_padding  # k-grams of <s> alone end at no predicted token
            if k < order or uncount:
                node = _number_tokens(first, positions, np.empty(stream.size, count_type) if k == 2 else node)
            if uncount:
                alone = padding[depth[padding] >= k - 1]
                counts -= np.bincount(node[alone], minlength=unique.size).astype(count_type)
            del first, positions
            seen = counts > 0
            n_histories = base if k == 2 else nodes[-1].size
            tables.append(NgramTable(k, base, unique[seen], counts[seen], n_histories, row_of[suffix[seen]]))
            if k < order:
                nodes.append(unique)
                row_of = np.cumsum(seen, dtype=count_type) - 1
            del unique, counts, seen, suffix
        return cls(NgramIndex(base, tuple(nodes)), tuple(tables))

    def keys(self, grams: np.ndarray, k: int) -> np.ndarray:
        """Key of the k-gram in the last k columns of each row of ids (-1 where none was seen)."""
        return self.index.keys(grams, k)

    def history_keys(self, grams: np.ndarray, k: int) -> np.ndarray:
        """Number, as a history of order k + 1, of the k-gram in the last k columns of each row (-1: unknown)."""
        return self.index.node_ids(grams, k)

    def ngram_ids(self, order: int) -> np.ndarray:
        """Every distinct n-gram of ``order`` seen in training, as an (M, order) array of ids in key order.

        ``counts.tables[order - 1].counts`` holds their counts, row for row.
        """
        return self.decode(self.tables[order - 1].keys, order)

    def decode(self, keys: np.ndarray, order: int) -> np.ndarray:
        """Ids of each k-gram key as an (M, order) array: the inverse of the key encoding."""
        return self.index.decode(keys, order)

    def prefix_rows(self, order: int, prefix: Sequence[int]) -> slice:
        """The rows of the table of ``order`` whose n-grams start with the ids ``prefix`` (shorter than
        ``order``), consecutive since keys list n-grams in the order of their ids.

        >>> counts = NgramCounts.from_sentences(np.array([5, 6, 5]), np.array([3]), 3, 2, 1, 7)
        >>> rows = counts.prefix_rows(3, [1, 1])   # <s> <s> 5: the only trigram after <s> <s>
        >>> counts.ngram_ids(3)[rows].tolist()
        [[1, 1, 5]]
        """
        j, base = len(prefix), self.base
        if not 1 <= j < order:
            raise ValueError(f"prefix must hold 1 to {order - 1} ids, got {len(prefix)}")
        low = int(self.index.node_ids(np.array([prefix], dtype=np.int64), j)[0])  # -1 if unknown: no rows
        high = low + 1
        for level in range(j + 1, order):  # the node numbers of the level-grams that start with prefix
            low, high = np.searchsorted(self.index.nodes[level - 2], [low * base, high * base])
        first, last = np.searchsorted(self.tables[order - 1].keys, [low * base, high * base])
        return slice(int(first), int(last))

    def count_of_counts(self, order: int, largest: int = 4) -> np.ndarray:
        """``n[r]`` = number of distinct n-grams of ``order`` seen exactly r times, r = 0..largest."""
        counts = self.tables[order - 1].counts
        return np.bincount(counts[counts <= largest], minlength=largest + 1)


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


def flatten_sentences(sentences: object, name: str) -> tuple[list, np.ndarray]:
    """All tokens of ``sentences`` (:func:`lmcore.checks.check_sentences`: a non-empty list of token
    lists of str) in one list, and the length of each sentence; errors name the argument ``name``,
    a bad token the sentence it is in. One list lets the vocabulary encode every token in a single
    call, several times faster than one call per sentence (so the tokens are checked here: the
    vocabulary sees only the one list).

    >>> flatten_sentences([["i"], ["spent", 3]], "heldout")
    Traceback (most recent call last):
    ...
    TypeError: heldout[1] must contain only str tokens, got int 3
    """
    sentences = check_sentences(sentences, name)
    lengths = np.fromiter(map(len, sentences), dtype=np.int64, count=len(sentences))
    return list(chain.from_iterable(sentences)), lengths


def _ids_and_lengths(ids: object, lengths: object) -> tuple[np.ndarray, np.ndarray]:
    """``ids`` (every sentence's ids in a row) and ``lengths`` (one per sentence, adding up to
    the number of ids) as 1-d int arrays, or an error naming the one that is not."""
    ids, lengths = np.asarray(ids), np.asarray(lengths)
    if ids.ndim != 1 or not np.issubdtype(ids.dtype, np.integer):
        raise TypeError(f"ids must be a 1-d array of integer vocabulary ids, got {ids.dtype} of shape {ids.shape}")
    if lengths.ndim != 1 or not np.issubdtype(lengths.dtype, np.integer) or (lengths < 0).any():
        raise TypeError("lengths must be a 1-d array of sentence lengths (integers >= 0)")
    if int(lengths.sum()) != ids.size:
        raise ValueError(f"lengths add up to {int(lengths.sum())}, but ids holds {ids.size} ids")
    return ids, lengths


def check_encoded(ids: object, lengths: object, vocab: Vocabulary) -> tuple[np.ndarray, np.ndarray]:
    """``ids`` (every sentence's vocabulary ids in a row) and ``lengths`` (one per sentence) as
    arrays, checked against ``vocab``: ids in range, no ``<s>``/``</s>`` inside."""
    if not isinstance(vocab, Vocabulary):
        raise TypeError(f"vocab must be an lmcore Vocabulary, got {type(vocab).__name__}")
    tokens = vocab.tokens
    ids, lengths = _ids_and_lengths(ids, lengths)
    if ids.size and (ids.min() < 0 or ids.max() >= len(tokens)):
        raise ValueError(f"ids must be vocabulary ids between 0 and {len(tokens) - 1}, got {ids.min()} .. {ids.max()}")
    markers = np.flatnonzero((ids == BOS_ID) | (ids == EOS_ID))
    if markers.size:
        raise ValueError(f"ids holds the marker {tokens[ids[markers[0]]]!r} at index {markers[0]}: "
                         "lmcore adds <s> and </s> itself (see Convention)")
    return ids, lengths.astype(np.int64)


def check_order(order: object) -> int:
    """``order`` as an int >= 1 (not a bool), by :func:`lmcore.checks.check_int`."""
    return check_int(order, "order")
