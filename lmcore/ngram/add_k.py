"""The two simplest n-gram estimators: add-k (Laplace) and maximum likelihood, which is add-0.

>>> toy = [s.split() for s in ("i spent three years", "before the mast", "i spent money")]
>>> bigram = AddK(2, k=1, convention="course").fit(toy)
>>> bigram.prob("three", ["spent"]), round(bigram.prob("years"), 6)  # (1+1)/(2+8), (1+1)/(10+8)
(0.2, 0.111111)
"""

from __future__ import annotations

import numpy as np

from lmcore.checks import check_number
from lmcore.ngram.backoff import BackoffModel
from lmcore.ngram.counted import CountedNgramModel
from lmcore.ngram.model import Convention
from lmcore.text import BOS_ID

__all__ = ["MLE", "AddK"]


class MLE(CountedNgramModel):
    """Maximum-likelihood estimate ``P(w | h) = c(h, w) / c(h)``.

    c(h) counts h as a history. An unseen history gives every word probability 0 (as
    nltk does), so a test set containing one has perplexity inf;
    :meth:`next_word_distribution` raises there, as the distribution is undefined.
    It has no ARPA form (:func:`write_arpa` refuses): ARPA cannot hold a probability 0.

    Introduced in notebooks/04_perplexity.ipynb, section "Why test on unseen text".

    >>> m = MLE(2).fit([["a", "b"], ["a", "c"]])
    >>> m.prob("b", ["a"]), m.prob("a", ["<s>"]), m.prob("a", ["zzz"])
    (0.5, 1.0, 0.0)
    """

    # ARPA has no log10(0): by convention -99 stands for it, but KenLM reads that as
    # 10**-99, so lmcore's inf perplexity would come back as a finite number
    NO_BACKOFF_FORM = (
        "it gives unseen words and n-grams probability 0, which ARPA cannot represent (-99 would make "
        "KenLM's perplexity finite where lmcore's is inf); write a smoothed model (KneserNey, Interpolated, AddK)"
    )

    def id_probs(self, grams: np.ndarray, context_len: np.ndarray) -> np.ndarray:
        return self._probs_from_counts(grams, context_len, self._estimate)

    @staticmethod
    def _estimate(c_hw: np.ndarray, c_h: np.ndarray) -> np.ndarray:
        return np.where(c_h > 0, c_hw / np.maximum(c_h, 1), 0.0)

    def defined_at(self, grams: np.ndarray) -> np.ndarray:
        return self._lookup_counts(self.order, grams)[1] > 0


class AddK(CountedNgramModel, BackoffModel):
    """Add-k smoothing ``P(w | h) = (c(h, w) + k) / (c(h) + k |V|)``; ``k = 1`` is Laplace.

    |V| is the number of outcomes (:attr:`outcomes`): by default the known words,
    ``<unk>`` and ``</s>``; 8 under the course's convention; nltk's ``len(vocab)``
    under ``convention="nltk"``. An unseen history gives the uniform 1/|V|.
    :func:`write_arpa` writes it exactly: each history's unseen n-grams share k / (c(h) + k|V|),
    a backoff weight times a uniform lower order.

    Introduced in notebooks/04_perplexity.ipynb, section "From probability to perplexity".

    >>> toy = [s.split() for s in ("i spent three years", "before the mast", "i spent money")]
    >>> round(AddK(1, convention="course").fit(toy).prob("three"), 6)  # (1 + 1) / (10 + 8)
    0.111111
    """

    def __init__(self, order: int, k: float = 1.0, *, convention: Convention | str = "standard"):
        super().__init__(order, convention=convention)
        try:
            self.k = check_number(k, "k", low=0, low_open=True)
        except ValueError as error:
            hint = " (k = 0 is the MLE model)" if k <= 0 else ""
            raise ValueError(f"{error}{hint}") from None

    def id_probs(self, grams: np.ndarray, context_len: np.ndarray) -> np.ndarray:
        return self._probs_from_counts(grams, context_len, self._estimate)

    def _estimate(self, c_hw: np.ndarray, c_h: np.ndarray) -> np.ndarray:
        return (c_hw + self.k) / (c_h + self.k * self.outcome_ids.size)

    # Backoff form: every n-gram unseen after h gets the same k / (c(h) + k|V|), which is
    # α(h) = k|V| / (c(h) + k|V|) times a uniform 1/|V|. So the lower orders of the file are
    # uniform (they are only ever backed off to) and the top order's histories carry α(h).

    def lower_order_probs(self, grams: np.ndarray, order: int) -> np.ndarray:
        return np.full(grams.shape[0], 1.0 / self.outcome_ids.size)

    def backoff_weights(self, grams: np.ndarray, order: int) -> np.ndarray:
        c_h = self.counts.tables[order].history_count(self.counts.history_keys(grams, order))
        k_v = self.k * self.outcome_ids.size
        # a sentence-start history stands for <s> * (order - 1), a history at the top order
        top = (order == self.order - 1) | (grams[:, -order] == BOS_ID)  # the history is the top order's
        return np.where(top, k_v / (c_h + k_v), 1.0)
