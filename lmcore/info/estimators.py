"""Entropy estimated from samples: plug-in and Miller-Madow, block entropies, the rate of a sample.

:mod:`lmcore.info` computes the entropy of a distribution you know. For real text
the distribution is unknown: all we have is a sample of ``n`` tokens, with counts
``c_1 .. c_K`` of the ``K`` types seen. This module estimates from such samples.

- The **plug-in** estimate puts the relative frequencies ``c_i / n`` into the entropy
  formula (:func:`plugin_entropy`). It is biased low: types the sample missed count as
  impossible, and rare types look rarer or commoner than they are, which on average
  lowers the entropy (it is concave).
- The **Miller-Madow** estimate adds the first-order bias, ``(K - 1) / (2n)`` nats
  (:func:`miller_madow_entropy`).
- On growing samples (:func:`entropy_growth`) the plug-in estimate rises towards its limit.
- **Block entropies** ``H(X_1 .. X_n)`` of a sequence, from its overlapping n-blocks
  (:func:`block_entropy`, :func:`block_entropy_rates`), divided by ``n`` approach the
  entropy rate from above (for an exact source; estimated ones also drop from bias).
- The **per-symbol log-probability** ``-(1/n) log2 p(x_1 .. x_n)`` of a sample under its
  source, along the sample (:func:`sample_rates`, :func:`rate_convergence`): for a
  stationary ergodic source it converges to the entropy rate (Shannon-McMillan-Breiman).

>>> counts = [5, 3, 1, 1]
>>> f"{plugin_entropy(counts):.4f} {miller_madow_entropy(counts):.4f}"
'1.6855 1.9019'
"""

from __future__ import annotations

import math
import numbers
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from lmcore.checks import check_base, check_int, check_no_missing
from lmcore.info import measures as info
from lmcore.info.sources import _generator, _Source

if TYPE_CHECKING:
    from lmcore.info.sources import IIDSource, MarkovSource, MixtureSource

__all__ = [
    "type_counts",
    "plugin_entropy",
    "miller_madow_correction",
    "miller_madow_entropy",
    "EntropyGrowth",
    "entropy_growth",
    "block_entropy",
    "block_entropy_rates",
    "log_spaced",
    "SampleRates",
    "sample_rates",
    "rate_convergence",
]


# --- checks --------------------------------------------------------------------------------


def _per_nat(base) -> float:
    """How many units of ``base`` one nat is (``1 / ln base``), ``base`` checked as :mod:`lmcore.info` does."""
    return 1.0 / math.log(check_base(base))


def _counts(counts, name: str = "counts") -> np.ndarray:
    """Counts (a sequence, an array, or a dict such as a ``Counter``) as a 1-d float array, checked:
    whole numbers >= 0 (not bools, not strings), not all 0. Floats, so that counts beyond int64
    (or whose sum is) still give the right frequencies."""
    if isinstance(counts, Mapping):
        counts = list(counts.values())
    if isinstance(counts, (str, bytes)):
        raise TypeError(f"{name} must be a sequence or dict of counts, got {type(counts).__name__}; "
                        "use type_counts(tokens) to count tokens")
    try:
        array = np.asarray(counts)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must contain only numbers (counts of each type)") from None
    if array.dtype == object and all(isinstance(x, numbers.Real) and not isinstance(x, bool) for x in array.flat):
        array = np.array([_float(x) for x in array.flat]).reshape(array.shape)  # ints beyond int64
    if array.dtype.kind not in "iuf":  # str, bool, None, lists inside ...
        raise TypeError(f"{name} must contain only numbers (counts of each type)")
    array = array.astype(float)
    if array.ndim != 1 or array.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-d list of counts, got shape {array.shape}")
    if not np.all(np.isfinite(array)) or (array < 0).any() or (array != np.round(array)).any():
        raise ValueError(f"{name} must be non-negative whole numbers, got {array[:5].tolist()}...")
    if array.sum() == 0:
        raise ValueError(f"{name} are all 0: an estimate needs at least one observed token")
    if not math.isfinite(array.sum()):
        raise ValueError(f"{name} add up to more than a float holds")
    return array


def _float(value) -> float:
    try:
        return float(value)
    except OverflowError:  # an int beyond a float's range
        return math.inf if value > 0 else -math.inf


def _ids(sequence, name: str) -> np.ndarray:
    """A sequence of hashable tokens (or an int array) as an int array of type ids 0..K-1 (an int
    array's own ids if they are small, else renumbered in their order). NaN or None among the
    tokens is refused (:func:`lmcore.checks.check_no_missing`), checked on the distinct tokens."""
    if isinstance(sequence, np.ndarray) and np.issubdtype(sequence.dtype, np.integer):
        if sequence.ndim != 1:
            raise ValueError(f"{name} must be one-dimensional, got shape {sequence.shape}")
        if sequence.size and sequence.min() < 0:
            raise ValueError(f"{name} holds negative ids; integer symbols must be 0, 1, 2, ...")
        if sequence.size and sequence.max() >= max(2 * sequence.size, 1024):
            return np.unique(sequence, return_inverse=True)[1].astype(np.int64).ravel()  # no table of max ids
        ids = sequence.astype(np.int64)
    else:
        if isinstance(sequence, np.ndarray) and sequence.ndim != 1:
            raise ValueError(f"{name} must be one-dimensional, got shape {sequence.shape}")
        if not isinstance(sequence, Iterable):
            raise TypeError(f"{name} must be a sequence of tokens, got {type(sequence).__name__}")
        if not isinstance(sequence, (Sequence, np.ndarray)):
            sequence = list(sequence)
        try:
            index = {token: i for i, token in enumerate(dict.fromkeys(sequence))}
        except TypeError:
            raise TypeError(f"{name} must hold hashable tokens (strings, numbers), not lists; "
                            "flatten sentences first") from None
        check_no_missing(sequence, name, distinct=index)  # NaN and None: missing values, not symbols
        ids = np.fromiter(map(index.__getitem__, sequence), dtype=np.int64, count=len(sequence))
    if ids.size == 0:
        raise ValueError(f"{name} is empty")
    return ids


def _seed(seed) -> int | None:
    """``seed`` checked: None or an int >= 0."""
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))):
        raise TypeError(f"seed must be an int or None, got {seed!r}")
    if seed is not None and seed < 0:
        raise ValueError(f"seed must be at least 0, got {seed}")
    return seed


# --- estimates from counts ------------------------------------------------------------------


def type_counts(tokens: Iterable[Hashable]) -> np.ndarray:
    """The count of each type (distinct token) in ``tokens`` (order of first appearance), as an int array.

    ``tokens`` is a flat sequence (a string counts its characters), or an int array of ids
    (counted in the order of the ids). A missing value (NaN or None) is no token: it is refused.

    >>> type_counts("abracadabra").tolist()
    [5, 2, 2, 1, 1]
    >>> type_counts([1.0, float("nan"), 2.0])
    Traceback (most recent call last):
    ...
    ValueError: tokens contains NaN at position 1: a missing value, not a symbol; drop or fill missing values first
    """
    if isinstance(tokens, np.ndarray) and np.issubdtype(tokens.dtype, np.integer):
        ids = _ids(tokens, "tokens")  # small ids as they are, large ones renumbered in their order
        counts = np.bincount(ids)
        return counts[counts > 0]
    try:
        counter = Counter(tokens)
    except TypeError:
        raise TypeError("tokens must be a flat sequence of hashable tokens; flatten sentences first") from None
    if not counter:
        raise ValueError("tokens is empty")
    check_no_missing(tokens, "tokens", distinct=counter)
    return np.fromiter(counter.values(), dtype=np.int64, count=len(counter))


def plugin_entropy(counts: Sequence[int] | np.ndarray | Mapping[Any, int], base: float = 2) -> float:
    """The plug-in (maximum-likelihood) estimate: the entropy of the relative frequencies,

        Ĥ = -Σ_i (c_i / n) log (c_i / n),    n = Σ_i c_i.

    Biased low: on average it is below the entropy of the distribution the sample came from.

    Introduced in notebooks/02_entropy.ipynb, section "Entropy of real text".

    >>> plugin_entropy([2, 1, 1])
    1.5
    """
    c = _counts(counts)
    return info.entropy(c / c.sum(), base)


def miller_madow_correction(counts: Sequence[int] | np.ndarray | Mapping[Any, int], base: float = 2) -> float:
    """The Miller-Madow bias correction ``(K - 1) / (2n)`` nats, in units of ``base``.

    ``K`` is the number of types seen (positive counts), ``n`` the number of tokens.

    >>> round(miller_madow_correction([50, 30, 20]), 4)  # (3 - 1) / 200 nats = 0.01 / ln 2 bits
    0.0144
    """
    c = _counts(counts)
    k, n = int((c > 0).sum()), float(c.sum())
    return (k - 1) / (2 * n) * _per_nat(base)


def miller_madow_entropy(counts: Sequence[int] | np.ndarray | Mapping[Any, int], base: float = 2) -> float:
    """The plug-in estimate plus the Miller-Madow correction: ``Ĥ + (K - 1) / (2n)`` (in nats).

    Removes the bias's leading term; when many types have not been seen yet (``n``
    not much larger than the number of types), it is still too low.

    Introduced in notebooks/02_entropy.ipynb, section "Going further: correcting the plug-in bias".

    >>> f"{miller_madow_entropy([2, 1, 1]):.4f}"  # 1.5 bits + (3 - 1) / (2 · 4) nats
    '1.8607'
    """
    return plugin_entropy(counts, base) + miller_madow_correction(counts, base)


@dataclass(frozen=True)
class EntropyGrowth:
    """Estimates on samples of growing size ``sizes``: ``plugin``, ``miller_madow`` and the
    number of ``types`` seen, one value per size (all arrays)."""

    sizes: np.ndarray
    plugin: np.ndarray
    miller_madow: np.ndarray
    types: np.ndarray


def entropy_growth(tokens: Iterable[Hashable] | Mapping[Any, int], sizes: Sequence[int] | np.ndarray | None = None,
                   seed: int | None = 0, base: float = 2) -> EntropyGrowth:
    """Plug-in and Miller-Madow estimates on the first ``n`` tokens for each ``n`` in ``sizes``.

    ``tokens`` is a flat sequence of tokens, or a dict of counts (a ``Counter``) standing
    for a text with those counts. With ``seed`` an int (the default), the tokens are first
    put in a random order (that seed), so each prefix is a random sample of the text
    without replacement, nested in the next; ``seed=None`` keeps the given order (not for
    counts, which have none). ``sizes`` default: 10, 30, 100, 300, ... below the number of
    tokens, then all of them.

    Introduced in notebooks/02_entropy.ipynb, section "Entropy of real text".

    >>> growth = entropy_growth(list("abcd" * 100), sizes=[4, 400], seed=None)
    >>> growth.plugin.tolist(), growth.types.tolist()
    ([2.0, 2.0], [4, 4])
    >>> entropy_growth({"a": 500, "b": 500}, sizes=[1, 1000]).plugin.tolist()
    [0.0, 1.0]
    """
    seed = _seed(seed)
    if isinstance(tokens, Mapping):
        if seed is None:
            raise ValueError("seed must be an int when tokens is a dict of counts: counts have no order to keep")
        counts = _counts(tokens, "tokens")
        if counts.sum() > _MAX_SHUFFLED:
            raise ValueError(f"tokens stands for {counts.sum():,.0f} tokens; entropy_growth shuffles them one by one, "
                             f"at most {_MAX_SHUFFLED:,}: pass the counts of a sample of the text")
        ids = np.repeat(np.arange(counts.size), counts.astype(np.int64))
    else:
        ids = _ids(tokens, "tokens")
    total = ids.size
    if sizes is None:
        steps = [m * 10**e for e in range(1, len(str(total)) + 1) for m in (1, 3)]
        sizes = [size for size in steps if size < total] + [total]
    sizes = _sizes(sizes, total)
    if seed is not None:
        ids = ids[np.random.default_rng(seed).permutation(total)]
    n_types = int(ids.max()) + 1
    plugin, corrected, types = [], [], []
    for n in sizes:
        counts = np.bincount(ids[:n], minlength=n_types)
        counts = counts[counts > 0]
        plugin.append(plugin_entropy(counts, base))
        corrected.append(plugin[-1] + miller_madow_correction(counts, base))
        types.append(counts.size)
    return EntropyGrowth(sizes, np.array(plugin), np.array(corrected), np.array(types))


_MAX_SHUFFLED = 10**8  # tokens entropy_growth puts in a random order (8 bytes each, twice)


def _sizes(sizes, total: int) -> np.ndarray:
    """The sample sizes of :func:`entropy_growth` as an int array, checked: whole numbers 1..total."""
    if isinstance(sizes, (str, bytes, Mapping)) or np.ndim(sizes) != 1:
        raise TypeError(f"sizes must be a list of whole numbers (sizes=[100, 1000]), got {type(sizes).__name__}")
    array = np.asarray(sizes)
    if array.dtype == object and all(isinstance(x, numbers.Real) and not isinstance(x, bool) for x in array.flat):
        array = np.array([_float(x) for x in array.flat])
    if array.dtype.kind not in "iuf":  # str, bool, None, ...
        raise TypeError("sizes must be a list of whole numbers")
    array = array.astype(float)
    if array.size == 0 or not np.isfinite(array).all() or (array != np.round(array)).any():
        raise ValueError(f"sizes must be a non-empty list of whole numbers, got {array.tolist()}")
    if array.min() < 1 or array.max() > total:
        raise ValueError(f"sizes must be between 1 and the number of tokens ({total:,}), got {array.tolist()}")
    return array.astype(np.int64)


# --- block entropies of a sequence ---------------------------------------------------------------


def _check_block_length(n, length: int, name: str = "n") -> int:
    return check_int(n, name, maximum=length, maximum_label=f"the sequence's length {length:,}")


def _block_counts(ids: np.ndarray, n: int) -> np.ndarray:
    """Counts of the distinct overlapping n-blocks of an id array."""
    k = int(ids.max()) + 1
    m = ids.size - n + 1
    if n * math.log2(max(k, 2)) < 62:  # each block as one integer, base k
        codes = np.zeros(m, dtype=np.int64)
        for j in range(n):
            codes = codes * k + ids[j:j + m]
        return np.unique(codes, return_counts=True)[1]
    windows = np.lib.stride_tricks.sliding_window_view(ids, n)
    return np.unique(windows, axis=0, return_counts=True)[1]


def block_entropy(sequence: Iterable[Hashable], n: int, base: float = 2) -> float:
    """Plug-in estimate of the block entropy ``H(X_1 .. X_n)`` from the overlapping n-blocks
    of ``sequence`` (a flat sequence of tokens, or an int array as the sources' samples are).

        Ĥ_n = -Σ_b (c_b / m) log (c_b / m),   m = len(sequence) - n + 1 blocks

    ``Ĥ_n / n`` estimates the entropy rate; for large ``n`` most blocks are seen once
    and ``Ĥ_n`` stalls near ``log m``: the plug-in bias again.

    Introduced in notebooks/02_entropy.ipynb, section "Entropy of a sequence and the entropy rate".

    >>> block_entropy("abababab", 1), block_entropy("abababab", 2)  # only "ab" and "ba" occur
    (1.0, 0.9852281360342515)
    """
    ids = _ids(sequence, "sequence")
    n = _check_block_length(n, ids.size)
    counts = _block_counts(ids, n)
    return plugin_entropy(counts, base)


def block_entropy_rates(sequence: Iterable[Hashable], max_n: int, base: float = 2) -> np.ndarray:
    """``Ĥ_n / n`` for ``n = 1 .. max_n`` (:func:`block_entropy`), as an array.

    >>> block_entropy_rates("aaaa", 2).tolist()
    [0.0, 0.0]
    """
    ids = _ids(sequence, "sequence")
    max_n = _check_block_length(max_n, ids.size, "max_n")
    return np.array([plugin_entropy(_block_counts(ids, n), base) / n for n in range(1, max_n + 1)])


# --- the per-symbol log-probability of samples ---------------------------------------------------


def log_spaced(n: int, points: int = 200) -> np.ndarray:
    """About ``points`` distinct whole numbers from 1 to ``n``, evenly spaced on a log scale
    (both ends and every power of 10 included): where to look at a running average, for a
    plot with a log axis.

    >>> log_spaced(1000, 4).tolist()
    [1, 10, 100, 1000]
    >>> log_spaced(2000, 3).tolist()
    [1, 10, 45, 100, 1000, 2000]
    """
    n = check_int(n, "n")
    if n > _MAX_LENGTH:
        raise ValueError(f"n must be at most 10**18 (a sample length), got {n}")
    points = check_int(points, "points", minimum=2)
    if n * math.log(n) < points - 1:  # steps below 1 on a log scale from 1 to n: every whole number
        return np.arange(1, n + 1, dtype=np.int64)
    powers = 10 ** np.arange(len(str(int(n))), dtype=np.int64)
    return np.union1d(np.geomspace(1, n, points).round().astype(np.int64), powers[powers <= n])


_MAX_LENGTH = 10**18  # the longest sample log_spaced plans for (int64 holds 9.2e18)


@dataclass(frozen=True)
class SampleRates:
    """``-(1/k) log p(x_1 .. x_k)`` of each sample at each length ``k`` in ``lengths``.

    ``rates`` has one row per sample; ``entropy_rate`` is the source's exact rate and
    ``final`` each sample's value at its full length, ``gaps`` = ``final - entropy_rate``.
    """

    lengths: np.ndarray
    rates: np.ndarray
    entropy_rate: float

    @property
    def final(self) -> np.ndarray:
        return self.rates[:, -1]

    @property
    def gaps(self) -> np.ndarray:
        return self.final - self.entropy_rate

    @property
    def max_gap(self) -> float:
        """The largest distance ``|final - entropy_rate|`` among the samples."""
        return float(np.abs(self.gaps).max())


def sample_rates(source: IIDSource | MarkovSource | MixtureSource, samples: np.ndarray | Iterable[np.ndarray],
                 points: int = 200, base: float = 2) -> SampleRates:
    """Per-symbol log-probability of each of ``samples`` under ``source``, along each sample.

        r_k = -(1/k) log2 p(x_1 .. x_k),   k at ``points`` log-spaced lengths

    ``source`` is any source of :mod:`lmcore.info` (it needs ``running_rate`` and
    ``entropy_rate``); ``samples`` are its int arrays, all of one length.

    Introduced in notebooks/02_entropy.ipynb, section "Going further: one long sample is enough, and when it is not".

    >>> from lmcore.info import IIDSource
    >>> coin = IIDSource([0.5, 0.5])
    >>> sample_rates(coin, [coin.sample(8, seed=0)], points=4).rates.tolist()  # a fair coin: 1 bit each
    [[1.0, 1.0, 1.0, 1.0]]
    """
    _check_source(source)
    if isinstance(samples, (str, bytes)) or not isinstance(samples, Iterable):
        raise TypeError(f"samples must be a list of samples (int arrays of outcome indices), got "
                        f"{type(samples).__name__}")
    if isinstance(samples, np.ndarray) and samples.ndim == 1:
        samples = [samples]
    samples = list(samples)
    if samples and all(isinstance(x, numbers.Integral) and not isinstance(x, bool) for x in samples):
        samples = [np.asarray(samples)]  # one sample given as a plain list of indices
    if not samples:
        raise ValueError("samples is empty: give at least one sample")
    for i, sample in enumerate(samples):
        if isinstance(sample, (str, bytes)) or np.ndim(sample) != 1:
            raise TypeError(f"samples[{i}] must be a sample, a 1-d int array of outcome indices (as the source's "
                            f"sample() returns), got {type(sample).__name__}")
        if len(sample) == 0:
            raise ValueError(f"samples[{i}] is empty")
    lengths = {len(sample) for sample in samples}
    if len(lengths) != 1:
        raise ValueError(f"samples must all have one length, got lengths {sorted(lengths)}")
    lengths = log_spaced(lengths.pop(), points)
    rates = np.array([source.running_rate(sample, base)[lengths - 1] for sample in samples]) + 0.0  # no -0.0
    return SampleRates(lengths, rates, float(source.entropy_rate(base)))


def rate_convergence(source: IIDSource | MarkovSource | MixtureSource, n: int, n_samples: int = 5,
                     seed: int | np.random.Generator | None = 0, points: int = 200, base: float = 2) -> SampleRates:
    """Draw ``n_samples`` samples of length ``n`` from ``source`` (one generator, seeded with
    ``seed``: an int >= 0, ``None`` or a numpy ``Generator``) and return their :func:`sample_rates`.

    Introduced in notebooks/02_entropy.ipynb, section "Going further: one long sample is enough, and when it is not".

    >>> from lmcore.info import MarkovSource
    >>> chain = MarkovSource([[0.9, 0.1], [0.5, 0.5]])
    >>> result = rate_convergence(chain, 10_000, n_samples=3)
    >>> f"{result.entropy_rate:.4f}", result.max_gap < 0.05
    ('0.5575', True)
    """
    _check_source(source)
    n_samples = check_int(n_samples, "n_samples")
    rng = _generator(seed)
    return sample_rates(source, [source.sample(n, seed=rng) for _ in range(n_samples)], points, base)


def _check_source(source) -> None:
    if not isinstance(source, _Source):
        raise TypeError(f"source must be a source of lmcore.info (IIDSource, MarkovSource or MixtureSource), "
                        f"got {type(source).__name__}")
