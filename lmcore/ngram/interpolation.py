"""Linear interpolation: mixing the orders of an n-gram model with weights λ, and choosing λ by EM.

    P(w | h) = λ_1 P_1(w) + λ_2 P_2(w | h_2) + ... + λ_n P_n(w | h_n),   Σ λ_i = 1

The per-order probabilities P_i of a held-out token do not depend on λ, so everything
about λ works on one (tokens x orders) array of them: :func:`interpolated_probs` mixes
them, :func:`interpolated_perplexity` scores a λ, :func:`fit_interpolation_weights` finds
the λ that maximises held-out likelihood (SRILM's compute-best-mix EM), and
:class:`Interpolated` is the model that produces them (:meth:`Interpolated.order_probs`)
and learns its weights (:meth:`Interpolated.fit_lambdas`). Introduced in chapter 5,
*Smoothing and interpolation* (notebooks/05_smoothing_interpolation.ipynb), sections
"Linear interpolation" and "Choosing λ".

>>> p = np.array([[0.5, 0.25], [0.125, 0.5]])   # two tokens, two orders
>>> round(interpolated_perplexity(p, [0.0, 1.0]), 6)   # order 2 alone: 1 / sqrt(0.25 * 0.5)
2.828427
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from lmcore.checks import (
    PROBABILITY_SUM_TOLERANCE,
    check_distribution,
    check_int,
    check_number,
    check_probabilities,
)
from lmcore.info import perplexity_from_logprobs
from lmcore.lm import NotFittedError, Sentences, check_id_rows
from lmcore.ngram.add_k import MLE, AddK
from lmcore.ngram.backoff import BackoffModel
from lmcore.ngram.counted import CountedNgramModel
from lmcore.ngram.counting import NgramCounts, check_order
from lmcore.ngram.model import Convention
from lmcore.text import BOS_ID, Vocabulary

__all__ = [
    "LAMBDA_SUM_TOLERANCE", "EMTrace", "Interpolated", "check_lambdas", "check_order_probs",
    "fit_interpolation_weights", "interpolated_perplexity", "interpolated_probs",
]

# The one tolerance of lmcore.checks (check_distribution allows n weights sum_tolerance(n), never
# less than this); kept under this name as lmcore.ngram exports it.
LAMBDA_SUM_TOLERANCE = PROBABILITY_SUM_TOLERANCE


def check_lambdas(lambdas: object, n_orders: int) -> np.ndarray:
    """``lambdas`` as a float array, checked: ``n_orders`` probabilities, one per order, that sum to 1
    (:func:`lmcore.checks.check_distribution`: slider values such as 0.33/0.33/0.34 pass, a
    forgotten weight does not).

    >>> check_lambdas([0.25, 0.75], 2).tolist()
    [0.25, 0.75]
    >>> check_lambdas([0.5, 0.5], 3)
    Traceback (most recent call last):
    ...
    ValueError: lambdas must hold one weight per order: expected 3, got 2
    """
    weights = check_probabilities(lambdas, "lambdas")
    if weights.size != n_orders:
        raise ValueError(f"lambdas must hold one weight per order: expected {n_orders}, got {weights.size}")
    return check_distribution(weights, "lambdas")


def check_order_probs(order_probs: object, name: str = "order_probs") -> np.ndarray:
    """``order_probs`` as a float array, checked by :func:`lmcore.checks.check_probabilities`:
    two-dimensional (tokens x orders), not empty, every value a probability in [0, 1]; errors
    name the argument ``name``.

    >>> check_order_probs([[0.5, 0.25]]).shape
    (1, 2)
    >>> check_order_probs([0.5, 0.25])
    Traceback (most recent call last):
    ...
    ValueError: order_probs must be two-dimensional, got shape (2,)
    """
    return check_probabilities(order_probs, name, ndim=2)


def interpolated_probs(order_probs: ArrayLike, lambdas: ArrayLike) -> np.ndarray:
    """Linear interpolation of per-order probabilities: ``P(t) = Σ_i λ_i P_i(t)``.

    ``order_probs`` has one row per token and one column per order (lowest first).
    The course's example, P(three | i, spent) = 0.1 P(three) + 0.3 P(three | spent)
    + 0.6 · 0.001:

    Introduced in notebooks/05_smoothing_interpolation.ipynb, section "Linear interpolation".

    >>> float(interpolated_probs([[1 / 9, 0.2, 0.001]], [0.1, 0.3, 0.6])[0].round(6))
    0.071711
    """
    probs = check_order_probs(order_probs)
    return probs @ check_lambdas(lambdas, probs.shape[1])


def interpolated_perplexity(order_probs: ArrayLike, lambdas: ArrayLike) -> float:
    """Perplexity of the interpolated model from its per-order probabilities:
    ``exp(-(1/N) Σ_t ln Σ_i λ_i P_i(t))``.

    The per-order probabilities do not depend on λ, so re-scoring a held-out set for
    new weights is one matrix-vector product, a log and a mean (well under 5 ms for
    100,000 tokens); this is what the interpolation widget calls on every slider move.

    Introduced in notebooks/04_perplexity.ipynb, section "Going further: one fit, three rows, and the learning curve";
    chapter 5 steps through EM in its section "EM, step by step".

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


def fit_interpolation_weights(order_probs: ArrayLike, tolerance: float = 0.001, max_iterations: int = 1000) -> EMTrace:
    """Interpolation weights maximising held-out likelihood, by EM (SRILM compute-best-mix).

    Starting from uniform weights, each iteration sets

        λ_i <- (1/N) Σ_t λ_i P_i(t) / Σ_j λ_j P_j(t)

    (the average share of order ``i`` in each token's mixed probability) and stops when
    every weight moved by at most ``tolerance`` (0.001, SRILM's default), or after
    ``max_iterations`` with ``converged=False``.

    Introduced in notebooks/04_perplexity.ipynb, section "Going further: one fit, three rows, and the learning curve";
    chapter 5 steps through EM in its section "EM, step by step".

    >>> trace = fit_interpolation_weights([[0.1, 0.9], [0.1, 0.8], [0.2, 0.0]])
    >>> [round(x, 2) for x in trace.lambdas], trace.perplexities[0] > trace.perplexities[-1]
    ([0.38, 0.62], True)
    """
    probs = check_order_probs(order_probs)
    tolerance = check_number(tolerance, "tolerance", low=0, high=1, low_open=True, high_open=True)
    max_iterations = check_int(max_iterations, "max_iterations")
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
        tolerance=tolerance,
        perplexities=tuple(perplexities),
        lambda_history=tuple(tuple(float(x) for x in w) for w in history),
        n_tokens=int(usable.shape[0]),
        n_skipped=int((~predictable).sum()),
    )


class Interpolated(CountedNgramModel, BackoffModel):
    """Linear interpolation of models of orders 1..n: ``P(w | h) = Σ_i λ_i P_i(w | h_i)``, Σ λ_i = 1.

    ``components`` is the list of the n models, of orders 1, 2, ..., n, with one convention,
    or just n for the classic mix (the default):

    - P_1 is the add-one unigram ``(c(w) + 1) / (N + |V|)`` over the outcomes (``AddK(1)``),
      so no outcome, not even ``<unk>``, ever gets probability 0.
    - P_i for i >= 2 is the MLE ``c(h_i, w) / c(h_i)`` (``MLE(i)``).

    Where a component has no distribution (an MLE after a history never seen in training,
    or a history shorter than i - 1 tokens), lmcore uses P_{i-1} in its place. Every P_i is
    thus a distribution over the outcomes, whatever the history, so the mix always sums to
    1, and P_i does not depend on λ, so a new λ re-scores with one weighted sum
    (:meth:`order_probs` and :func:`interpolated_perplexity`). :meth:`fit` fits every
    component on the same sentences with one vocabulary (the MLE and add-k components share
    one count table).

    ``lambdas`` (lowest order first) are given, or learned on held-out data by
    :meth:`fit_lambdas` (EM). The course's worked example mixes *add-one* estimates
    (0.1 · 0.111111 + 0.3 · 0.2 + 0.6 · 0.001 = 0.071711): pass
    ``[AddK(1), AddK(2), AddK(3)]``, or compute them with :class:`lmcore.ngram.AddK` and mix
    them with :func:`interpolated_probs`.

    :func:`write_arpa` writes the classic mix of orders 1 and 2 exactly; from order 3 on, the
    fallback above has no compact backoff form, and ``write_arpa(model, path, exact=False)``
    writes the standard conversion, equal to the model after every history seen in training
    (:func:`lmcore.ngram.write_arpa` explains). Other components have no backoff form here.

    Introduced in notebooks/04_perplexity.ipynb, section "From probability to perplexity".

    >>> m = Interpolated(2, lambdas=[0.5, 0.5]).fit([["a", "b"]])
    >>> m.prob("b", ["a"])   # 0.5 * (1 + 1) / (3 + 4) + 0.5 * 1
    0.6428571428571428
    >>> smoothed = Interpolated([AddK(1), AddK(2, k=0.5)], lambdas=[0.5, 0.5]).fit([["a", "b"]])
    >>> round(smoothed.prob("b", ["a"]), 6)   # 0.5 * 2 / 7 + 0.5 * (1 + 0.5) / (1 + 0.5 * 4)
    0.392857
    """

    def __init__(self, components: int | Sequence[CountedNgramModel], lambdas: Sequence[float] | None = None,
                 *, convention: Convention | str = "standard"):
        if isinstance(components, Sequence) and not isinstance(components, str):
            components = list(components)
            order = len(components)
            for i, component in enumerate(components):
                if not isinstance(component, CountedNgramModel) or isinstance(component, Interpolated):
                    raise TypeError(f"components[{i}] must be an lmcore n-gram model fitted on counts "
                                    f"(MLE, AddK, KneserNey), got {type(component).__name__}")
                if component.order != i + 1:
                    raise ValueError(f"components must have orders 1, 2, ..., n in turn; components[{i}] "
                                     f"has order {component.order}")
            if order == 0:
                raise ValueError("components must hold at least one model")
            conventions = {component.convention for component in components}
            if len(conventions) > 1:
                raise ValueError(f"components must share one convention, got {len(conventions)}")
            convention = conventions.pop()
        else:
            order = check_order(components)
            components = [AddK(1, convention=convention)] + [MLE(i, convention=convention)
                                                             for i in range(2, order + 1)]
        super().__init__(order, convention=convention)
        self.components: tuple[CountedNgramModel, ...] = tuple(components)
        self.lambdas = lambdas
        self.em_trace_: EMTrace | None = None

    @property
    def lambdas(self) -> np.ndarray | None:
        """The weights λ_1..λ_n (lowest order first); ``None`` until given or learned."""
        return self._lambdas

    @lambdas.setter
    def lambdas(self, value: ArrayLike | None) -> None:
        self._lambdas = None if value is None else check_lambdas(value, self.order)

    @property
    def classic(self) -> bool:
        """Whether the components are the default add-one unigram and MLEs (which have a backoff form)."""
        first, *rest = self.components
        return (type(first) is AddK and first.k == 1.0 and all(type(c) is MLE for c in rest))

    def _fit_checked(self, ids: np.ndarray, lengths: np.ndarray, vocab: Vocabulary,
                     counts: NgramCounts | None = None) -> CountedNgramModel:
        super()._fit_checked(ids, lengths, vocab, counts)
        for component in self.components:
            if type(component) in (MLE, AddK):  # a formula of the counts: these counts serve
                component.adopt_counts(self)
            else:
                component._fit_checked(ids, lengths, vocab, counts)
        return self

    def _order_probs(self, grams: np.ndarray, context_len: np.ndarray) -> np.ndarray:
        self.check_fitted()
        probs = np.empty((grams.shape[0], self.order))
        for k, component in enumerate(self.components, start=1):
            rows = grams[:, self.order - k:]
            lengths = np.minimum(context_len, k - 1)
            probs[:, k - 1] = component.id_probs(rows, lengths)
            if k > 1:
                defined = (context_len >= k - 1) & component.defined_at(rows)
                probs[:, k - 1] = np.where(defined, probs[:, k - 1], probs[:, k - 2])
        probs[~self._is_outcome[grams[:, -1]]] = 0.0
        return probs

    def order_probs(self, sentences: Sentences) -> np.ndarray:
        """(N tokens x order) array: P_i of every predicted token of ``sentences`` under each order i.

        Rows follow :meth:`token_logprobs`; unknown words are scored as ``<unk>``.
        """
        targets = self.frame(sentences)
        return self._order_probs(targets.grams, targets.context_len)

    def id_probs(self, grams: np.ndarray, context_len: np.ndarray) -> np.ndarray:
        if self._lambdas is None:
            raise NotFittedError("lambdas are not set: pass lambdas= or call fit_lambdas(heldout)")
        grams, context_len = check_id_rows(self, grams, context_len)
        return interpolated_probs(self._order_probs(grams, context_len), self._lambdas)

    def fit_lambdas(self, heldout: Sentences, tolerance: float = 0.001, max_iterations: int = 1000) -> EMTrace:
        """Learn λ by EM on held-out sentences (see :func:`fit_interpolation_weights`).

        Sets :attr:`lambdas` and ``em_trace_`` and returns the trace (iterations, held-out
        perplexity per iteration). Never tune λ on the test set.
        """
        trace = fit_interpolation_weights(self.order_probs(heldout), tolerance, max_iterations)
        self.lambdas, self.em_trace_ = trace.lambdas, trace
        return trace

    # Backoff form: for (h, w) unseen, P(w | h) = Σ_{i<n} λ_i P_i(w | h_i), as P_n(w | h) = 0.
    # So the order-k entries of the file hold Q_k = Σ_{i<=k} λ_i P_i / Λ_k, Λ_k = λ_1 + .. + λ_k,
    # and α(h) = Λ_k / Λ_{k+1} for a history of k words: Q_{k+1}(w | h) = (Λ_k / Λ_{k+1}) Q_k(w | h').
    # After a history h never seen, though, lmcore gives P_{k+1}'s weight to P_k (not to all of
    # Q_k), which no compact backoff form holds: see lmcore.ngram.write_arpa.

    def check_backoff_form(self, exact: bool) -> None:
        if not self.classic:
            raise TypeError("an Interpolated model has a backoff form only with its default components "
                            "(add-one unigram, MLE above): write a KneserNey model instead")
        if self._lambdas is None:
            raise NotFittedError("lambdas are not set: pass lambdas= or call fit_lambdas(heldout)")
        if exact and self.order >= 3:
            raise ValueError(
                f"an Interpolated model of order {self.order} has no exact backoff form: after a history never "
                "seen in training it moves the missing orders' weight to the highest defined order, while an ARPA "
                "reader backs off to the lower orders' mix; exactness would need, for each seen history h, an n-gram "
                "for every word seen after h' (tens of millions on the course's corpora). "
                "write_arpa(model, path, exact=False) "
                "writes the standard conversion, equal to the model wherever the history was seen in training; "
                "KneserNey and AddK are written exactly"
            )
        if self._lambdas[0] == 0:
            raise ValueError(
                "lambdas[0] is 0, so words never seen in training get probability 0, which an ARPA file "
                "cannot represent (its -99 is 10**-99 to KenLM): give the unigram a positive weight"
            )

    def lower_order_probs(self, grams: np.ndarray, order: int) -> np.ndarray:
        probs = self._order_probs(grams, np.full(grams.shape[0], order - 1))[:, :order]
        return probs @ self._lambdas[:order] / self._lambdas[:order].sum()

    def backoff_weights(self, grams: np.ndarray, order: int) -> np.ndarray:
        cumulative = np.cumsum(self._lambdas)
        # after <s> every higher order repeats the MLE of the history, so the whole
        # λ_{k+1} + .. + λ_n = 1 - Λ_k (k = order) sits on the n-grams seen after h: α = Λ_k / 1
        below, above = cumulative[order - 1], cumulative[order]
        return np.where(grams[:, -order] == BOS_ID, below, below / above)
