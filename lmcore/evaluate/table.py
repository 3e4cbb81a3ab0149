"""Perplexity of several smoothings and orders on one test set: the table of chapters 4 and 5
(:func:`perplexity_table`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from lmcore.evaluate.scoring import evaluate
from lmcore.lm import Sentences
from lmcore.ngram import AddK, Interpolated, KneserNey, check_order, flatten_sentences
from lmcore.text import Vocabulary

__all__ = ["SMOOTHING_METHODS", "PerplexityTable", "perplexity_table"]

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


def perplexity_table(split: tuple[Sentences, Sentences, Sentences], orders: Sequence[int] = (1, 2, 3),
                     methods: Sequence[str] = SMOOTHING_METHODS, vocab: Vocabulary | None = None) -> PerplexityTable:
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
    for name, value in (("orders", orders), ("methods", methods)):
        if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
            raise TypeError(f"{name} must be a list (orders=[1, 2, 3], methods=['kneser-ney']), "
                            f"got {type(value).__name__}")
    orders = tuple(check_order(n) for n in orders)
    unknown = [m for m in methods if m not in SMOOTHING_METHODS]
    if unknown or not methods or not orders:
        raise ValueError(
            f"methods must be some of {SMOOTHING_METHODS} and orders non-empty, got {list(methods)}, {orders}"
        )
    if vocab is None:
        vocab = Vocabulary.build([flatten_sentences(train, "split.train")[0]])
    if "interpolation" in methods and isinstance(heldout, Sequence) and len(heldout) == 0:
        raise ValueError("split.heldout is empty: interpolation fits its λ on held-out sentences")
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
