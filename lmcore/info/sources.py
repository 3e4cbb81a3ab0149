"""Sources whose entropy is known exactly: i.i.d., first-order Markov, and a mixture of sources.

A real language's entropy can only be estimated; these sources' entropy rate
is a formula, so a chapter can check an estimator against the truth. For a
sample :math:`x_1 \\dots x_n` drawn from the source, the per-symbol surprisal

.. math:: -\\frac{1}{n} \\log_2 p(x_1, \\dots, x_n)

converges to the entropy rate :math:`H` as :math:`n` grows (the
Shannon-McMillan-Breiman theorem); :meth:`empirical_rate` computes it and
:meth:`running_rate` gives it for every prefix, ready to plot.

Samples are numpy int arrays of outcome *indices* (fast to score and count);
``decode`` turns them into the outcome labels.

:class:`MixtureSource` picks one of several sources once per sample and draws the
whole sample from it: stationary but not ergodic, so one sample's per-symbol
surprisal converges to the rate of the source it picked, not to the mixture's rate.

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

import functools
import math
from bisect import bisect_right
from collections.abc import Iterable, Sequence

import numpy as np
from numpy.typing import ArrayLike

from lmcore.checks import check_base, check_distribution, check_int, check_probabilities

__all__ = ["IIDSource", "MarkovSource", "MixtureSource"]


def _log_base(base) -> float:
    """``ln base``, ``base`` checked as every function of :mod:`lmcore.info` checks it."""
    return float(np.log(check_base(base)))


def _entropy_nats(p: np.ndarray) -> float:
    """-sum p log p in nats, with 0 log 0 = 0."""
    positive = p[p > 0]
    return float(-(positive * np.log(positive)).sum())


def _probability_vector(values, argument: str) -> np.ndarray:
    """A distribution checked as :mod:`lmcore.info` checks one, copied (the source freezes its copy)."""
    return np.array(check_distribution(values, argument))


def _labels(labels, k: int, argument: str) -> tuple:
    if labels is None:
        return tuple(range(k))
    if isinstance(labels, str) or not isinstance(labels, Sequence):
        raise TypeError(f"{argument} must be a list of {k} labels, got {type(labels).__name__}")
    if len(labels) != k:
        raise ValueError(f"{argument} has {len(labels)} labels for {k} probabilities")
    try:
        distinct = len(set(labels))
    except TypeError:  # a list among the labels
        raise TypeError(f"{argument} must be hashable labels (str, numbers, tuples), got {list(labels)}") from None
    if distinct != k:
        raise ValueError(f"{argument} must be distinct, got {list(labels)}")
    return tuple(labels)


def _times(n: int, rate: float) -> float:
    """``n * rate`` for a count ``n`` of any size: 0 for a rate of 0, ``inf`` beyond a float's range."""
    if rate == 0:
        return 0.0
    try:
        return n * rate
    except OverflowError:  # an int beyond a float's range
        return math.inf


def _cumulative(p: np.ndarray) -> np.ndarray:
    # Dividing by the total makes the last entry exactly 1.0, so a uniform draw
    # u < 1 never falls past the end, nor on a trailing zero-probability outcome.
    c = np.cumsum(p, axis=-1)
    return c / c[..., -1:]


def _generator(seed) -> np.random.Generator:
    """A numpy Generator from ``seed``: an int >= 0, ``None`` (fresh randomness) or a Generator (itself)."""
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))):
        raise TypeError(f"seed must be an int, None or a numpy Generator, got {seed!r}")
    if seed is not None and seed < 0:
        raise ValueError(f"seed must be at least 0, got {seed}")
    return np.random.default_rng(seed)


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
        """Outcome labels -> int array of indices (a ``ValueError`` names an unknown label; a str is
        the sequence of its characters)."""
        if not isinstance(labels, Iterable):
            raise TypeError(f"labels must be a sequence of outcome labels, got {type(labels).__name__}")
        index = {label: i for i, label in enumerate(self._labels)}
        ids = []
        for label in labels:
            try:
                ids.append(index[label])
            except (KeyError, TypeError):  # TypeError: an unhashable label, which no outcome is
                raise ValueError(f"labels contains {label!r}, which is not one of {list(self._labels)}") from None
        return np.array(ids, dtype=np.int64)

    def decode(self, sample: ArrayLike) -> list:
        """Int array of indices -> list of outcome labels (an empty sample: an empty list)."""
        if np.ndim(sample) == 1 and len(sample) == 0:
            return []
        return [self._labels[i] for i in self._check_sample(sample).tolist()]

    def surprisals(self, sample: ArrayLike, base: float = 2) -> np.ndarray:
        """``-log p(x_k | x_1..x_{k-1})`` for each position ``k`` of ``sample``, under this source.

        ``inf`` where the source gives the observed symbol probability 0.
        """
        raise NotImplementedError

    def log_probability(self, sample: ArrayLike, base: float = 2) -> float:
        """``log p(x_1..x_n)`` of the whole sample (a sum of logs, never a product); ``-inf`` if impossible."""
        return -float(self.surprisals(sample, base).sum())

    def empirical_rate(self, sample: ArrayLike, base: float = 2) -> float:
        """``-(1/n) log p(x_1..x_n)``: bits per symbol the true source assigns to ``sample``.

        For a long sample drawn from the source this approaches
        :meth:`entropy_rate` (Shannon-McMillan-Breiman).
        """
        return float(self.surprisals(sample, base).mean())

    def running_rate(self, sample: ArrayLike, base: float = 2) -> np.ndarray:
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

    def block_entropy(self, n: int, base: float = 2) -> float:
        """:math:`H(X_1 \\dots X_n) = n H`: independent draws add their entropies."""
        return _times(check_int(n, "n"), self.entropy_rate(base))

    def sample(self, n: int, seed: int | np.random.Generator | None = None) -> np.ndarray:
        """``n`` independent draws, as an int array of outcome indices.

        ``seed``: an int for a reproducible sample, ``None`` for fresh
        randomness, or a ``numpy.random.Generator`` to continue from.
        """
        u = _generator(seed).random(check_int(n, "n"))
        return np.searchsorted(self._cum, u, side="right").astype(np.int64)

    def surprisals(self, sample: ArrayLike, base: float = 2) -> np.ndarray:
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

    def __init__(self, transition: ArrayLike, states: Sequence | None = None):
        P = np.array(check_probabilities(transition, "transition", ndim=2))  # a copy: the source freezes it
        if P.shape[0] != P.shape[1]:
            raise ValueError(f"transition must be a non-empty square matrix, got shape {P.shape}")
        for i, row in enumerate(P):
            check_distribution(row, f"row {i} of transition")
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

    def block_entropy(self, n: int, base: float = 2) -> float:
        """:math:`H(X_1 \\dots X_n) = H(\\pi) + (n - 1) H`: the first state from :math:`\\pi`,
        each later one adds the entropy rate (the chain rule, with a stationary start).

        Introduced in notebooks/02_entropy.ipynb, section "Entropy of a sequence and the entropy rate".

        >>> chain = MarkovSource([[0.9, 0.1], [0.5, 0.5]])
        >>> [round(chain.block_entropy(n) / n, 4) for n in (1, 2, 10)]
        [0.65, 0.6038, 0.5667]
        """
        return _entropy_nats(self._pi) / _log_base(base) + _times(check_int(n, "n") - 1, self.entropy_rate(base))

    def sample(self, n: int, seed: int | np.random.Generator | None = None) -> np.ndarray:
        """A run of ``n`` states, as an int array of state indices; the first from :math:`\\pi`.

        All uniform numbers are drawn at once; each step then looks its number
        up in the current row's cumulative probabilities (n = 100,000 takes a
        few hundredths of a second). ``seed`` as in :meth:`IIDSource.sample`.
        """
        u = _generator(seed).random(check_int(n, "n")).tolist()
        rows = self._row_cum
        state = bisect_right(self._start_cum, u[0])
        states = [state]
        append = states.append
        for draw in u[1:]:
            state = bisect_right(rows[state], draw)
            append(state)
        return np.array(states, dtype=np.int64)

    def surprisals(self, sample: ArrayLike, base: float = 2) -> np.ndarray:
        x = self._check_sample(sample)
        nats = np.empty(x.size)
        nats[0] = -self._log_pi[x[0]]
        nats[1:] = -self._log_P[x[:-1], x[1:]]
        return nats / _log_base(base)


class MixtureSource(_Source):
    """Pick one of ``sources`` once, with probabilities ``weights``, then draw the whole sample from it.

    Every position has the same distribution (the mixture is *stationary*), but one
    sample shows only the source that was picked, never the others (it is not
    *ergodic*). Its probability is the weighted sum, computed in log space:

    .. math:: p(x_1 \\dots x_n) = \\sum_i w_i \\, p_i(x_1 \\dots x_n)

    Its entropy rate, :math:`\\lim_n H(X_1 \\dots X_n) / n`, is the weighted average
    :math:`H = \\sum_i w_i H_i` (which source was picked adds at most :math:`H(w)` bits
    to a whole sample: nothing per symbol). But one sample's
    :math:`-\\frac{1}{n} \\log_2 p(x_1 \\dots x_n)` converges to the rate :math:`H_i` of the
    source it came from (when the sources differ), not to :math:`H`: the
    Shannon-McMillan-Breiman theorem needs ergodicity.

    All sources must have the same outcomes, in the same order.

    Introduced in notebooks/02_entropy.ipynb, section "One sample is not always enough".

    >>> fair, bent = IIDSource([0.5, 0.5], outcomes=["a", "b"]), IIDSource([0.9, 0.1], outcomes=["a", "b"])
    >>> bag = MixtureSource([fair, bent])
    >>> f"{bag.entropy_rate():.4f} = ({fair.entropy_rate():.4f} + {bent.entropy_rate():.4f}) / 2"
    '0.7345 = (1.0000 + 0.4690) / 2'
    >>> picked, x = bag.sample_with_choice(100_000, seed=0)
    >>> picked, f"{bag.empirical_rate(x):.4f}"
    (1, '0.4660')
    """

    def __init__(self, sources: Sequence[_Source], weights: Sequence[float] | None = None):
        if isinstance(sources, _Source) or not isinstance(sources, Sequence) or len(sources) == 0:
            raise TypeError("sources must be a non-empty list of IIDSource or MarkovSource objects")
        for i, source in enumerate(sources):
            if not isinstance(source, (IIDSource, MarkovSource)):
                raise TypeError(f"sources[{i}] must be an IIDSource or MarkovSource, got {type(source).__name__}")
            if source._labels != sources[0]._labels:
                raise ValueError(f"sources[{i}] has outcomes {list(source._labels)}, sources[0] has "
                                 f"{list(sources[0]._labels)}: all sources need the same outcomes")
        self._sources = tuple(sources)
        self._labels = sources[0]._labels
        if weights is None:
            weights = [1 / len(sources)] * len(sources)
        self._w = _probability_vector(weights, "weights")
        if self._w.size != len(sources):
            raise ValueError(f"weights has {self._w.size} entries for {len(sources)} sources")
        self._w.flags.writeable = False
        self._cum = _cumulative(self._w)
        with np.errstate(divide="ignore"):
            self._log_w = np.log(self._w)

    def __repr__(self) -> str:
        return f"MixtureSource({len(self._sources)} sources, weights {self._w.round(4).tolist()})"

    @property
    def outcomes(self) -> tuple:
        return self._labels

    @property
    def sources(self) -> tuple:
        return self._sources

    @property
    def weights(self) -> np.ndarray:
        """The probabilities with which each source is picked (read-only)."""
        return self._w

    def stationary_distribution(self) -> np.ndarray:
        """:math:`\\sum_i w_i \\pi_i`: the distribution of every position."""
        return sum(w * s.stationary_distribution() for w, s in zip(self._w, self._sources))

    def entropy_rate(self, base: float = 2) -> float:
        """:math:`\\sum_i w_i H_i`: the limit of :math:`H(X_1 \\dots X_n) / n`, which no single
        sample's per-symbol surprisal need approach (see the class docstring)."""
        return float(sum(w * s.entropy_rate(base) for w, s in zip(self._w, self._sources)))

    def sample_with_choice(self, n: int, seed: int | np.random.Generator | None = None) -> tuple[int, np.ndarray]:
        """``(i, sample)``: the index of the source picked, and ``n`` symbols drawn from it.

        ``seed`` as in :meth:`IIDSource.sample`; one generator draws the pick, then the sample.
        """
        n = check_int(n, "n")
        rng = _generator(seed)
        picked = int(np.searchsorted(self._cum, rng.random(), side="right"))
        return picked, self._sources[picked].sample(n, seed=rng)

    def sample(self, n: int, seed: int | np.random.Generator | None = None) -> np.ndarray:
        """``n`` symbols, all from one source picked at random (:meth:`sample_with_choice` without the pick)."""
        return self.sample_with_choice(n, seed)[1]

    def surprisals(self, sample: ArrayLike, base: float = 2) -> np.ndarray:
        """``-log p(x_k | x_1..x_{k-1})`` under the mixture: the increments of
        ``-log Σ_i w_i p_i(x_1..x_k)``. ``inf`` from the first symbol no source can produce on."""
        x = self._check_sample(sample)
        # log(w_i p_i(x_1..x_k)) for every source i and prefix k, in nats; logaddexp sums over i.
        joint = self._log_w[:, None] - np.cumsum(np.array([s.surprisals(x, base=np.e) for s in self._sources]), axis=1)
        log_p = functools.reduce(np.logaddexp, joint)  # row by row: faster than logaddexp.reduce(axis=0)
        with np.errstate(invalid="ignore"):
            nats = -np.diff(log_p, prepend=0.0)
        nats[np.isnan(nats)] = np.inf  # after an impossible symbol: -inf - (-inf)
        return nats / _log_base(base) + 0.0  # + 0.0: no -0.0 for a certain symbol
