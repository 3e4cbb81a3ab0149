"""Interpolated modified Kneser-Ney, as KenLM's ``lmplz`` counts and discounts it.

Kneser-Ney asks of a word not "how often was it seen?" but "after how many different
words was it seen?": its lower orders use continuation counts N1+(• w). Introduced in
chapter 5, *Smoothing and interpolation* (notebooks/05_smoothing_interpolation.ipynb),
section "Beyond linear interpolation"; :class:`KneserNey` is exported by :mod:`lmcore.ngram`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from lmcore.checks import check_weights
from lmcore.lm import check_id_rows
from lmcore.ngram.backoff import BackoffModel
from lmcore.ngram.counted import CountedNgramModel
from lmcore.ngram.counting import NgramCounts, count_of_counts, lookup, take
from lmcore.ngram.model import Convention
from lmcore.text import BOS_ID, Vocabulary

__all__ = ["FALLBACK_DISCOUNTS", "KneserNey", "kneser_ney_discounts"]

FALLBACK_DISCOUNTS = (0.5, 1.0, 1.5)  # KenLM's --discount_fallback


def _closed_form_discounts(count_of_counts) -> np.ndarray | str:
    """``(D1, D2, D3+)`` by Chen and Goodman's closed form from t1..t4 (``count_of_counts[1:5]``),
    or, where it is undefined, why (a str)."""
    t = [int(x) for x in count_of_counts]
    for j in (1, 2, 3):
        if t[j] == 0:
            return f"no n-gram has adjusted count {j} (t{j} = 0)"
    y = t[1] / (t[1] + 2 * t[2])
    discounts = np.array([j - (j + 1) * y * t[j + 1] / t[j] for j in (1, 2, 3)])
    for j, d in enumerate(discounts, start=1):
        if not 0 < d <= j:
            return f"D{j} = {d:.4f} is outside (0, {j}]"
    return discounts


def kneser_ney_discounts(count_of_counts: ArrayLike) -> np.ndarray:
    """Modified Kneser-Ney discounts ``(D1, D2, D3+)`` from count-of-counts (Chen and Goodman, eq. 26).

        Y = t1 / (t1 + 2 t2),   D(j) = j - (j + 1) Y t(j+1) / t(j),   j = 1, 2, 3

    ``count_of_counts[j]`` = t(j), the number of n-grams seen exactly j times (index 0
    is ignored; index 4 is needed). Undefined (``ValueError``) when t1, t2 or t3 is 0
    or a D(j) falls outside (0, j], as on tiny or artificial data. t4 = 0 is allowed
    and gives D3+ = 3, as in KenLM.

    >>> kneser_ney_discounts([0, 100, 40, 20, 10]).round(4).tolist()  # Y = 100 / 180
    [0.5556, 1.1667, 1.8889]
    """
    t = check_weights(count_of_counts, "count_of_counts")  # numbers, one-dimensional, finite, non-negative
    if t.size < 5 or (t != np.round(t)).any():
        raise ValueError(f"count_of_counts must hold counts t0..t4 (>= 5 non-negative integers), got {t.tolist()}")
    discounts = _closed_form_discounts(t)
    if isinstance(discounts, str):
        raise ValueError(f"the closed-form discounts are undefined: {discounts}")
    return discounts


def _check_discounts(discounts, order: int | None, name: str) -> np.ndarray:
    """``discounts`` as an (order, 3) array of D1, D2, D3+ per order, each 0 < D(j) <= j, from 3
    numbers (every order alike) or one row per order; ``order=None``: 3 numbers only, as a (1, 3)
    array (the fallback, one row for whichever order falls back)."""
    if isinstance(discounts, (str, bytes)):
        rows = "" if order is None else " or one such row per order"
        raise TypeError(f"{name} must be 3 numbers (D1, D2, D3+){rows}, got a str")
    try:
        values = np.asarray(discounts, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must contain only numbers") from None
    if order is None:  # the fallback: one row, for whichever order falls back
        if values.shape != (3,):
            raise ValueError(f"{name} must be 3 numbers (D1, D2, D3+), used by every order that falls back; "
                             f"got shape {values.shape}")
        values = values[np.newaxis]
    elif values.shape == (3,):
        values = np.tile(values, (order, 1))
    elif values.shape != (order, 3):
        raise ValueError(f"{name} must have shape (3,) or ({order}, 3): D1, D2, D3+ per order; got {values.shape}")
    bad = np.argwhere(~((values > 0) & (values <= np.arange(1, 4))))  # also catches NaN
    if bad.size:
        k, j = bad[0]
        label = ("D1", "D2", "D3+")[j]
        where = "" if order is None else f" of order {k + 1}"
        raise ValueError(f"{name}: {label}{where} is {values[k, j]}, expected 0 < {label} <= {j + 1}")
    return values


@dataclass(frozen=True)
class _KneserNeyLevel:
    """Order k of a fitted Kneser-Ney model, over the rows of the count table of order k (its
    ``keys`` are the table's own array): u(h, w) = (a(h, w) - D(a)) / Σ_v a(h, v) and the adjusted
    count a of each k-gram, and γ(h) over all history numbers (1 for a history nothing kept
    follows). The ``dropped`` rows (n-grams starting with ``<s> <s>``) have u = 0."""

    keys: np.ndarray
    u: np.ndarray
    gamma: np.ndarray
    adjusted: np.ndarray
    dropped: slice


class KneserNey(CountedNgramModel, BackoffModel):
    """Interpolated modified Kneser-Ney (Chen and Goodman), with KenLM's (``lmplz``) rules.

    For a history h of k - 1 words and adjusted counts a (below),

        P_k(w | h) = (a(h, w) - D_k(a(h, w))) / Σ_v a(h, v)  +  γ_k(h) P_{k-1}(w | h')
        γ_k(h)     = (D_k1 N1(h •) + D_k2 N2(h •) + D_k3+ N3+(h •)) / Σ_v a(h, v)
        P_0(w)     = 1 / |V|

    where h' is h without its first word, N_j(h •) counts the words with a(h, w) = j
    (3 or more for N3+), and |V| is the number of outcomes (words, ``<unk>``, ``</s>``;
    not ``<s>``): so every outcome, ``<unk>`` and unseen words included, gets P > 0.
    A history never seen in training has γ = 1: P_k = P_{k-1}.

    Adjusted counts, as KenLM's: the highest order uses raw counts c(h, w); a lower-order
    n-gram uses its continuation count N1+(• h w), the number of distinct words seen
    before it (``<s>`` counts as one), except that an n-gram starting with ``<s>`` keeps
    its raw count (nothing can precede it). An n-gram starting with two ``<s>`` (from
    padding a sentence with order - 1 of them) is dropped, as KenLM pads with one: so
    P(w | <s> <s>) = P_2(w | <s>). Under a convention without ``<s>`` padding, an
    n-gram seen at a sentence start gets one more continuation, for the missing left word.
    The n-grams of ``<s>`` alone are never counted, whatever the convention's
    ``everygrams`` says (nltk's convention keeps its framing and |V| here, not its counts).

    Discounts D_k = (D1, D2, D3+) per order k come from the count-of-counts t_j of the
    adjusted counts by :func:`kneser_ney_discounts`. Where that is undefined (tiny data),
    the order gets ``fallback`` (KenLM's ``--discount_fallback`` values 0.5, 1, 1.5) and is
    listed in ``fallback_orders_``; ``fallback=None`` raises instead, as KenLM does by
    default. ``discounts`` given as 3 numbers (all orders) or an (order, 3) array,
    each 0 < D(j) <= j, replace the estimate. After fitting: ``discounts_`` (order x 3,
    lowest order first) and ``count_of_counts_`` (order x 5: t_0 = 0, t_1 .. t_4, t_4 counting
    4 only); :meth:`adjusted_counts` shows the a of each n-gram.

    ``plain_continuation=True`` makes the lowest order the plain continuation probability,
    undiscounted and without P_0, as textbooks write Kneser-Ney for bigrams:

        P_1(w) = a(w) / Σ_v a(v) = N1+(• w) / N1+(• •)

    Its discounts (row 0 of ``discounts_``) are then 0. A word never seen in training, and
    ``<unk>``, get probability 0 (and an ARPA file cannot hold the model); the default
    discounts P_1 too so that every outcome gets P > 0.

    Introduced in notebooks/05_smoothing_interpolation.ipynb, section "Beyond linear interpolation"; chapter 4
    builds it by name (``"kneser-ney"``) in section "Going further: add-one, Kneser-Ney and longer histories".

    >>> m = KneserNey(2, discounts=[0.5, 1.0, 1.5]).fit([["a", "b"], ["a", "c"]])
    >>> round(m.prob("b", ["a"]), 6), round(m.prob("zzz"), 6)  # 0.5/2 + 0.5 P_1(b); γ_1 / |V|
    (0.35, 0.1)

    Here P_1(b) = (1 - 0.5) / 5 + γ_1 / 5 = 0.2, with continuation counts a, b, c: 1 and
    ``</s>``: 2 (after b and after c), so γ_1 = (0.5 · 3 + 1 · 1) / 5 = 0.5, |V| = 5.
    With the plain continuation probability P_1(</s>) = 2/5 (not (2 - 1)/5 + γ_1/5 = 0.3), so
    P(</s> | a) = γ(a) P_1(</s>) = 0.5 · 0.4 (not 0.15), and ``<unk>`` gets 0:

    >>> m = KneserNey(2, discounts=[0.5, 1.0, 1.5], plain_continuation=True).fit([["a", "b"], ["a", "c"]])
    >>> round(m.prob("</s>", ["a"]), 6), m.prob("zzz"), m.discounts_[0].tolist()
    (0.2, 0.0, [0.0, 0.0, 0.0])
    """

    backs_off = True  # P(v | h) = γ(h) P(v | h') for v unseen after h: lmcore.coding codes it in levels

    def __init__(self, order: int, discounts: ArrayLike | None = None, *, fallback: ArrayLike = FALLBACK_DISCOUNTS,
                 convention: Convention | str = "standard", plain_continuation: bool = False):
        super().__init__(order, convention=convention)
        if not isinstance(plain_continuation, (bool, np.bool_)):
            raise TypeError(f"plain_continuation must be True or False, got {plain_continuation!r}")
        self.plain_continuation = bool(plain_continuation)
        self._given_discounts = None if discounts is None else _check_discounts(discounts, self.order, "discounts")
        self.fallback = None if fallback is None else tuple(_check_discounts(fallback, None, "fallback")[0].tolist())
        self.discounts_: np.ndarray | None = None
        self.count_of_counts_: np.ndarray | None = None
        self.fallback_orders_: tuple[int, ...] = ()
        self._levels: tuple[_KneserNeyLevel, ...] = ()

    def _counts_padding(self) -> bool:
        return False  # KenLM's counts under every convention: n-grams of <s> alone are padding, never counted

    def _fit_checked(self, ids: np.ndarray, lengths: np.ndarray, vocab: Vocabulary,
                     counts: NgramCounts | None = None) -> CountedNgramModel:
        """Count as :meth:`~lmcore.ngram.CountedNgramModel.fit_encoded` (or take ``counts``), then adjust
        the counts and estimate the discounts (:meth:`fit` and ``fit_text`` come here too)."""
        super()._fit_checked(ids, lengths, vocab, counts)
        ngrams, tables = self.counts, self.counts.tables
        # n-grams starting with <s> <s> exist only because of the padding (KenLM drops them); keys are
        # in id order, so they, and the n-grams starting with <s>, are consecutive rows
        dropped = [ngrams.prefix_rows(k, [BOS_ID, BOS_ID]) if k > 2 else slice(0) for k in range(1, self.order + 1)]
        adjusted = [self._adjusted(k, ngrams.prefix_rows(k, [BOS_ID]) if k > 1 else slice(0))
                    for k in range(1, self.order + 1)]
        # t_j = how many kept n-grams have adjusted count j, j = 0..4 (t_0 = 0)
        self.count_of_counts_ = np.array([count_of_counts(a) - count_of_counts(a[cut])
                                          for a, cut in zip(adjusted, dropped)])
        self._estimate_discounts(self.count_of_counts_)
        levels = zip(tables, adjusted, self.discounts_, dropped)
        # the top order first, the largest, while the others' arrays are not there yet: a lower peak
        self._levels = tuple(reversed([self._level(*level) for level in reversed(list(levels))]))
        return self

    def _adjusted(self, k: int, starts_sentence: slice) -> np.ndarray:
        """The adjusted counts a of the k-grams, row for row in their table: raw counts at the top
        order and for the rows ``starts_sentence`` (n-grams starting with ``<s>``), continuation
        counts N1+(• h w) below, counted over the suffixes of the (k+1)-grams."""
        tables = self.counts.tables
        table = tables[k - 1]
        if k == self.order:
            return table.counts
        longer = tables[k]
        n_before = np.bincount(longer.suffix_rows, minlength=table.keys.size)
        # occurrences with no word before them (no <s> padding) count as one more left word
        seen_after = np.bincount(longer.suffix_rows, weights=longer.counts, minlength=table.keys.size)
        n_before += table.counts > seen_after
        a = n_before.astype(table.counts.dtype)
        a[starts_sentence] = table.counts[starts_sentence]
        return a

    def _estimate_discounts(self, count_of_counts: np.ndarray) -> None:
        if self._given_discounts is not None:
            self.discounts_, self.fallback_orders_ = self._given_discounts.copy(), ()
            if self.plain_continuation:
                self.discounts_[0] = 0.0
            return
        rows, fallen = [], []
        for k, t in enumerate(count_of_counts, start=1):
            if k == 1 and self.plain_continuation:  # P_1 undiscounted: nothing to estimate
                rows.append(np.zeros(3))
                continue
            found = _closed_form_discounts(t)
            if isinstance(found, str):
                if self.fallback is None:
                    raise ValueError(
                        f"cannot estimate the Kneser-Ney discounts of order {k}: {found} "
                        f"(count-of-counts t1..t4 = {t[1:].tolist()}); the training data is too small: "
                        "pass discounts=(D1, D2, D3+) or fallback=(0.5, 1.0, 1.5)"
                    )
                found = np.array(self.fallback)
                fallen.append(k)
            rows.append(found)
        self.discounts_, self.fallback_orders_ = np.array(rows), tuple(fallen)

    def _level(self, table, adjusted: np.ndarray, discounts: np.ndarray, dropped: slice) -> _KneserNeyLevel:
        """u and γ of one order from its adjusted counts a (see the class docstring)."""
        histories = table.histories
        total = np.bincount(histories, weights=adjusted, minlength=table.n_histories)  # Σ_v a(h, v)
        u = discounts[np.minimum(adjusted, 3) - 1]  # D(a)
        mass = np.bincount(histories, weights=u, minlength=table.n_histories)  # D1 N1(h •) + D2 N2(h •) + D3+ N3+(h •)
        np.subtract(adjusted, u, out=u)
        u /= total[histories]
        u[dropped] = 0.0
        gamma = np.divide(mass, total, out=np.ones(total.size), where=total > 0)
        gamma[histories[dropped]] = 1.0  # only dropped n-grams follow these: P_k = P_{k-1}
        return _KneserNeyLevel(table.keys, u, gamma, adjusted, dropped)

    def adjusted_counts(self, order: int) -> dict[tuple[str, ...], int]:
        """The adjusted count a of every kept n-gram of ``order`` (tokens -> a), for looking inside the model."""
        self.check_fitted()
        order = self._check_count_order(order)
        level = self._levels[order - 1]
        grams = self.counts.decode(np.delete(level.keys, level.dropped), order)  # the dropped rows: a slice
        kept = np.delete(level.adjusted, level.dropped)
        return {tuple(self.vocab.decode(row)): int(a) for row, a in zip(grams, kept)}

    def id_probs(self, grams: np.ndarray, context_len: np.ndarray) -> np.ndarray:
        grams, context_len = check_id_rows(self, grams, context_len)
        # a sum, not a log: a mixture of probabilities, each well above underflow
        base = self.counts.base
        first = self._levels[0]
        probs = lookup(first.keys, first.u, grams[:, -1]) + first.gamma[0] / self.outcome_ids.size
        for k in range(2, self.order + 1):
            level = self._levels[k - 1]
            rows = np.flatnonzero(context_len >= k - 1)
            if rows.size == 0:
                break
            keys = self.counts.keys(grams[rows], k)
            gamma = take(level.gamma, keys // base, default=1.0)  # unseen h: P_{k-1}
            probs[rows] = lookup(level.keys, level.u, keys) + gamma * probs[rows]
        return probs

    # Backoff form: the recursion above is one already, with α(h) = γ(h) and Q_k = P_k.

    def lower_order_probs(self, grams: np.ndarray, order: int) -> np.ndarray:
        return self.id_probs(grams, np.full(grams.shape[0], order - 1))

    def backoff_weights(self, grams: np.ndarray, order: int) -> np.ndarray:
        level = self._levels[order]
        return take(level.gamma, self.counts.history_keys(grams, order), default=1.0)
