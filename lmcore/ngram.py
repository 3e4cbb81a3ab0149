"""N-gram language models counted in numpy: MLE, add-k (Laplace), linear interpolation, Kneser-Ney.

A model of order n predicts each token from the n - 1 tokens before it. Sentences
are framed by a :class:`Convention`: by default (as KenLM and SRILM) each sentence
gets n - 1 ``<s>`` before it (context only, never predicted) and one ``</s>`` after
it (predicted, like a word). Every model is an :class:`NgramModel`
(:mod:`lmcore.model`); counts are kept in numpy tables (:mod:`lmcore.counting`) and
looked up by tokens (``model.count(history, word)``, ``model.continuations(history)``).
Introduced in chapter 4, *Perplexity* (notebooks/04_perplexity.ipynb), section "The
toy corpus by hand", and chapter 5, *Smoothing and interpolation*.

Models (all probabilities of an *outcome*: a known word, ``<unk>`` in an open
vocabulary, ``</s>`` when sentences end with it; never ``<s>``, except under nltk's
convention):

- :class:`MLE`: ``P(w | h) = c(h, w) / c(h)``; an unseen history gives 0 (as nltk),
  and its :meth:`~NgramModel.next_word_distribution` raises, as it is undefined.
- :class:`AddK`: ``P(w | h) = (c(h, w) + k) / (c(h) + k |V|)``, |V| = number of
  outcomes; ``k = 1`` is Laplace.
- :class:`Interpolated`: ``P(w | h) = Σ_i λ_i P_i(w | h_i)`` (:mod:`lmcore.interpolation`).
- :class:`KneserNey`: interpolated modified Kneser-Ney, as KenLM's ``lmplz`` (:mod:`lmcore.kneser_ney`).

:meth:`~NgramModel.to_arpa` writes a model as an ARPA file (:mod:`lmcore.arpa_writer`),
:func:`perplexity_table` compares smoothings and orders on one test set.

A context shorter than n - 1 (the first words of a sentence when ``start_padding``
is below n - 1, or a short ``context`` passed to :meth:`~NgramModel.prob`) is scored
by the model of order ``len(context) + 1``: the course scores the first test word
with its unigram model this way.

>>> toy = [s.split() for s in ("i spent three years", "before the mast", "i spent money")]
>>> bigram = AddK(2, k=1, convention="course").fit(toy)
>>> bigram.prob("three", ["spent"]), round(bigram.prob("years"), 6)  # (1+1)/(2+8), (1+1)/(10+8)
(0.2, 0.111111)
"""


from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from lmcore.counting import INT64_MAX, NgramCounts, NgramTable, TokenCounts, check_order, flatten_sentences
from lmcore.evaluate import evaluate
from lmcore.interpolation import EMTrace, Interpolated
from lmcore.kneser_ney import FALLBACK_DISCOUNTS, KneserNey, kneser_ney_discounts
from lmcore.model import CONVENTIONS, Convention, NgramModel, NotFittedError, TokenScores
from lmcore.vocab import BOS_ID, Vocabulary

__all__ = [
    "CONVENTIONS", "FALLBACK_DISCOUNTS", "INT64_MAX", "SMOOTHING_METHODS", "AddK", "Convention", "EMTrace",
    "Interpolated", "KneserNey", "MLE", "NgramCounts", "NgramModel", "NgramTable", "NotFittedError",
    "PerplexityTable", "TokenCounts", "TokenScores", "kneser_ney_discounts", "perplexity_table",
]


class MLE(NgramModel):
    """Maximum-likelihood estimate ``P(w | h) = c(h, w) / c(h)``.

    c(h) counts h as a history. An unseen history gives every word probability 0 (as
    nltk does), so a test set containing one has perplexity inf;
    :meth:`next_word_distribution` raises there, as the distribution is undefined.
    It has no ARPA form (:meth:`to_arpa` refuses): ARPA cannot hold a probability 0.

    Introduced in notebooks/04_perplexity.ipynb, section "Why test on unseen text".

    >>> m = MLE(2).fit([["a", "b"], ["a", "c"]])
    >>> m.prob("b", ["a"]), m.prob("a", ["<s>"]), m.prob("a", ["zzz"])
    (0.5, 1.0, 0.0)
    """

    def id_probs(self, grams: np.ndarray, context_len: np.ndarray) -> np.ndarray:
        return self._probs_from_counts(grams, context_len, self._estimate)

    @staticmethod
    def _estimate(c_hw: np.ndarray, c_h: np.ndarray) -> np.ndarray:
        return np.where(c_h > 0, c_hw / np.maximum(c_h, 1), 0.0)

    def check_backoff_form(self, exact: bool) -> None:
        # ARPA has no log10(0): by convention -99 stands for it, but KenLM reads that as
        # 10**-99, so lmcore's inf perplexity would come back as a finite number
        raise TypeError(
            "MLE cannot be written as an ARPA file: it gives unseen words and n-grams probability 0, "
            "which ARPA cannot represent (-99 would make KenLM's perplexity finite where lmcore's is inf); "
            "write a smoothed model (KneserNey, Interpolated, AddK)"
        )


class AddK(NgramModel):
    """Add-k smoothing ``P(w | h) = (c(h, w) + k) / (c(h) + k |V|)``; ``k = 1`` is Laplace.

    |V| is the number of outcomes (:attr:`outcomes`): by default the known words,
    ``<unk>`` and ``</s>``; 8 under the course's convention; nltk's ``len(vocab)``
    under ``convention="nltk"``. An unseen history gives the uniform 1/|V|.
    :meth:`to_arpa` writes it exactly: each history's unseen n-grams share k / (c(h) + k|V|),
    a backoff weight times a uniform lower order.

    Introduced in notebooks/04_perplexity.ipynb, section "From probability to perplexity".

    >>> toy = [s.split() for s in ("i spent three years", "before the mast", "i spent money")]
    >>> round(AddK(1, convention="course").fit(toy).prob("three"), 6)  # (1 + 1) / (10 + 8)
    0.111111
    """

    def __init__(self, order: int, k: float = 1.0, *, convention: Convention | str = "standard"):
        super().__init__(order, convention=convention)
        if isinstance(k, bool) or not isinstance(k, (int, float, np.integer, np.floating)):
            raise TypeError(f"k must be a number, got {type(k).__name__}")
        if not (k > 0 and math.isfinite(k)):
            raise ValueError(f"k must be > 0 and finite, got {k} (k = 0 is the MLE model)")
        self.k = float(k)

    def id_probs(self, grams: np.ndarray, context_len: np.ndarray) -> np.ndarray:
        return self._probs_from_counts(grams, context_len, self._estimate)

    def _estimate(self, c_hw: np.ndarray, c_h: np.ndarray) -> np.ndarray:
        return (c_hw + self.k) / (c_h + self.k * self.outcome_ids.size)

    # Backoff form: every n-gram unseen after h gets the same k / (c(h) + k|V|), which is
    # α(h) = k|V| / (c(h) + k|V|) times a uniform 1/|V|. So the lower orders of the file are
    # uniform (they are only ever backed off to) and the top order's histories carry α(h).

    def check_backoff_form(self, exact: bool) -> None:
        pass

    def lower_order_probs(self, grams: np.ndarray, k: int) -> np.ndarray:
        return np.full(grams.shape[0], 1.0 / self.outcome_ids.size)

    def backoff_weights(self, grams: np.ndarray, k: int) -> np.ndarray:
        c_h = self.counts.tables[k].history_count(self.counts.history_keys(grams, k))
        k_v = self.k * self.outcome_ids.size
        # a sentence-start history stands for <s> * (order - 1), a history at the top order
        top = (k == self.order - 1) | (grams[:, -k] == BOS_ID)
        return np.where(top, k_v / (c_h + k_v), 1.0)


SMOOTHING_METHODS = ("add-one", "interpolation", "kneser-ney")


@dataclass(frozen=True)
class PerplexityTable:
    """Test perplexity of each smoothing method (rows) at each order (columns).

    ``n_tokens`` test tokens are counted (words and ``</s>``), ``n_oov`` of them outside
    the vocabulary of ``n_outcomes`` outcomes (scored as ``<unk>``).
    """

    methods: tuple[str, ...]
    orders: tuple[int, ...]
    perplexities: np.ndarray
    n_tokens: int
    n_oov: int
    n_outcomes: int

    def format(self, title: str = "") -> str:
        """The table as text, perplexities with 2 decimals."""
        names = {1: "unigram", 2: "bigram", 3: "trigram"}
        header = f"{'':<15}" + "".join(f"{names.get(n, f'{n}-gram'):>10}" for n in self.orders)
        rows = [f"{method:<15}" + "".join(f"{x:>10.2f}" for x in row)
                for method, row in zip(self.methods, self.perplexities)]
        return "\n".join(([title] if title else []) + [header] + rows)


def perplexity_table(split, orders: Sequence[int] = (1, 2, 3), methods: Sequence[str] = SMOOTHING_METHODS,
                     vocab: Vocabulary | None = None) -> PerplexityTable:
    """Test perplexity for each smoothing method and order, with one vocabulary and one test set.

    ``split`` is ``(train, heldout, test)``, as :func:`lmcore.text.split_sentences` returns.
    Every model is fitted on ``train`` with ``vocab`` (default: every training word) under
    the standard convention and scored on ``test`` (corpus perplexity, ``</s>`` counted,
    unknown words as ``<unk>``). Methods: ``"add-one"`` is ``AddK(n, 1)``;
    ``"interpolation"`` is ``Interpolated(n)`` with λ by EM on ``heldout``;
    ``"kneser-ney"`` is ``KneserNey(n)`` with closed-form discounts.

    >>> train = [["a", "b", "a", "c"], ["b", "a", "b"], ["a", "c", "a"]] * 5
    >>> print(perplexity_table((train, train[:3], [["a", "b", "a"]]), orders=(1, 2)).format())
                      unigram    bigram
    add-one              3.43      2.59
    interpolation        3.43      2.30
    kneser-ney           3.41      2.46
    """
    if not (isinstance(split, Sequence) and len(split) == 3):
        raise TypeError("split must be (train, heldout, test), as lmcore.text.split_sentences returns")
    train, heldout, test = split
    orders = tuple(check_order(n) for n in orders)
    unknown = [m for m in methods if m not in SMOOTHING_METHODS]
    if unknown or not methods or not orders:
        raise ValueError(
            f"methods must be some of {SMOOTHING_METHODS} and orders non-empty, got {list(methods)}, {orders}"
        )
    if vocab is None:
        vocab = Vocabulary.build([flatten_sentences(train, "split.train")[0]])
    table = np.empty((len(methods), len(orders)))
    for i, method in enumerate(methods):
        for j, order in enumerate(orders):
            if method == "add-one":
                model = AddK(order, 1.0).fit(train, vocab)
            elif method == "interpolation":
                model = Interpolated(order).fit(train, vocab)
                model.fit_lambdas(heldout)
            else:
                model = KneserNey(order).fit(train, vocab)
            result = evaluate(model, test)
            table[i, j] = result.perplexity
    return PerplexityTable(tuple(methods), orders, table, result.n_tokens, result.n_oov, len(model.outcomes))
