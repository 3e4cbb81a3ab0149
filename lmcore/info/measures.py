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


# --- measures of a distribution -------------------------------------------------


def surprisal(prob: float, base: float = 2) -> float:
    """Information content of one outcome: ``-log_base(prob)``.

    ``surprisal(0)`` is ``inf``: an outcome the model said could not happen is
    infinitely surprising.

    >>> surprisal(1/8)
    3.0
    """
    base = check_base(base)
    prob = float(check_probabilities([prob], "prob")[0])  # up to PROBABILITY_SUM_TOLERANCE above 1 passes
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
    p, m = _pair(p, m)
    support = p > 0
    if (m[support] == 0).any():
        return math.inf
    return float(-(p[support] * np.log(m[support])).sum() / math.log(base)) + 0.0


def kl_divergence(p: Distribution,
                  m: Distribution, base: float = 2) -> float:
    """Kullback-Leibler divergence ``D(p || m) = Σ_x p(x) log(p(x) / m(x)) = H(p, m) - H(p)``.

    Never negative (Gibbs' inequality); ``inf`` when ``m(x) = 0`` where ``p(x) > 0``
    (see :func:`cross_entropy`).

    >>> kl_divergence([0.5, 0.5], [0.5, 0.5])
    0.0
    """
    base = check_base(base)
    p, m = _pair(p, m)
    support = p > 0
    if (m[support] == 0).any():
        return math.inf
    divergence = float((p[support] * (np.log(p[support]) - np.log(m[support]))).sum() / math.log(base))
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

    A token with probability 0 (log-probability ``-inf``) gives ``(inf, inf)``.

    Introduced in notebooks/04_perplexity.ipynb, section "Perplexity as a branching factor".

    >>> pp, bits = perplexity_from_logprobs([math.log(0.8), math.log(0.2)])
    >>> round(pp, 4), round(bits, 4)
    (2.5, 1.3219)
    >>> perplexity_from_logprobs([-1.0] * 50, log_base=10)[0]  # 50 digits, each 1/10
    10.0
    """
    log_base = check_base(log_base, "log_base")
    try:
        values = np.asarray(logprobs, dtype=float)
    except (TypeError, ValueError):
        raise TypeError("logprobs must contain only numbers") from None
    if values.ndim != 1:
        raise ValueError(f"logprobs must be one-dimensional, got shape {values.shape}")
    if values.size == 0:
        raise ValueError("logprobs is empty: perplexity needs at least one token")
    if np.isnan(values).any():
        raise ValueError("logprobs contains NaN")
    if (values > 1e-12).any():
        raise ValueError(f"logprobs must be <= 0 (probabilities <= 1), got max {values.max()}")
    mean_surprisal = -float(values.mean())  # in the caller's base
    if math.isinf(mean_surprisal):
        return math.inf, math.inf
    return log_base**mean_surprisal, mean_surprisal * math.log2(log_base)


def convert(value: float, from_base: float, to_base: float) -> float:
    """An information quantity converted between log bases: bits (2), nats (e), bans (10).

    >>> convert(1.0, 2, math.e) == math.log(2)
    True
    """
    return float(value) * math.log(check_base(from_base, "from_base")) / math.log(check_base(to_base, "to_base"))


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
                         code: Mapping[Any, str] | None = None) -> float:
    """Average code word length ``Σ_x p(x) |code(x)|`` in bits (Huffman code by default).

    For a Huffman code it lies in ``[H(p), H(p) + 1)``.

    Introduced in notebooks/00_start_here.ipynb, section "A first taste: the horse race".

    >>> expected_code_length([1/2, 1/4, 1/8, 1/8])
    1.75
    """
    weights = check_distribution(probs, "probs")
    code = huffman_code(probs) if code is None else code
    outcomes = list(probs) if isinstance(probs, Mapping) else range(weights.size)
    return float(sum(w * len(code[x]) for x, w in zip(outcomes, weights) if w > 0))
