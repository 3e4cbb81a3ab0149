"""Information theory: entropy, cross-entropy, KL divergence, a distribution's perplexity, Huffman codes.

This module knows nothing about text. A *distribution* is any of

- a sequence or numpy array of probabilities, ``[0.5, 0.25, 0.25]``;
- a dict ``{outcome: probability}``; two dict distributions are aligned by outcome
  (an outcome missing from one side has probability 0 there).

Conventions, the same in every function:

- ``0 · log 0 = 0``: an outcome of probability 0 contributes nothing.
- Probabilities must be finite, non-negative and sum to 1 within
  :func:`lmcore.checks.sum_tolerance` (``max(1e-6, n · 5e-7 + 1e-12)`` for ``n``
  outcomes, so that textbook numbers rounded to six decimals such as 0.333333 pass
  but a forgotten outcome does not); :func:`lmcore.checks.check_distribution` checks them,
  with the same messages everywhere in lmcore.
- ``base`` is the logarithm's base: 2 gives bits (the default), ``math.e`` nats; any
  finite number above 1 (:func:`lmcore.checks.check_base`).

>>> entropy([1/2, 1/4, 1/8, 1/16] + [1/64] * 4)
2.0
>>> round(cross_entropy({"A": 0.5, "B": 0.5}, {"A": 0.8, "B": 0.2}), 4)
1.3219
"""

from __future__ import annotations

import heapq
import math
import numbers
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from lmcore.checks import check_base, check_distribution, check_probabilities

__all__ = ["Distribution", "surprisal", "entropy", "cross_entropy", "kl_divergence", "distribution_perplexity",
           "perplexity_from_logprobs", "convert", "huffman_code", "expected_code_length"]

#: A distribution: a sequence or array of probabilities, or a dict {outcome: probability}.
Distribution = Sequence[float] | np.ndarray | Mapping[Any, float]

# --- two distributions, aligned (the checks themselves are lmcore.checks's) ------------


def _real(value: object, name: str) -> float:
    """``value`` as a float if it is a real number (a numpy number or a 0-d array too; not a bool, not a
    str), else a ``TypeError`` naming ``name``. An int beyond a float's range is ±inf; NaN passes (the
    caller decides)."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, got {type(value).__name__}")
    try:
        return float(value)
    except OverflowError:  # an int beyond a float's range
        return math.inf if value > 0 else -math.inf


def _pair(p, m) -> tuple[np.ndarray, np.ndarray]:
    """Two distributions as aligned arrays: dicts by outcome, sequences by position."""
    p_is_dict, m_is_dict = isinstance(p, Mapping), isinstance(m, Mapping)
    if p_is_dict != m_is_dict:
        raise TypeError("p and m must both be dicts or both be sequences, so that outcomes can be aligned")
    if p_is_dict:
        outcomes = list(dict.fromkeys([*p, *m]))
        p = [p.get(x, 0.0) for x in outcomes]
        m = [m.get(x, 0.0) for x in outcomes]
    p_array, m_array = check_distribution(p, "p"), check_distribution(m, "m")
    if p_array.shape != m_array.shape:
        raise ValueError(f"p and m have different lengths: {p_array.size} and {m_array.size}")
    return p_array, m_array


def _on_support(p, m) -> tuple[np.ndarray, np.ndarray]:
    """The aligned probabilities of ``p`` and ``m`` where ``p(x) > 0`` (0 · log 0 = 0 leaves out the rest)."""
    p, m = _pair(p, m)
    support = p > 0
    return p[support], m[support]


# --- measures of a distribution -------------------------------------------------


def surprisal(prob: float, base: float = 2) -> float:
    """Information content of one outcome: ``-log_base(prob)``.

    ``surprisal(0)`` is ``inf``: an outcome the model said could not happen is
    infinitely surprising.

    >>> surprisal(1/8)
    3.0
    """
    base = check_base(base)
    if isinstance(prob, np.ndarray) and prob.ndim == 0:
        prob = prob.item()
    if isinstance(prob, (Sequence, Mapping, np.ndarray)) and not isinstance(prob, (str, bytes)):
        raise TypeError(f"prob must be a number, got {type(prob).__name__}")
    if isinstance(prob, numbers.Integral) and not isinstance(prob, bool):
        prob = _real(prob, "prob")  # an int beyond a float's range is inf, refused as such
    # a rounding error up to PROBABILITY_SUM_TOLERANCE above 1 passes; a str or a bool is no number
    prob = float(check_probabilities([prob], "prob")[0])
    prob = min(prob, 1.0)  # a rounding error above 1 is certainty: never a negative surprisal
    return math.inf if prob == 0 else -math.log(prob) / math.log(base) + 0.0


def entropy(p: Distribution, base: float = 2) -> float:
    """Shannon entropy ``H(p) = -Σ_x p(x) log p(x)``, with 0 · log 0 = 0.

    Introduced in notebooks/00_start_here.ipynb, section "A first taste: the horse race".

    >>> entropy([0.5, 0.5]), round(entropy([0.25, 0.75]), 4)
    (1.0, 0.8113)
    """
    base = check_base(base)
    p = check_distribution(p, "p")
    nonzero = p[p > 0]
    return float(-(nonzero * np.log(nonzero)).sum() / math.log(base)) + 0.0


def cross_entropy(p: Distribution,
                  m: Distribution, base: float = 2) -> float:
    """Cross-entropy ``H(p, m) = -Σ_x p(x) log m(x)``: the average code length when
    data from ``p`` is coded with a code built for ``m``.

    Outcomes with ``p(x) = 0`` contribute nothing. If ``m(x) = 0`` where
    ``p(x) > 0``, the result is ``inf``, not an error: the model ``m`` said an
    outcome that does happen is impossible, so coding it needs an infinitely long
    code word. This is exactly the "zero probability gives infinite perplexity"
    case of language models.

    >>> cross_entropy([0.5, 0.5], [0.5, 0.5])
    1.0
    """
    base = check_base(base)
    p, m = _on_support(p, m)
    if (m == 0).any():
        return math.inf
    return float(-(p * np.log(m)).sum() / math.log(base)) + 0.0


def kl_divergence(p: Distribution, m: Distribution, base: float = 2) -> float:
    """Kullback-Leibler divergence ``D(p || m) = Σ_x p(x) log(p(x) / m(x)) = H(p, m) - H(p)``.

    Never negative (Gibbs' inequality); ``inf`` when ``m(x) = 0`` where ``p(x) > 0``
    (see :func:`cross_entropy`).

    >>> kl_divergence([0.5, 0.5], [0.5, 0.5])
    0.0
    """
    base = check_base(base)
    p, m = _on_support(p, m)
    if (m == 0).any():
        return math.inf
    divergence = float((p * (np.log(p) - np.log(m))).sum() / math.log(base))
    return max(divergence, 0.0)  # rounding can give -1e-17 for m == p


def distribution_perplexity(p: Distribution, base: float = 2) -> float:
    """Perplexity of a distribution, ``base ** H(p)``: the number of equally likely
    outcomes that would be as uncertain. The result does not depend on ``base``.

    Introduced in notebooks/04_perplexity.ipynb, section "Perplexity as a branching factor".

    >>> distribution_perplexity([1/8] * 8)
    8.0
    """
    base = check_base(base)
    return float(base ** entropy(p, base))


# --- per-token log-probabilities ---------------------------------------------------


def perplexity_from_logprobs(logprobs: ArrayLike, log_base: float = math.e) -> tuple[float, float]:
    """``(perplexity, cross-entropy in bits per token)`` of per-token log-probabilities.

    ``log_base`` says in which base the caller's logs are (``math.e`` for natural
    logs, 2 for ``log2``, 10 for ARPA/KenLM scores); the results are the same
    whichever base was used:

        H = -(1/N) Σ_t log2 P(w_t),   PP = 2 ** H = exp(-(1/N) Σ_t ln P(w_t))

    A token with probability 0 (log-probability ``-inf``) gives ``(inf, inf)``, and so does a
    perplexity beyond the largest float. A log-probability up to 1e-12 above 0 is a rounding error
    of log 1 and counts as 0; a bool or a str is not a log-probability.

    Introduced in notebooks/04_perplexity.ipynb, section "Perplexity as a branching factor".

    >>> pp, bits = perplexity_from_logprobs([math.log(0.8), math.log(0.2)])
    >>> round(pp, 4), round(bits, 4)
    (2.5, 1.3219)
    >>> perplexity_from_logprobs([-1.0] * 50, log_base=10)[0]  # 50 digits, each 1/10
    10.0
    """
    log_base = check_base(log_base, "log_base")
    values = _logprobs(logprobs)
    mean_surprisal = -float(values.mean()) + 0.0  # in the caller's base; + 0.0: no -0.0 for certainty
    if math.isinf(mean_surprisal):
        return math.inf, math.inf
    try:
        perplexity = log_base**mean_surprisal
    except OverflowError:  # beyond the largest float (a mean of -800 nats): as good as infinite
        perplexity = math.inf
    return perplexity, mean_surprisal * math.log2(log_base)


_LOGPROB_ROUNDING = 1e-12  # how far above 0 a log-probability may be: log(1) computed a hair high


def _logprobs(logprobs: object) -> np.ndarray:
    """Log-probabilities (a sequence or an array of numbers, not bools or strings) as a 1-d float
    array: not empty, no NaN, none above 0 (a rounding error up to 1e-12 counts as 0); ``-inf``
    (probability 0) passes."""
    kind = type(logprobs).__name__
    if isinstance(logprobs, (str, bytes, Mapping)):
        raise TypeError(f"logprobs must be a sequence or array of numbers, got {kind}")
    try:
        array = np.asarray(logprobs)
    except (TypeError, ValueError):  # ragged lists
        raise TypeError("logprobs must contain only numbers") from None
    if array.ndim == 0:  # a single number, a generator, ...
        raise TypeError(f"logprobs must be a sequence or array of numbers, got {kind}")
    if array.dtype == object and all(isinstance(x, numbers.Real) and not isinstance(x, bool) for x in array.flat):
        array = np.array([_real(x, "logprobs") for x in array.flat]).reshape(array.shape)  # ints beyond a float
    if array.dtype.kind not in "iuf":  # str, bool, complex, None, ...
        raise TypeError("logprobs must contain only numbers")
    values = array.astype(float)
    if values.ndim != 1:
        raise ValueError(f"logprobs must be one-dimensional, got shape {values.shape}")
    if values.size == 0:
        raise ValueError("logprobs is empty: perplexity needs at least one token")
    if np.isnan(values).any():
        raise ValueError("logprobs contains NaN")
    if (values > _LOGPROB_ROUNDING).any():
        raise ValueError(f"logprobs must be <= 0 (probabilities <= 1), got max {values.max()}")
    return np.minimum(values, 0.0)


def convert(value: float, from_base: float, to_base: float) -> float:
    """An information quantity converted between log bases: bits (2), nats (e), bans (10).

    ``value`` is any real number (not a bool or a str): information may be negative (a
    difference) or infinite (the surprisal of an impossible outcome), never NaN.

    >>> convert(1.0, 2, math.e) == math.log(2)
    True
    """
    value = _real(value, "value")
    if math.isnan(value):
        raise ValueError("value is NaN: not an amount of information")
    return value * math.log(check_base(from_base, "from_base")) / math.log(check_base(to_base, "to_base"))


# --- Huffman codes ------------------------------------------------------------------


def huffman_code(probs: Distribution) -> dict[Any, str]:
    """Optimal prefix code words (strings of '0'/'1') for each outcome.

    Outcomes are the dict's keys, or the positions 0..k-1 of a sequence. Ties are
    broken deterministically: among equal weights, the subtree created first
    (outcomes in their given order, then merged nodes in order of creation) is
    taken first, and the first node taken gets bit '0'. Outcomes with probability 0
    get no code word. A single possible outcome gets the empty code word '': a
    certain outcome tells nothing, so it costs 0 bits.

    Introduced in notebooks/00_start_here.ipynb, section "A first taste: the horse race".

    >>> huffman_code([1/2, 1/4, 1/8, 1/8])
    {0: '0', 1: '10', 2: '110', 3: '111'}
    """
    weights = check_distribution(probs, "probs")
    outcomes = list(probs) if isinstance(probs, Mapping) else list(range(weights.size))
    heap = [(w, i, (outcome,)) for i, (outcome, w) in enumerate(zip(outcomes, weights)) if w > 0]
    codes = {outcome: "" for _, _, (outcome,) in heap}
    heapq.heapify(heap)
    order = len(heap)
    while len(heap) > 1:
        w0, _, group0 = heapq.heappop(heap)
        w1, _, group1 = heapq.heappop(heap)
        for outcome in group0:
            codes[outcome] = "0" + codes[outcome]
        for outcome in group1:
            codes[outcome] = "1" + codes[outcome]
        heapq.heappush(heap, (w0 + w1, order, group0 + group1))
        order += 1
    return {outcome: codes[outcome] for outcome in outcomes if outcome in codes}


def expected_code_length(probs: Distribution,
                         code: Mapping[Any, str] | Sequence[str] | None = None) -> float:
    """Average code word length ``Σ_x p(x) |code(x)|`` in bits (Huffman code by default).

    For a Huffman code it lies in ``[H(p), H(p) + 1)``.

    ``code`` gives each outcome its code word, a str of ``0`` and ``1``, aligned as the
    outcomes of ``probs`` are (as :func:`huffman_code` returns it): for a dict of
    probabilities, a dict keyed by the same outcomes; for a sequence, a dict keyed by the
    positions 0..k-1 or a sequence of k code words. Every outcome of probability above 0 needs
    a code word (outcomes of probability 0 may have none, and a dict code may hold words for
    outcomes ``probs`` does not list). A code keyed otherwise (symbols for a list of
    probabilities) is refused with the reason, never read by the wrong keys.

    Introduced in notebooks/00_start_here.ipynb, section "A first taste: the horse race".

    >>> expected_code_length([1/2, 1/4, 1/8, 1/8])
    1.75
    >>> expected_code_length({"a": 0.5, "b": 0.5}, {"a": "0", "b": "1"})
    1.0
    >>> expected_code_length([0.5, 0.5], {"a": "0", "b": "1"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: code is keyed by 'a', 'b' but probs is a sequence, whose outcomes are the positions 0..1: ...
    """
    weights = check_distribution(probs, "probs")
    if code is None:
        code = huffman_code(probs)
    outcomes = list(probs) if isinstance(probs, Mapping) else list(range(weights.size))
    words = _code_words(code, outcomes, isinstance(probs, Mapping))
    missing = [x for x, w in zip(outcomes, weights) if w > 0 and x not in words]
    if missing:
        raise ValueError(f"code has no code word for {missing[0]!r}, an outcome of probability "
                         f"{weights[outcomes.index(missing[0])]:g}")
    return float(sum(w * len(words[x]) for x, w in zip(outcomes, weights) if w > 0))


def _code_words(code: object, outcomes: list, by_outcome: bool) -> dict:
    """``code`` as a dict {outcome: code word}, checked against the ``outcomes`` of the probabilities."""
    if isinstance(code, (str, bytes)) or not isinstance(code, (Mapping, Sequence)):
        raise TypeError(f"code must be a dict {{outcome: code word}} (or a list of code words), "
                        f"got {type(code).__name__}")
    if not isinstance(code, Mapping):
        if by_outcome:
            raise TypeError("code must be a dict keyed by the outcomes of probs (a dict), got a "
                            f"{type(code).__name__}: a list of code words has no outcomes to align them by")
        if len(code) != len(outcomes):
            raise ValueError(f"code has {len(code)} code words for {len(outcomes)} probabilities")
        code = dict(enumerate(code))
    elif not by_outcome:
        stray = [key for key in code if not (isinstance(key, numbers.Integral) and not isinstance(key, bool)
                                             and 0 <= key < len(outcomes))]
        if stray:
            shown = ", ".join(map(repr, stray[:3])) + (", ..." if len(stray) > 3 else "")
            raise ValueError(f"code is keyed by {shown} but probs is a sequence, whose outcomes are the positions "
                             f"0..{len(outcomes) - 1}: key the code by position, or give probs as a dict "
                             "{outcome: probability}")
    for key, word in code.items():
        if not isinstance(word, str):
            raise TypeError(f"code[{key!r}] must be a str of 0s and 1s, got {type(word).__name__}")
        if word.strip("01"):
            raise ValueError(f"code[{key!r}] is {word!r}, not a binary code word (only '0' and '1')")
    return dict(code)
