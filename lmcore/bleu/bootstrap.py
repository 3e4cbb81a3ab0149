"""Is system B better than system A? Paired bootstrap resampling of corpus BLEU (Koehn, 2004).

A test set is a sample of the sentences a system will meet. Resampling it, with replacement,
``n_resamples`` times gives as many pseudo test sets of the same size; scoring *both* systems on
each (the same sentences for both: *paired*) shows how much the difference of their corpus BLEU
would move on another test set of that size:

    delta* = BLEU_B(resample) - BLEU_A(resample),   over n_resamples resamples
    interval: the (1 - confidence)/2 and (1 + confidence)/2 order statistics of delta*
    p (Koehn's) = fraction of resamples in which B does not score higher than A
    p (sacrebleu's) = (1 + #{i: |delta*_i| - mean |delta*| > |delta|}) / (1 + n_resamples)

If the interval excludes 0 (equivalently, for 95%: one system wins in at least 97.5% of the
resamples), the difference is unlikely to come from which sentences happened to make up the test
set. That is all the bootstrap varies: it says nothing about the choice of references, the kind of
text (domain), or settings tuned on this test set.

Two p-values, two questions; neither is the probability that B is better. Koehn's (2004) is
one-sided: how often B fails to beat A when the test sentences are resampled; read as a test, its
null hypothesis is "B is not better than A" (it is at most 0.025 exactly when the 95% interval
lies above 0). sacrebleu's (``PairedTest(test_type="bs")``, after Moses's
bootstrap-hypothesis-difference-significance.pl) is two-sided, of the null hypothesis "A and B
score the same": the resampled absolute differences |delta*|, shifted to mean 0, stand in for how
|delta| would vary if the systems were equal, and p is the share of them above the observed
|delta|, with one added to the count and to n (so p >= 1 / (1 + n_resamples)).

Corpus BLEU is not a mean of sentence scores, so each resample adds up the sentences' statistics
(``lmcore.bleu.BleuStats``: matches, totals, c and r) and combines them once; here a resample is a
row of draw counts, and all resamples' statistics are one matrix product.

Same draws as sacrebleu: ``seed`` (default 12345, sacrebleu's ``SACREBLEU_SEED``) feeds
``numpy.random.default_rng(seed).choice(n, size=(n_resamples, n))``, which is what
``sacrebleu.significance.PairedTest(test_type="bs")`` draws, so with the same seed the resampled
scores are sacrebleu's (tests/unit/test_bleu_bootstrap.py). sacrebleu reports, per system, the mean of
the resampled scores and half the width of their 95% interval, and a two-sided p-value of its own
(``sacrebleu_p_value`` here); it gives no interval for the difference itself.

This module holds the pieces (statistics matrices, vectorized scores, draws, the result) and the
test, ``paired_bootstrap``; ``BLEU.paired_bootstrap`` (``metric``) runs it with the metric's settings.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from lmcore.bleu.score import BleuStats, sentence_stats_matrix
from lmcore.bleu.signature import BleuSettings
from lmcore.checks import check_finite, check_int, check_number
from lmcore.i18n import tr

__all__ = ["stats_matrix", "bleu_scores", "resample_indices", "resampled_sums",
           "order_statistic_interval", "PairedBootstrap", "paired_bootstrap"]

SACREBLEU_SEED = 12345


def stats_matrix(stats: Sequence[BleuStats]) -> np.ndarray:
    """Sentence statistics as an int64 matrix, one row per sentence, in sacrebleu's column order:
    c, r, matches_1..matches_N, totals_1..totals_N.

    >>> stats_matrix([BleuStats((2, 1), (4, 3), 4, 4)])
    array([[4, 4, 2, 1, 4, 3]])
    """
    return _stats_matrix(stats, "stats")


def _stats_matrix(stats, name: str) -> np.ndarray:
    """:func:`stats_matrix`, its errors naming the argument ``name``."""
    if isinstance(stats, BleuStats) or not isinstance(stats, Sequence) or not stats:
        raise TypeError(f"{name} must be a non-empty list of BleuStats, one per sentence")
    orders = set()
    for i, item in enumerate(stats):
        if not isinstance(item, BleuStats):
            raise TypeError(f"{name}[{i}] must be a BleuStats, got {type(item).__name__}")
        orders.add(item.max_order)
    if len(orders) != 1:
        raise ValueError(f"{name} mixes max orders {sorted(orders)}")
    return np.array([(s.hyp_len, s.ref_len, *s.matches, *s.totals) for s in stats], dtype=np.int64)


def _rows(rows, name: str = "rows") -> np.ndarray:
    array = np.asarray(rows)
    if array.dtype == object or not (np.issubdtype(array.dtype, np.integer) or np.issubdtype(array.dtype, np.floating)):
        raise TypeError(f"{name} must be numbers (statistics from stats_matrix), got dtype {array.dtype}")
    if array.ndim == 0 or array.shape[-1] < 4 or array.shape[-1] % 2:
        raise ValueError(f"{name} must have 2 + 2 * max_order columns (c, r, matches, totals), got shape "
                         f"{array.shape}")
    order = (array.shape[-1] - 2) // 2
    matches, totals = array[..., 2:2 + order], array[..., 2 + order:]
    if (array < 0).any() or (matches > totals).any() or not np.isfinite(array).all():
        raise ValueError(f"{name} must hold counts >= 0 with matches <= totals in every order")
    if np.issubdtype(array.dtype, np.floating) and (array != np.round(array)).any():
        raise ValueError(f"{name} must hold whole counts (statistics from stats_matrix), got "
                         f"{array[array != np.round(array)][:3].tolist()}")
    return array


def bleu_scores(rows: ArrayLike, settings: BleuSettings | None = None, **options: object) -> np.ndarray:
    """Corpus BLEU of each row of summed statistics (:func:`stats_matrix` layout), all at once:
    ``bleu_scores(rows)[i] == lmcore.bleu.bleu_from_stats(stats_i, ...).score`` (to ~1e-15),
    with the same settings (a ``BleuSettings`` or its keyword arguments: ``weights``,
    ``smooth_method``, ``smooth_value``, ``effective_order``; the max order is the rows') and rules.

        BLEU = BP * exp(sum_n w_n log p_n),  p_n = matches_n / totals_n,  BP = min(1, exp(1 - r/c))

    >>> float(bleu_scores([7, 8, 5, 2, 7, 5]).round(5))
    0.46337
    """
    array = _rows(rows)
    return _scores(array, _settings_of(settings, options, (array.shape[-1] - 2) // 2, "rows"))


def _settings_of(settings: BleuSettings | None, options: dict, max_order: int, name: str) -> BleuSettings:
    """The settings for statistics of ``max_order``: ``BleuSettings.of(settings, **options)``, of that
    max order unless one is given, when it must be that one."""
    settings = BleuSettings.of(settings, **({"max_order": max_order} | options if settings is None else options))
    if settings.max_order != max_order:
        raise ValueError(f"the statistics are of max order {max_order} but max_order is {settings.max_order}; "
                         f"count {name} with the same max_order")
    return settings


def _scores(array: np.ndarray, settings: BleuSettings) -> np.ndarray:
    """``bleu_scores`` of rows already checked by ``_rows``, with ``settings`` (of their max order)."""
    order = (array.shape[-1] - 2) // 2
    smooth_method, effective_order = settings.smooth_method, settings.effective_order
    w, k = np.array(settings.weight_values), settings.smooth_value_used
    c, r = array[..., 0].astype(float), array[..., 1].astype(float)
    m, t = array[..., 2:2 + order].astype(float), array[..., 2 + order:].astype(float)
    any_match = (m > 0).any(axis=-1)
    if smooth_method == "add-k":
        m[..., 1:] += k
        t[..., 1:] += k
    with np.errstate(divide="ignore", invalid="ignore"):
        bp = np.where(c > r, 1.0, np.where(c > 0, np.exp(1.0 - r / np.where(c > 0, c, 1.0)), 0.0))
        positive = t > 0  # the orders up to the first without any hypothesis n-gram are kept
        kept = np.where(positive.all(axis=-1), order, np.argmin(positive, axis=-1))
        kept = np.where(any_match, kept, 0)
        in_kept = np.arange(order) < kept[..., None]
        unmatched = in_kept & (m == 0)
        p = np.where(in_kept & (m > 0), m / t, 0.0)
        if smooth_method == "exp":
            p = np.where(unmatched, 1.0 / (2.0 ** np.cumsum(unmatched, axis=-1) * t), p)
        elif smooth_method == "floor":
            p = np.where(unmatched, k / t, p)
        kept_w = np.where(in_kept, w, 0.0)
        kept_weight = kept_w.sum(axis=-1)
        dropped_weight = np.where(in_kept, 0.0, w).sum(axis=-1)
        usable = (kept_weight > 0) & (effective_order | (dropped_weight == 0))
        scale = w.sum() / np.where(kept_weight > 0, kept_weight, 1.0) if effective_order else 1.0
        used = kept_w * np.where(usable, scale, 0.0)[..., None]
        weighted = used > 0
        zero = ~weighted.any(axis=-1) | (bp == 0) | (weighted & (p == 0)).any(axis=-1)
        log_score = np.log(np.where(bp > 0, bp, 1.0)) + (used * np.log(np.where(weighted, p, 1.0))).sum(axis=-1)
    return np.where(zero, 0.0, np.exp(log_score))


def resample_indices(n_items: int, n_resamples: int = 1000, seed: int | None = SACREBLEU_SEED) -> np.ndarray:
    """Which sentences each resample draws: ``n_resamples`` rows of ``n_items`` indices, with
    replacement; sacrebleu's draw for the same seed.

    >>> resample_indices(5, 2, seed=0).shape
    (2, 5)
    """
    for name, value in (("n_items", n_items), ("n_resamples", n_resamples)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise TypeError(f"{name} must be an int, got {type(value).__name__}")
        if value < 1:
            raise ValueError(f"{name} must be >= 1, got {value}")
    seed = _check_seed(seed)
    return np.random.default_rng(seed).choice(int(n_items), size=(int(n_resamples), int(n_items)), replace=True)


def _check_seed(seed: object) -> int | None:
    """``seed`` if it is None or an int >= 0 (what ``numpy.random.default_rng`` takes as a seed)."""
    if seed is None:
        return None
    return check_int(seed, "seed", minimum=0)


def _check_confidence(confidence: object) -> float:
    """``confidence`` as a float strictly between 0 and 1, or an error naming it."""
    try:
        return check_number(confidence, "confidence", low=0, high=1, low_open=True, high_open=True)
    except ValueError as error:
        raise ValueError(f"{error} (0.95 for 95%)") from None


def resampled_sums(matrix: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """The statistics of every resample: row i is the sum of ``matrix[indices[i]]``, computed as
    (how often each sentence is drawn) @ matrix.

    >>> resampled_sums(np.array([[1, 2], [10, 20]]), np.array([[0, 0], [1, 0]]))
    array([[ 2.,  4.],
           [11., 22.]])
    """
    matrix, indices = np.asarray(matrix), np.asarray(indices)
    if matrix.ndim != 2 or indices.ndim != 2:
        raise ValueError(f"matrix and indices must be 2-D, got shapes {matrix.shape} and {indices.shape}")
    if matrix.dtype.kind not in "iuf":
        raise TypeError(f"matrix must hold numbers (statistics from stats_matrix), got dtype {matrix.dtype}")
    matrix = check_finite(matrix, "matrix")  # a NaN would spread to every resample that draws its row
    if indices.size and indices.dtype.kind not in "iu":
        raise TypeError(f"indices must be whole row numbers (from resample_indices), got dtype {indices.dtype}")
    n_resamples, n_items = indices.shape[0], matrix.shape[0]
    if indices.size and (indices.min() < 0 or indices.max() >= n_items):
        raise ValueError(f"indices must be between 0 and {n_items - 1} (rows of matrix)")
    flat = (indices + np.arange(n_resamples)[:, None] * n_items).ravel()
    counts = np.bincount(flat, minlength=n_resamples * n_items).reshape(n_resamples, n_items)
    return counts.astype(float) @ matrix


def order_statistic_interval(values: ArrayLike, confidence: float = 0.95) -> tuple[float, float]:
    """The interval between the k-th smallest and k-th largest of ``values``, k = floor(n (1 - confidence) / 2)
    (counting from 0): for 1,000 values and 95%, the 26th smallest and the 26th largest, as in sacrebleu.

    >>> order_statistic_interval(np.arange(1000))
    (25.0, 974.0)
    """
    confidence = _check_confidence(confidence)
    if isinstance(values, (str, bytes)):
        raise TypeError("values must be numbers (resampled scores or differences), got str")
    array = np.asarray(values)
    if array.dtype.kind not in "iuf":  # str, bool, object
        raise TypeError(f"values must be numbers (resampled scores or differences), got dtype {array.dtype}")
    ordered = np.sort(array.astype(float).ravel())
    if ordered.size == 0:
        raise ValueError("values is empty")
    if np.isnan(ordered).any():
        raise ValueError("values contains NaN")
    k = math.floor(ordered.size * (1 - confidence) / 2 + 1e-9)
    k = min(k, (ordered.size - 1) // 2)  # a confidence near 0: the middle, never an interval turned round
    return float(ordered[k]), float(ordered[ordered.size - 1 - k])


@dataclass(frozen=True)
class PairedBootstrap:
    """The result of ``lmcore.bleu.paired_bootstrap`` and ``BLEU.paired_bootstrap``. Scores are on the 0-1 scale.

    ``score_a``, ``score_b``: corpus BLEU on the test set itself; ``delta = score_b - score_a``;
    ``scores_a``, ``scores_b``: the scores on each resample; ``interval``: the ``confidence``
    interval of the difference B - A; ``wins_b``: the fraction of resamples in which B scores
    higher; ``p_value = 1 - wins_b`` (Koehn's, one-sided: "is B better than A?"; for "is A better
    than B?" it is the fraction of resamples in which A does not score higher);
    ``mean_a``/``half_width_a`` (and for B): the mean of a system's resampled scores and half the
    width of its interval, as sacrebleu prints them ("mean ± half width"); ``sacrebleu_p_value``:
    sacrebleu's two-sided p-value ("do A and B differ?"), computed here from the same resamples.
    The module's docstring says what each p-value tests.

    >>> result = PairedBootstrap(0.30, 0.32, np.array([0.30, 0.31, 0.29, 0.30]),
    ...                          np.array([0.33, 0.30, 0.31, 0.32]), 0.95, None)
    >>> result.wins_b, result.p_value, result.sacrebleu_p_value
    (0.75, 0.25, 0.2)
    """

    score_a: float
    score_b: float
    scores_a: np.ndarray
    scores_b: np.ndarray
    confidence: float
    seed: int | None

    def __post_init__(self) -> None:
        for name in ("score_a", "score_b"):
            check_number(getattr(self, name), name, low=0, high=1)
        a, b = check_finite(self.scores_a, "scores_a"), check_finite(self.scores_b, "scores_b")
        if a.ndim != 1 or a.shape != b.shape or a.size == 0:
            raise ValueError(f"scores_a and scores_b must be one score per resample, as many of each, got shapes "
                             f"{a.shape} and {b.shape}")
        _check_confidence(self.confidence)
        _check_seed(self.seed)

    @property
    def delta(self) -> float:
        return self.score_b - self.score_a

    @property
    def deltas(self) -> np.ndarray:
        return self.scores_b - self.scores_a

    @property
    def n_resamples(self) -> int:
        return self.scores_a.size

    @property
    def interval(self) -> tuple[float, float]:
        return order_statistic_interval(self.deltas, self.confidence)

    @property
    def wins_b(self) -> float:
        return float(np.mean(self.deltas > 0))

    @property
    def p_value(self) -> float:
        # counted, not 1 - wins_b: 25/1000 must be 0.025 itself, the 95% interval's edge
        return float(np.mean(self.deltas <= 0))

    def _mean_half_width(self, scores: np.ndarray) -> tuple[float, float]:
        low, high = order_statistic_interval(scores, self.confidence)
        return float(scores.mean()), (high - low) / 2

    @property
    def mean_a(self) -> float:
        return self._mean_half_width(self.scores_a)[0]

    @property
    def half_width_a(self) -> float:
        return self._mean_half_width(self.scores_a)[1]

    @property
    def mean_b(self) -> float:
        return self._mean_half_width(self.scores_b)[0]

    @property
    def half_width_b(self) -> float:
        return self._mean_half_width(self.scores_b)[1]

    @property
    def sacrebleu_p_value(self) -> float:
        """(1 + #{resamples: |delta*| - mean |delta*| > |delta|}) / (1 + n_resamples), as in sacrebleu 2:
        the share of the resampled absolute differences, shifted to mean 0 (a stand-in for how
        |delta| varies when A and B score the same), that exceed the observed |delta|; two-sided.

        Identical systems get the smallest p there is, 1 / (1 + n_resamples): every shifted |delta*| is
        0, and none is strictly above the observed 0 (sacrebleu counts with ">" too).

        >>> PairedBootstrap(0.3, 0.3, np.zeros(9), np.zeros(9), 0.95, None).sacrebleu_p_value
        0.1
        """
        spread = np.abs(self.deltas)
        return float((np.sum(spread - spread.mean() > abs(self.delta)) + 1) / (self.n_resamples + 1))

    def __str__(self) -> str:
        """The comparison in one line, in the course's language."""
        low, high = self.interval
        return tr("A = {score_a:.4f}, B = {score_b:.4f}, B - A = {delta:+.4f}, {confidence:.0%} interval "
                  "[{low:+.4f}, {high:+.4f}], B higher in {wins_b:.1%} of {n_resamples:,} resamples",
                  score_a=self.score_a, score_b=self.score_b, delta=self.delta, confidence=self.confidence,
                  low=low, high=high, wins_b=self.wins_b, n_resamples=self.n_resamples)


def _statistics_pair(system_a, system_b):
    """Two systems' sentence statistics as matrices (:func:`stats_matrix` for lists of ``BleuStats``),
    checked to be of the same shape."""
    names = ("system_a", "system_b")
    a, b = (_stats_matrix(s, name) if isinstance(s, (list, tuple)) else _rows(s, name)
            for s, name in zip((system_a, system_b), names))
    if a.ndim != 2 or a.shape != b.shape:
        raise ValueError(f"{names[0]} and {names[1]} must be matrices of the same shape (same sentences, same max "
                         f"order), got {a.shape} and {b.shape}")
    if a.shape[0] == 0:
        raise ValueError(f"{names[0]} and {names[1]} have no sentences: the bootstrap resamples sentences")
    return a, b


def paired_bootstrap(system_a: Sequence[str | Sequence[str]] | Sequence[BleuStats] | np.ndarray,
                     system_b: Sequence[str | Sequence[str]] | Sequence[BleuStats] | np.ndarray,
                     references: Sequence[Sequence[str | Sequence[str]]] | None = None,
                     settings: BleuSettings | None = None, *, n_resamples: int = 1000,
                     seed: int | None = SACREBLEU_SEED, confidence: float = 0.95, **options: object) -> PairedBootstrap:
    """Paired bootstrap resampling of two systems' corpus BLEU (Koehn, 2004; the module's docstring
    explains it): ``delta* = BLEU_B - BLEU_A`` on ``n_resamples`` resamples of the sentences, the
    same ones for both systems, drawn as sacrebleu does for the same ``seed`` (the same seed gives
    the same result).

    Without ``references``, ``system_a`` and ``system_b`` are each system's sentence statistics,
    counted once beforehand: a ``stats_matrix`` (or a list of ``BleuStats``), row i for sentence
    i of the same test set. With ``references``, they are the two systems' hypotheses for the
    same sentences, counted here. BLEU's settings are a ``BleuSettings`` (``BLEU.paired_bootstrap``
    passes itself) or its keyword arguments (``options``), as for ``bleu_from_stats``; the max
    order is the statistics' unless given.

    Introduced in notebooks/06_bleu.ipynb, section "Going further: Is A better than B?".

    >>> a = [BleuStats((3, 1), (4, 3), 4, 4), BleuStats((2, 0), (3, 2), 3, 4)]
    >>> b = [BleuStats((4, 2), (4, 3), 4, 4), BleuStats((2, 1), (3, 2), 3, 4)]
    >>> result = paired_bootstrap(a, b, n_resamples=200, seed=0)
    >>> f"{result.score_a:.4f} {result.score_b:.4f} {result.wins_b:.2f}"
    '0.3276 0.6217 1.00'
    """
    confidence, seed = _check_confidence(confidence), _check_seed(seed)  # named before any counting
    if references is None:
        for name, system in (("system_a", system_a), ("system_b", system_b)):
            first = system[0] if isinstance(system, (list, tuple)) and system else None
            tokens = isinstance(first, (list, tuple)) and all(isinstance(token, str) for token in first)
            if isinstance(first, str) or tokens:
                raise TypeError(f"{name} holds hypotheses, not sentence statistics: pass their references "
                                "too (references=...)")
        a, b = _statistics_pair(system_a, system_b)
        settings = _settings_of(settings, options, (a.shape[1] - 2) // 2, "them")
    else:
        settings = BleuSettings.of(settings, **options)
        a, b = (sentence_stats_matrix(system, references, settings) for system in (system_a, system_b))
    indices = resample_indices(a.shape[0], n_resamples, seed)
    both = np.concatenate([a, b], axis=1)  # one pass over the draws for both systems
    sums = resampled_sums(both, indices)
    width = a.shape[1]
    scores_a = _scores(sums[:, :width], settings)
    scores_b = _scores(sums[:, width:], settings)
    score_a, score_b = (float(_scores(m.sum(axis=0), settings)) for m in (a, b))
    return PairedBootstrap(score_a, score_b, scores_a, scores_b, float(confidence), seed)
