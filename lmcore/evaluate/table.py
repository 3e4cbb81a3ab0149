"""Perplexity tables: the classic unigram/bigram/trigram table of chapter 4 on several corpora
(:func:`order_table`, from one interpolated fit per corpus), and several smoothings and orders on
one test set (:func:`perplexity_table`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from lmcore.checks import check_int
from lmcore.evaluate.scoring import evaluate
from lmcore.i18n import display_width, pad, tr, translatable
from lmcore.lm import Sentences
from lmcore.ngram import (
    AddK,
    Interpolated,
    KneserNey,
    NgramCounts,
    check_order,
    encode_sentences,
    fit_interpolation_weights,
    interpolated_perplexity,
)
from lmcore.text import Vocabulary

__all__ = ["SMOOTHING_METHODS", "ORDER_NAMES", "order_name", "PerplexityTable", "perplexity_table", "OrderTable",
           "order_table"]

SMOOTHING_METHODS = ("add-one", "interpolation", "kneser-ney")


ORDER_NAMES = {1: translatable("unigram"), 2: translatable("bigram"), 3: translatable("trigram"),
               4: translatable("4-gram"), 5: translatable("5-gram")}


def order_name(n: int) -> str:
    """A row's name: ``unigram``, ``bigram``, ``trigram``, then ``4-gram``, ...
    (the tables show it in the course's language).

    >>> order_name(2), order_name(6)
    ('bigram', '6-gram')
    """
    n = check_int(n, "n")
    return ORDER_NAMES.get(n, f"{n}-gram")


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
        """The table as text in the course's language, perplexities with 2 decimals."""
        header = " " * 15 + "".join(pad(tr(order_name(n)), 10, ">") for n in self.orders)
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
    ``"kneser-ney"`` is ``KneserNey(n)`` with closed-form discounts. The training text is encoded
    and counted once, at the highest order, for all of them (``fit_encoded(..., counts)``): each
    model is, to the last bit, the one ``fit(train, vocab)`` gives.

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
    if "interpolation" in methods and isinstance(heldout, Sequence) and len(heldout) == 0:
        raise ValueError("split.heldout is empty: interpolation fits its λ on held-out sentences")
    ids, lengths, vocab = encode_sentences(train, vocab, name="split.train")
    counts = NgramCounts.from_sentences(ids, lengths, max(orders), max(orders) - 1, 1, len(vocab))
    table = np.empty((len(methods), len(orders)))
    for i, method in enumerate(methods):
        for j, order in enumerate(orders):
            if method == "add-one":
                model = AddK(order, 1.0).fit_encoded(ids, lengths, vocab, counts)
            elif method == "interpolation":
                model = Interpolated(order).fit_encoded(ids, lengths, vocab, counts)
                model.fit_lambdas(heldout)
            else:
                model = KneserNey(order).fit_encoded(ids, lengths, vocab, counts)
            result = evaluate(model, test)
            table[i, j] = result.perplexity
    return PerplexityTable(tuple(methods), orders, table, result.n_tokens, result.n_oov, len(model.outcomes))


@dataclass(frozen=True)
class OrderTable:
    """The classic table: test perplexity of the interpolated unigram, bigram, ... (rows, lowest
    order first) on several corpora (columns), each column from one model and its split.

    ``perplexities[i, j]`` is order ``orders[i]`` on column ``names[j]``; ``lambdas[name][i]`` are
    that order's EM weights (lowest order first, summing to 1). ``train_words`` and ``test_words``
    count words (``</s>`` not included), ``vocabulary`` the model's known words.
    """

    names: tuple[str, ...]
    orders: tuple[int, ...]
    perplexities: np.ndarray
    lambdas: Mapping[str, tuple[np.ndarray, ...]]
    train_words: Mapping[str, int]
    test_words: Mapping[str, int]
    vocabulary: Mapping[str, int]

    def column(self, name: str) -> np.ndarray:
        """The test perplexities of column ``name``, lowest order first."""
        if name not in self.names:
            raise KeyError(f"no column {name!r}; the columns are {list(self.names)}")
        return self.perplexities[:, self.names.index(name)]

    def format(self, reference: Mapping[str, Sequence[float]] | None = None) -> str:
        """The table as text in the course's language: perplexities with 1 decimal, then the
        words and vocabulary of each column; ``reference`` columns (``{"WSJ": [962, 170, 109]}``:
        one perplexity per order, as published) come first, shown as given."""
        reference = dict(reference or {})
        for name, values in reference.items():
            if isinstance(values, (str, bytes)) or not isinstance(values, Sequence) or len(values) != len(self.orders):
                raise ValueError(f"reference[{name!r}] needs one perplexity per order {self.orders}, got {values!r}")
        widths = {name: max(display_width(name), 8) + 2 for name in (*reference, *self.names)}
        lines = [" " * 15 + "".join(pad(name, widths[name], ">") for name in (*reference, *self.names))]
        for i, n in enumerate(self.orders):
            published = "".join(f"{values[i]:>{widths[name]}g}" for name, values in reference.items())
            ours = "".join(f"{self.perplexities[i, j]:>{widths[name]}.1f}" for j, name in enumerate(self.names))
            lines.append(pad(tr(order_name(n)), 15) + published + ours)
        for label, counts in ((translatable("training words"), self.train_words),
                              (translatable("test words"), self.test_words),
                              (translatable("vocabulary"), self.vocabulary)):
            lines.append(pad(tr(label), 15) + "".join(" " * widths[name] for name in reference)
                         + "".join(f"{counts[name]:>{widths[name]},}" for name in self.names))
        return "\n".join(lines)


def order_table(columns: Mapping[str, tuple[Interpolated, tuple[Sentences, Sentences, Sentences]]]) -> OrderTable:
    """Test perplexity of the interpolated model of every order up to each column's model's, and
    its EM weights, from that one fit: ``{name: (model, (train, heldout, test))}``.

    An interpolated model's order-k estimate does not depend on the higher orders, so the
    interpolated bigram is the trigram with λ₃ = 0 and needs no fit of its own. For each order
    n = 1, 2, ..., λ of orders 1..n is fitted by EM on the held-out tokens'
    :meth:`~lmcore.ngram.Interpolated.order_probs` (:func:`~lmcore.ngram.fit_interpolation_weights`)
    and the test perplexity is :func:`~lmcore.ngram.interpolated_perplexity` with that λ:

    .. math::
        \\mathrm{PP}_n = \\exp\\Big(-\\frac{1}{N} \\sum_i \\ln \\sum_{k \\le n} \\lambda_k P_k(w_i \\mid h_i)\\Big)

    the perplexity of ``Interpolated(n)`` fitted on ``train`` with ``model``'s vocabulary and
    tuned by ``fit_lambdas(heldout)`` (the rows :func:`perplexity_table` gives for
    ``"interpolation"``), under ``model``'s convention (by default ``</s>`` counted, unknown
    words as ``<unk>``). ``train`` is counted for the table, not fitted again: pass the
    sentences ``model`` was fitted on.

    Introduced in notebooks/04_perplexity.ipynb, section "The classic table on real text".

    >>> train = [["a", "b", "a", "c"], ["b", "a", "b"], ["a", "c", "a"]] * 5
    >>> split = (train, train[:3], [["a", "b", "a"]])
    >>> table = order_table({"toy": (Interpolated(2).fit(train), split)})
    >>> print(table.format(reference={"course": [3.5, 2.25]}))
                       course       toy
    unigram               3.5       3.4
    bigram               2.25       2.3
    training words                   50
    test words                        3
    vocabulary                        3
    >>> [round(float(x), 3) for x in table.lambdas["toy"][1]]  # the bigram's λ₁, λ₂
    [0.001, 0.999]
    """
    if not isinstance(columns, Mapping) or not columns:
        raise TypeError("columns must be a non-empty dict {name: (model, (train, heldout, test))}")
    orders = set()
    perplexities, lambdas, train_words, test_words, vocabulary = [], {}, {}, {}, {}
    for name, column in columns.items():
        if not (isinstance(column, Sequence) and len(column) == 2):
            raise TypeError(f"columns[{name!r}] must be (model, (train, heldout, test))")
        model, split = column
        if not isinstance(model, Interpolated):
            raise TypeError(f"columns[{name!r}]: the model must be an Interpolated model, got {type(model).__name__}")
        if not (isinstance(split, Sequence) and len(split) == 3):
            raise TypeError(f"columns[{name!r}]: the split must be (train, heldout, test), as "
                            "lmcore.text.split_sentences returns")
        train, heldout, test = split
        if isinstance(heldout, Sequence) and len(heldout) == 0:
            raise ValueError(f"columns[{name!r}]: the held-out part is empty; EM fits λ on held-out sentences")
        orders.add(model.order)
        heldout_probs, test_probs = model.order_probs(heldout), model.order_probs(test)
        fitted = [fit_interpolation_weights(heldout_probs[:, :n]).lambdas for n in range(1, model.order + 1)]
        perplexities.append([interpolated_perplexity(test_probs[:, :n], w) for n, w in enumerate(fitted, start=1)])
        lambdas[name] = tuple(np.asarray(w, dtype=float) for w in fitted)
        train_words[name] = sum(map(len, train))
        test_words[name] = sum(map(len, test))
        vocabulary[name] = model.vocab.n_words
    if len(orders) != 1:
        raise ValueError(f"every column's model must have the same order, got orders {sorted(orders)}")
    return OrderTable(tuple(columns), tuple(range(1, orders.pop() + 1)), np.array(perplexities, dtype=float).T,
                      lambdas, train_words, test_words, vocabulary)
