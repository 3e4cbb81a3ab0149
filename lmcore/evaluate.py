"""Perplexity and cross-entropy with explicit conventions, and interpolation weights by EM.

For a model scoring the predicted tokens ``w_1 .. w_N`` of a test set,

    H = -(1/N) Σ_t log2 P(w_t | h_t)   (bits per token),     PP = 2 ** H

summed over the *whole* test set (corpus level): total log-probability over total
tokens, never the mean of per-sentence perplexities (that mean, which Hugging Face
``evaluate`` reports as ``mean_perplexity``, is a different number; see
:func:`sentence_perplexities`).

What is counted is a choice; lmcore's choices are arguments with defaults, and here
is where they match the reference tools:

===============  ======================  ============  ====================  ======================
convention       lmcore (default)        KenLM         SRILM ``ngram -ppl``  nltk.lm ``perplexity``
===============  ======================  ============  ====================  ======================
``<s>``          context, never scored   same          same                  same, when padded
``</s>``         predicted and counted   same          ``ppl``: same;        ``pad_both_ends``: n-1
                 (``eos="count"``)                     ``ppl1``: scored,     of them, all predicted
                                                       not in N
                                                       (``eos="ppl1"``)
unknown word     scored as ``<unk>``     same          left out, reported    scored as ``<UNK>``
                 (``unknown="unk"``)                   as OOV
                                                       (``"exclude"``)
known word,      counted: PP = inf,      never         left out as           PP = inf
P = 0            token reported          happens       "zeroprob"
aggregation      corpus                  corpus        corpus                mean over the n-grams
                                         (``query``)                         passed (= corpus)
|V| of add-k     outcomes: words,        -             -                     ``len(vocab)``: words,
                 ``<unk>``, ``</s>``                                         ``<UNK>``, ``<s>``,
                                                                             ``</s>``
===============  ======================  ============  ====================  ======================

The model side of the conventions (padding, |V|) is ``lmcore.ngram.Convention``;
``convention="nltk"`` reproduces nltk.lm's MLE, Laplace and Lidstone perplexities
exactly (tests/test_nltk_parity.py).

lmcore never drops a zero-probability token silently (SRILM does, as "zeroprobs"):
the perplexity is ``inf`` and :attr:`PerplexityResult.zero_probability_tokens` names
the tokens. nltk returns ``inf`` even where a smoothed model should be finite: its
Kneser-Ney gives ``<s>`` and unseen words probability 0 (nltk issues 3065, 3211) and
its Witten-Bell gives unseen words 0; lmcore's smoothed models (add-k, interpolated)
give every outcome a positive probability.

Interpolation weights: :func:`fit_interpolation_weights` is SRILM's compute-best-mix
EM on held-out per-token probabilities of each order; :func:`interpolated_perplexity`
re-scores a held-out set for new weights with one weighted sum, a log and a mean.

>>> p = np.array([[0.5, 0.25], [0.125, 0.5]])   # two tokens, two orders
>>> round(interpolated_perplexity(p, [0.0, 1.0]), 6)   # order 2 alone: 1 / sqrt(0.25 * 0.5)
2.828427
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from lmcore.info import perplexity_from_logprobs

__all__ = [
    "EMTrace",
    "PerplexityResult",
    "check_lambdas",
    "check_order_probs",
    "cross_entropy",
    "evaluate",
    "fit_interpolation_weights",
    "interpolated_perplexity",
    "interpolated_probs",
    "perplexity",
    "perplexity_from_logprobs",
    "sentence_perplexities",
]

LAMBDA_SUM_TOLERANCE = 1e-6  # slider values such as 0.33/0.33/0.34 pass, a forgotten weight does not
UNKNOWN_MODES = ("unk", "exclude", "zero")
EOS_MODES = ("count", "ppl1", "exclude")


# --- interpolation weights ----------------------------------------------------------


def check_lambdas(lambdas, n_orders: int) -> np.ndarray:
    """``lambdas`` as a float array, checked: ``n_orders`` finite, non-negative weights summing to 1."""
    if isinstance(lambdas, (str, bytes)) or not hasattr(lambdas, "__len__"):
        raise TypeError(f"lambdas must be a sequence of {n_orders} numbers, got {type(lambdas).__name__}")
    try:
        weights = np.asarray(lambdas, dtype=float)
    except (TypeError, ValueError):
        raise TypeError("lambdas must contain only numbers") from None
    if weights.shape != (n_orders,):
        raise ValueError(f"lambdas must hold one weight per order: expected {n_orders}, got shape {weights.shape}")
    if not np.isfinite(weights).all():
        raise ValueError(f"lambdas must be finite, got {weights.tolist()}")
    if (weights < 0).any():
        raise ValueError(f"lambdas must be non-negative, got {weights.tolist()}")
    total = float(weights.sum())
    if abs(total - 1.0) > LAMBDA_SUM_TOLERANCE:
        raise ValueError(f"lambdas sum to {total:.6g}, expected 1")
    return weights


def check_order_probs(order_probs, name: str = "order_probs") -> np.ndarray:
    """``order_probs`` as a float array, checked: shape (tokens, orders), both >= 1, every
    value a probability in [0, 1]; errors name the argument ``name``.

    >>> check_order_probs([[0.5, 0.25]]).shape
    (1, 2)
    """
    try:
        probs = np.asarray(order_probs, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a 2-d array of numbers (tokens x orders)") from None
    if probs.ndim != 2 or probs.shape[0] == 0 or probs.shape[1] == 0:
        raise ValueError(f"{name} must be a non-empty 2-d array (tokens x orders), got shape {probs.shape}")
    if not (probs.min() >= 0.0 and probs.max() <= 1.0):  # also catches NaN
        raise ValueError(f"{name} must hold probabilities in [0, 1] (no NaN)")
    return probs


def interpolated_probs(order_probs, lambdas) -> np.ndarray:
    """Linear interpolation of per-order probabilities: ``P(t) = Σ_i λ_i P_i(t)``.

    ``order_probs`` has one row per token and one column per order (lowest first).
    The course's example, P(three | i, spent) = 0.1 P(three) + 0.3 P(three | spent)
    + 0.6 · 0.001:

    >>> float(interpolated_probs([[1 / 9, 0.2, 0.001]], [0.1, 0.3, 0.6])[0].round(6))
    0.071711
    """
    probs = check_order_probs(order_probs)
    return probs @ check_lambdas(lambdas, probs.shape[1])


def interpolated_perplexity(order_probs, lambdas) -> float:
    """Perplexity of the interpolated model from its per-order probabilities:
    ``exp(-(1/N) Σ_t ln Σ_i λ_i P_i(t))``.

    The per-order probabilities do not depend on λ, so re-scoring a held-out set for
    new weights is one matrix-vector product, a log and a mean (well under 5 ms for
    100,000 tokens); this is what the interpolation widget calls on every slider move.

    >>> round(interpolated_perplexity([[0.5, 0.25], [0.125, 0.5]], [0.5, 0.5]), 4)  # 1 / sqrt(0.375 * 0.3125)
    2.9212
    """
    mixed = interpolated_probs(order_probs, lambdas)
    with np.errstate(divide="ignore"):
        return perplexity_from_logprobs(np.log(mixed))[0]


@dataclass(frozen=True)
class EMTrace:
    """What EM did: the weights after each iteration and the held-out perplexity for each.

    ``lambda_history[i]`` and ``perplexities[i]`` are the weights after ``i`` updates
    (``i = 0`` is the uniform start) and the held-out perplexity they give; EM never
    raises it. ``n_skipped`` tokens had probability 0 under every order (say ``<unk>``
    in a closed vocabulary) and could not inform the weights; the perplexities are
    over the other tokens.
    """

    lambdas: tuple[float, ...]
    iterations: int
    converged: bool
    tolerance: float
    perplexities: tuple[float, ...]
    lambda_history: tuple[tuple[float, ...], ...]
    n_tokens: int
    n_skipped: int


def fit_interpolation_weights(order_probs, tolerance: float = 0.001, max_iterations: int = 1000) -> EMTrace:
    """Interpolation weights maximising held-out likelihood, by EM (SRILM compute-best-mix).

    Starting from uniform weights, each iteration sets

        λ_i <- (1/N) Σ_t λ_i P_i(t) / Σ_j λ_j P_j(t)

    (the average share of order ``i`` in each token's mixed probability) and stops when
    every weight moved by at most ``tolerance`` (0.001, SRILM's default), or after
    ``max_iterations`` with ``converged=False``.

    >>> trace = fit_interpolation_weights([[0.1, 0.9], [0.1, 0.8], [0.2, 0.0]])
    >>> [round(x, 2) for x in trace.lambdas], trace.perplexities[0] > trace.perplexities[-1]
    ([0.38, 0.62], True)
    """
    probs = check_order_probs(order_probs)
    if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)) or not 0 < tolerance < 1:
        raise ValueError(f"tolerance must be a number in (0, 1), got {tolerance!r}")
    if isinstance(max_iterations, bool) or not isinstance(max_iterations, int) or max_iterations < 1:
        raise ValueError(f"max_iterations must be an integer >= 1, got {max_iterations!r}")
    predictable = probs.sum(axis=1) > 0
    usable = probs[predictable]
    if usable.shape[0] == 0:
        raise ValueError("order_probs: every token has probability 0 under every order; nothing to fit")
    n_orders = usable.shape[1]
    weights = np.full(n_orders, 1.0 / n_orders)
    history, perplexities = [weights], []
    converged = False
    for _ in range(max_iterations):
        mixed = usable @ weights
        perplexities.append(math.exp(-float(np.log(mixed).mean())))
        # responsibilities λ_i P_i(t) / Σ_j λ_j P_j(t) of each order, averaged over the tokens
        new_weights = weights * (usable / mixed[:, None]).mean(axis=0)
        new_weights /= new_weights.sum()  # guards the sum against rounding drift
        moved = float(np.abs(new_weights - weights).max())
        weights = new_weights
        history.append(weights)
        if moved <= tolerance:
            converged = True
            break
    perplexities.append(math.exp(-float(np.log(usable @ weights).mean())))
    return EMTrace(
        lambdas=tuple(float(x) for x in weights),
        iterations=len(history) - 1,
        converged=converged,
        tolerance=float(tolerance),
        perplexities=tuple(perplexities),
        lambda_history=tuple(tuple(float(x) for x in w) for w in history),
        n_tokens=int(usable.shape[0]),
        n_skipped=int((~predictable).sum()),
    )


# --- perplexity of a model on sentences ---------------------------------------------------


@dataclass(frozen=True)
class PerplexityResult:
    """A model's corpus-level perplexity on a test set, with the counts behind it.

    ``cross_entropy`` is in bits per counted token and ``perplexity = 2 ** cross_entropy``;
    ``total_logprob`` is the natural-log probability summed over the scored tokens;
    ``n_tokens`` counts the tokens in the denominator (predicted words, plus ``</s>``
    under ``eos="count"``); ``n_oov`` counts the test tokens outside the vocabulary,
    whatever ``unknown`` did with them; ``zero_probability_tokens`` lists
    ``(sentence index, position, token)`` of every scored token with probability 0
    (``</s>`` has position ``len(sentence)``).
    """

    perplexity: float
    cross_entropy: float
    n_tokens: int
    n_oov: int
    zero_probability_tokens: tuple[tuple[int, int, str], ...]
    total_logprob: float
    unknown: str
    eos: str


def _check_modes(unknown: str, eos: str) -> None:
    if unknown not in UNKNOWN_MODES:
        raise ValueError(f"unknown must be one of {UNKNOWN_MODES}, got {unknown!r}")
    if eos not in EOS_MODES:
        raise ValueError(f"eos must be one of {EOS_MODES}, got {eos!r}")


def _scored(model, sentences, unknown: str, eos: str):
    """Per-token log-probabilities after the conventions, and which tokens enter the sum and the count."""
    _check_modes(unknown, eos)
    if not hasattr(model, "score_tokens"):
        raise TypeError(f"model must be a fitted lmcore.ngram model, got {type(model).__name__}")
    scores = model.score_tokens(sentences)
    logprobs = scores.logprobs.copy()
    if unknown == "zero":
        logprobs[scores.is_oov] = -math.inf
    in_sum = ~scores.is_oov if unknown == "exclude" else np.ones(logprobs.size, dtype=bool)
    if eos == "exclude":
        in_sum &= ~scores.is_eos
    in_count = in_sum & ~scores.is_eos if eos == "ppl1" else in_sum
    return scores, logprobs, in_sum, in_count


def evaluate(model, sentences, *, unknown: str = "unk", eos: str = "count") -> PerplexityResult:
    """Corpus-level perplexity and cross-entropy of ``model`` on ``sentences``.

        H = -(1/N) Σ_t log2 P(w_t | h_t),   PP = 2 ** H

    - ``unknown="unk"`` (default, as KenLM and nltk): an out-of-vocabulary word is
      scored as ``<unk>``; ``"exclude"`` (as SRILM): left out of the sum and of N;
      ``"zero"``: scored as probability 0 (so PP = inf).
    - ``eos="count"`` (default, as KenLM and SRILM ``ppl``): ``</s>`` is predicted and
      counted in N; ``"ppl1"``: its log-probability stays in the sum but it leaves N
      (SRILM ``ppl1``); ``"exclude"``: left out of both. ``<s>`` is never scored.

    A token of probability 0 makes the perplexity ``inf`` (never NaN, never an
    exception) and is listed in ``zero_probability_tokens``.

    >>> from lmcore.ngram import AddK
    >>> toy = [s.split() for s in ("i spent three years", "before the mast", "i spent money")]
    >>> test = ["i spent three years before the mast".split()]
    >>> round(evaluate(AddK(2, convention="course").fit(toy), test).perplexity, 4)
    4.9508
    """
    scores, logprobs, in_sum, in_count = _scored(model, sentences, unknown, eos)
    n_tokens = int(in_count.sum())
    if n_tokens == 0:
        raise ValueError("sentences: no tokens left to count under these conventions")
    total = float(logprobs[in_sum].sum())
    zero_rows = np.flatnonzero(in_sum & np.isneginf(logprobs))
    zero_tokens = tuple(
        (int(s), int(p), _token_at(sentences, int(s), int(p)))
        for s, p in zip(scores.sentence_index[zero_rows], scores.position[zero_rows])
    )
    nats_per_token = -total / n_tokens
    return PerplexityResult(
        perplexity=math.exp(nats_per_token) if nats_per_token < 709 else math.inf,
        cross_entropy=nats_per_token / math.log(2),
        n_tokens=n_tokens,
        n_oov=int(scores.is_oov.sum()),
        zero_probability_tokens=zero_tokens,
        total_logprob=total,
        unknown=unknown,
        eos=eos,
    )


def _token_at(sentences, sentence_index: int, position: int) -> str:
    sentence = sentences[sentence_index]
    return sentence[position] if position < len(sentence) else "</s>"


def perplexity(model, sentences, *, unknown: str = "unk", eos: str = "count") -> float:
    """``evaluate(model, sentences, ...).perplexity``."""
    return evaluate(model, sentences, unknown=unknown, eos=eos).perplexity


def cross_entropy(model, sentences, *, unknown: str = "unk", eos: str = "count") -> float:
    """``evaluate(model, sentences, ...).cross_entropy``, in bits per token."""
    return evaluate(model, sentences, unknown=unknown, eos=eos).cross_entropy


def sentence_perplexities(model, sentences, *, unknown: str = "unk", eos: str = "count") -> np.ndarray:
    """Each sentence's own perplexity, same conventions as :func:`evaluate`.

    For teaching a pitfall: their mean is *not* the corpus perplexity (short sentences
    weigh as much as long ones, and a mean of exponentials is not the exponential of a
    mean). A sentence with no counted token gets NaN.
    """
    scores, logprobs, in_sum, in_count = _scored(model, sentences, unknown, eos)
    n = len(sentences)
    totals = np.bincount(scores.sentence_index[in_sum], weights=logprobs[in_sum], minlength=n)
    counts = np.bincount(scores.sentence_index[in_count], minlength=n)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return np.exp(-totals / counts)
