"""The backoff form of an n-gram model: what :func:`lmcore.ngram.write_arpa` writes.

A model in backoff form gives, beside its own P(w | h) for the n-grams seen in training, the
distribution of each lower order it backs off to and each history's weight:

    P(w | h) = α(h) Q(w | h')   for every word w never seen after h in training,

h' being h without its first token. The estimators that have such a form (add-k, the classic
interpolation, Kneser-Ney) are :class:`BackoffModel` s; the ARPA writer (``arpa_writer``)
writes them, and the reader (``arpa_reader``) reads the form back.
"""

from __future__ import annotations

import abc

import numpy as np

__all__ = ["BackoffModel"]


class BackoffModel(abc.ABC):
    """An n-gram model fitted on counts, in backoff form, which :func:`write_arpa` can write.

    Beside its own P(w | h) for the n-grams seen in training, it gives each order-k
    distribution it backs off to (:meth:`lower_order_probs`) and each history's weight
    α(h) (:meth:`backoff_weights`); :meth:`check_backoff_form` refuses a fitted model
    whose settings leave no (exact) backoff form.
    """

    @abc.abstractmethod
    def lower_order_probs(self, grams: np.ndarray, order: int) -> np.ndarray:
        """Q_k(w | h): the distribution of order k = ``order`` (below the model's) that the model backs
        off to, for each row's k-gram (the last k columns), each a k-gram seen in training."""

    @abc.abstractmethod
    def backoff_weights(self, grams: np.ndarray, order: int) -> np.ndarray:
        """α(h) for each row's history h (the last ``order`` columns, fewer than the model's order),
        seen in training:
        P(w | h) = α(h) Q_k(w | h') for every w never seen after h. A history starting with
        ``<s>`` stands for the whole sentence start (``<s>`` repeated to order - 1 tokens)."""

    def check_backoff_form(self, exact: bool) -> None:  # noqa: B027 (a hook: most models need no check)
        """Raise if this fitted model cannot be written (exactly, when ``exact``); by default it can."""
