"""Sources whose entropy is known exactly: i.i.d. and first-order Markov.

A real language's entropy can only be estimated; these sources' entropy rate
is a formula, so a chapter can check an estimator against the truth. For a
sample :math:`x_1 \\dots x_n` drawn from the source, the per-symbol surprisal

.. math:: -\\frac{1}{n} \\log_2 p(x_1, \\dots, x_n)

converges to the entropy rate :math:`H` as :math:`n` grows (the
Shannon-McMillan-Breiman theorem); :meth:`empirical_rate` computes it and
:meth:`running_rate` gives it for every prefix, ready to plot.

Samples are numpy int arrays of outcome *indices* (fast to score and count);
``decode`` turns them into the outcome labels.

>>> coin = IIDSource([0.5, 0.5], outcomes=["H", "T"])
>>> coin.entropy_rate()
1.0
>>> chain = MarkovSource([[0.9, 0.1], [0.5, 0.5]], states=["a", "b"])
>>> chain.stationary_distribution().round(4).tolist()
[0.8333, 0.1667]
>>> round(chain.entropy_rate(), 4)
0.5575
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

import numpy as np

__all__ = ["IIDSource", "MarkovSource"]

_TOLERANCE = 1e-9


def _log_base(base) -> float:
    if isinstance(base, bool) or not isinstance(base, (int, float, np.integer, np.floating)):
        raise TypeError(f"base must be a number such as 2 (bits) or math.e (nats), got {base!r}")
    if not base > 0 or base == 1 or not np.isfinite(base):
        raise ValueError(f"base must be positive, finite and not 1, got {base}")
    return float(np.log(base))


def _entropy_nats(p: np.ndarray) -> float:
    """-sum p log p in nats, with 0 log 0 = 0."""
    positive = p[p > 0]
    return float(-(positive * np.log(positive)).sum())


def _probability_vector(values, argument: str) -> np.ndarray:
    try:
        p = np.array(values, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{argument} must be a list of numbers, got {values!r}") from None
    if p.ndim != 1 or p.size == 0:
        raise ValueError(f"{argument} must be a non-empty 1-D list of probabilities, got shape {p.shape}")
    if not np.all(np.isfinite(p)):
        raise ValueError(f"{argument} must be finite, got {p.tolist()}")
    if np.any(p < 0):
        raise ValueError(f"{argument} must be non-negative, got {p.min()} at index {int(p.argmin())}")
    if abs(p.sum() - 1) > _TOLERANCE:
        raise ValueError(f"{argument} sum to {p.sum():.12g}, expected 1")
    return p


def _labels(labels, k: int, argument: str) -> tuple:
    if labels is None:
        return tuple(range(k))
    if isinstance(labels, str) or not isinstance(labels, Sequence):
        raise TypeError(f"{argument} must be a list of {k} labels, got {type(labels).__name__}")
    if len(labels) != k:
        raise ValueError(f"{argument} has {len(labels)} labels for {k} probabilities")
    if len(set(labels)) != k:
        raise ValueError(f"{argument} must be distinct, got {list(labels)}")
    return tuple(labels)


def _cumulative(p: np.ndarray) -> np.ndarray:
    # Dividing by the total makes the last entry exactly 1.0, so a uniform draw
    # u < 1 never falls past the end, nor on a trailing zero-probability outcome.
    c = np.cumsum(p, axis=-1)
    return c / c[..., -1:]


def _generator(seed) -> np.random.Generator:
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))):
        raise TypeError(f"seed must be an int, None or a numpy Generator, got {seed!r}")
    return np.random.default_rng(seed)


def _check_n(n) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"n must be an int, got {type(n).__name__}")
    if n < 1:
        raise ValueError(f"n must be at least 1, got {n}")
    return int(n)


class _Source:
    """What both sources share: labels, scoring of samples, rates."""

    _labels: tuple

    def _check_sample(self, sample) -> np.ndarray:
        x = np.asarray(sample)
        if x.ndim != 1 or x.size == 0:
            raise ValueError(f"sample must be a non-empty 1-D array of outcome indices, got shape {x.shape}")
        if not np.issubdtype(x.dtype, np.integer):
            raise TypeError(
                f"sample must hold integer outcome indices (as sample() returns), got dtype {x.dtype}; "
                "use encode() to turn labels into indices"
            )
        k = len(self._labels)
        if x.min() < 0 or x.max() >= k:
            raise ValueError(f"sample must hold indices 0..{k - 1}, got values from {x.min()} to {x.max()}")
        return x

    def encode(self, labels: Sequence) -> np.ndarray:
        """Outcome labels -> int array of indices (a ``ValueError`` names an unknown label)."""
        index = {label: i for i, label in enumerate(self._labels)}
        try:
            return np.array([index[label] for label in labels], dtype=np.int64)
        except KeyError as error:
            raise ValueError(f"labels contains {error.args[0]!r}, which is not one of {list(self._labels)}") from None

    def decode(self, sample) -> list:
        """Int array of indices -> list of outcome labels."""
        return [self._labels[i] for i in self._check_sample(sample).tolist()]

    def surprisals(self, sample, base: float = 2) -> np.ndarray:
        """``-log p(x_k | x_1..x_{k-1})`` for each position ``k`` of ``sample``, under this source.

        ``inf`` where the source gives the observed symbol probability 0.
        """
        raise NotImplementedError

    def log_probability(self, sample, base: float = 2) -> float:
        """``log p(x_1..x_n)`` of the whole sample (a sum of logs, never a product); ``-inf`` if impossible."""
        return -float(self.surprisals(sample, base).sum())

    def empirical_rate(self, sample, base: float = 2) -> float:
        """``-(1/n) log p(x_1..x_n)``: bits per symbol the true source assigns to ``sample``.

        For a long sample drawn from the source this approaches
        :meth:`entropy_rate` (Shannon-McMillan-Breiman).
        """
        return float(self.surprisals(sample, base).mean())

    def running_rate(self, sample, base: float = 2) -> np.ndarray:
        """``-(1/k) log p(x_1..x_k)`` for ``k = 1..n``: the empirical rate of every prefix, for a plot."""
        s = self.surprisals(sample, base)
        return np.cumsum(s) / np.arange(1, s.size + 1)


class IIDSource(_Source):
    """Independent draws from one distribution over ``outcomes``.

    Entropy rate = entropy of the distribution,
    :math:`H = -\\sum_i p_i \\log p_i` (with :math:`0 \\log 0 = 0`).

    >>> die = IIDSource([1/6] * 6, outcomes=[1, 2, 3, 4, 5, 6])
    >>> round(die.entropy_rate(), 4)
    2.585
    >>> die.decode(die.sample(5, seed=0))
    [4, 2, 1, 1, 5]
    """

    def __init__(self, probabilities: Sequence[float], outcomes: Sequence | None = None):
        self._p = _probability_vector(probabilities, "probabilities")
        self._p.flags.writeable = False
        self._labels = _labels(outcomes, self._p.size, "outcomes")
        self._cum = _cumulative(self._p)
        with np.errstate(divide="ignore"):
            self._log_p = np.log(self._p)

    def __repr__(self) -> str:
        pairs = ", ".join(f"{label!r}: {p:.4g}" for label, p in zip(self._labels, self._p))
        return f"IIDSource({{{pairs}}})"

    @property
    def outcomes(self) -> tuple:
        return self._labels

    @property
    def probabilities(self) -> np.ndarray:
        """The distribution (read-only)."""
        return self._p

    def stationary_distribution(self) -> np.ndarray:
        """The distribution itself: every position has the same one."""
        return self._p.copy()

    def entropy_rate(self, base: float = 2) -> float:
        """:math:`-\\sum_i p_i \\log p_i` in units of ``base`` (2: bits)."""
        return _entropy_nats(self._p) / _log_base(base)

    def sample(self, n: int, seed=None) -> np.ndarray:
        """``n`` independent draws, as an int array of outcome indices.

        ``seed``: an int for a reproducible sample, ``None`` for fresh
        randomness, or a ``numpy.random.Generator`` to continue from.
        """
        u = _generator(seed).random(_check_n(n))
        return np.searchsorted(self._cum, u, side="right").astype(np.int64)

    def surprisals(self, sample, base: float = 2) -> np.ndarray:
        return -self._log_p[self._check_sample(sample)] / _log_base(base)


class MarkovSource(_Source):
    """A first-order Markov chain: ``transition[i, j] = P(next = j | current = i)``.

    Entropy rate from the stationary distribution :math:`\\pi` (:math:`\\pi P = \\pi`):

    .. math:: H = -\\sum_i \\pi_i \\sum_j P_{ij} \\log P_{ij}

    The first symbol of a sample is drawn from :math:`\\pi`, so every position
    has distribution :math:`\\pi` and the sample is stationary from the start.
    The chain must have a unique stationary distribution (one closed class of
    states), otherwise its entropy rate depends on where it starts.

    >>> chain = MarkovSource([[0.9, 0.1], [0.5, 0.5]], states=["a", "b"])
    >>> "".join(chain.decode(chain.sample(20, seed=1)))
    'ababaaaaaaaaaaaaaaaa'
    """

    def __init__(self, transition, states: Sequence | None = None):
        try:
            P = np.array(transition, dtype=float)
        except (TypeError, ValueError):
            raise TypeError(f"transition must be a square matrix of numbers, got {transition!r}") from None
        if P.ndim != 2 or P.shape[0] != P.shape[1] or P.size == 0:
            raise ValueError(f"transition must be a non-empty square matrix, got shape {P.shape}")
        if not np.all(np.isfinite(P)):
            raise ValueError("transition must be finite")
        if np.any(P < 0):
            i, j = np.argwhere(P < 0)[0]
            raise ValueError(f"transition must be non-negative, got {P[i, j]} at row {i}, column {j}")
        row_sums = P.sum(axis=1)
        bad = np.flatnonzero(np.abs(row_sums - 1) > _TOLERANCE)
        if bad.size:
            raise ValueError(f"row {bad[0]} of transition sums to {row_sums[bad[0]]:.12g}, expected 1")
        self._P = P
        self._P.flags.writeable = False
        self._labels = _labels(states, P.shape[0], "states")
        self._pi = self._solve_stationary()
        with np.errstate(divide="ignore"):
            self._log_P = np.log(P)
            self._log_pi = np.log(self._pi)
        self._start_cum = _cumulative(self._pi).tolist()
        self._row_cum = _cumulative(P).tolist()

    def _solve_stationary(self) -> np.ndarray:
        k = self._P.shape[0]
        system = self._P.T - np.eye(k)
        if np.linalg.matrix_rank(system) < k - 1:
            raise ValueError(
                "transition has more than one stationary distribution (the chain has several closed "
                "classes of states), so its entropy rate depends on where it starts"
            )
        # pi (P - I) = 0 together with sum(pi) = 1, solved as one least-squares system.
        a = np.vstack([system, np.ones(k)])
        b = np.zeros(k + 1)
        b[-1] = 1
        pi = np.linalg.lstsq(a, b, rcond=None)[0]
        pi = np.clip(pi, 0, None)
        pi /= pi.sum()
        pi.flags.writeable = False
        return pi

    def __repr__(self) -> str:
        return f"MarkovSource({len(self._labels)} states {list(self._labels)!r})"

    @property
    def states(self) -> tuple:
        return self._labels

    @property
    def transition(self) -> np.ndarray:
        """The transition matrix (read-only)."""
        return self._P

    def stationary_distribution(self) -> np.ndarray:
        """:math:`\\pi` with :math:`\\pi P = \\pi` and :math:`\\sum_i \\pi_i = 1`."""
        return self._pi.copy()

    def entropy_rate(self, base: float = 2) -> float:
        """:math:`\\sum_i \\pi_i H(P_{i\\cdot})` in units of ``base`` (2: bits per symbol)."""
        row_entropies = np.array([_entropy_nats(row) for row in self._P])
        return float(self._pi @ row_entropies) / _log_base(base)

    def sample(self, n: int, seed=None) -> np.ndarray:
        """A run of ``n`` states, as an int array of state indices; the first from :math:`\\pi`.

        All uniform numbers are drawn at once; each step then looks its number
        up in the current row's cumulative probabilities (n = 100,000 takes a
        few hundredths of a second). ``seed`` as in :meth:`IIDSource.sample`.
        """
        u = _generator(seed).random(_check_n(n)).tolist()
        rows = self._row_cum
        state = bisect_right(self._start_cum, u[0])
        states = [state]
        append = states.append
        for draw in u[1:]:
            state = bisect_right(rows[state], draw)
            append(state)
        return np.array(states, dtype=np.int64)

    def surprisals(self, sample, base: float = 2) -> np.ndarray:
        x = self._check_sample(sample)
        nats = np.empty(x.size)
        nats[0] = -self._log_pi[x[0]]
        nats[1:] = -self._log_P[x[:-1], x[1:]]
        return nats / _log_base(base)
