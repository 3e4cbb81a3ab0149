"""Counting n-grams in numpy: integer keys, count tables, the words that follow a context.

The machinery under every model of :mod:`lmcore.ngram`; a chapter never needs it directly
(models answer ``model.count(word, context)``, ``model.continuations(context)`` and
``model.token_counts(sentences)`` in tokens). Sentences are padded with ``<s>``/``</s>`` as
every model frames them (:func:`lmcore.lm.padded_stream`).

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

import numpy as np
from numpy.typing import ArrayLike

from lmcore.checks import check_int
from lmcore.lm import padded_stream

# What other packages use; the rest (NgramIndex, lookup, take, ...) serves this package's models.
__all__ = ["NgramCounts", "NgramTable", "TokenCounts", "check_order"]

INT64_MAX = np.iinfo(np.int64).max
INT32_TOKENS = 2**31  # a padded stream this long or longer counts in int64: a count or position may pass int32


_CHUNK = 1 << 20  # elements per step where a loop keeps the temporaries small


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
        stream, depth = padded_stream(ids, lengths, n_start, n_end, cap=max(order, n_start))  # as far as asked
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

    def continuations(self, contexts: ArrayLike) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Which words followed each context in training, with what counts: for M contexts of j ids
        each (an (M, j) array, j below the number of orders), every pair with c(context, w) > 0 as
        ``(owner, ids, counts)``: ``owner[r]`` is the row of ``contexts``, ``ids[r]`` the word w and
        ``counts[r]`` = c(context, w). One context's words are together, in id order; a context never
        seen as a history has none. Vectorized: one pair of binary searches per context.

        >>> counts = NgramCounts.from_sentences(np.array([5, 6, 5, 5]), np.array([4]), 2, 1, 1, 7)
        >>> [a.tolist() for a in counts.continuations([[5], [6], [4]])]   # after 5: 5, 6, </s>=2; after 6: 5
        [[0, 0, 0, 1], [2, 5, 6, 5], [1, 1, 1, 1]]
        """
        contexts = np.asarray(contexts, dtype=np.int64)
        if contexts.ndim != 2 or not 0 <= contexts.shape[1] < len(self.tables):
            raise ValueError(f"contexts must be an (M, j) array of ids, j from 0 to {len(self.tables) - 1}, "
                             f"got shape {contexts.shape}")
        j, base = contexts.shape[1], self.base
        table = self.tables[j]
        nodes = self.index.node_ids(contexts, j)
        first = np.searchsorted(table.keys, nodes * base)
        size = np.where(nodes >= 0, np.searchsorted(table.keys, (nodes + 1) * base) - first, 0)
        rows = np.repeat(first - np.cumsum(size) + size, size) + np.arange(int(size.sum()))
        return np.repeat(np.arange(contexts.shape[0]), size), table.keys[rows] % base, table.counts[rows]

    def count_of_counts(self, order: int, largest: int = 4) -> np.ndarray:
        """``n[r]`` = number of distinct n-grams of ``order`` seen exactly r times, r = 0..largest."""
        return count_of_counts(self.tables[order - 1].counts, largest)


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


def count_of_counts(counts: np.ndarray, largest: int = 4) -> np.ndarray:
    """``n[r]`` = how many of ``counts`` (ints >= 1) are exactly r, r = 0..largest (n[0] = 0: none is).

    >>> count_of_counts(np.array([1, 3, 1, 7]), 3).tolist()
    [0, 2, 0, 1]
    """
    return np.bincount(counts[counts <= largest], minlength=largest + 1)


def check_order(order: object) -> int:
    """``order`` as an int >= 1 (not a bool), by :func:`lmcore.checks.check_int`."""
    return check_int(order, "order")
