"""N-gram models trained from counts: fit on sentences, a text file or encoded ids, then look
the training counts up by tokens.

:class:`CountedNgramModel` is the base of MLE, add-k, interpolation and Kneser-Ney: it
counts the n-grams of orders 1..n of the framed training text in numpy tables
(``counting``) and answers ``count(word, context)``, ``context_count(context)``,
``continuations(context)``, ``ngram_counts(order)`` and, for a whole test set at once,
``token_counts(sentences)``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import numpy as np
from numpy.typing import ArrayLike

from lmcore.checks import check_int, check_str
from lmcore.lm import Sentences, check_encoded, check_id_rows, context_rows, flatten_sentences
from lmcore.ngram.counting import NgramCounts, NgramIndex, TokenCounts
from lmcore.ngram.model import Convention, NgramModel
from lmcore.text import BOS_ID, EOS_ID, UNK_ID, Vocabulary, encode_lines

__all__ = ["CountedNgramModel", "encode_sentences", "lower_orders"]

def lower_orders(counts: NgramCounts, order: int) -> NgramCounts:
    """Orders 1..``order`` of ``counts``, the very arrays :meth:`NgramCounts.from_sentences` gives when it
    counts at ``order`` itself, provided both countings framed each sentence with ``order - 1`` or more
    ``<s>`` and one ``</s>`` and left the n-grams of ``<s>`` alone uncounted (``count_padding=False``):
    such an n-gram ends at no predicted token and gets no row, and every other k-gram has its whole
    history either way. tests/unit/test_order_table.py checks the arrays, order by order.

    >>> from lmcore.ngram import NgramCounts
    >>> ids, lengths = np.array([3, 4, 5, 3, 4]), np.array([3, 2])
    >>> top = NgramCounts.from_sentences(ids, lengths, 3, 2, 1, 6)
    >>> len(lower_orders(top, 2).tables), lower_orders(top, 2).tables[1] is top.tables[1]
    (2, True)
    """
    if not 1 <= check_int(order, "order") <= len(counts.tables):
        raise ValueError(f"these counts go up to order {len(counts.tables)}, not {order}")
    return NgramCounts(NgramIndex(counts.base, counts.index.nodes[:max(order - 2, 0)]), counts.tables[:order])


def encode_sentences(sentences: Sentences, vocab: Vocabulary | None = None, min_count: int = 1,
                     name: str = "sentences") -> tuple[np.ndarray, np.ndarray, Vocabulary]:
    """``(ids, lengths, vocab)``: ``sentences`` (lists of str tokens) as :meth:`CountedNgramModel.fit`
    reads them, for ``fit_encoded``: every sentence's ids in a row, each sentence's length, and the
    vocabulary, built from the sentences (words seen ``min_count`` times or more) unless given.
    A sentence that holds ``<s>`` or ``</s>`` is refused by ``fit_encoded``: lmcore adds them itself.

    >>> ids, lengths, vocab = encode_sentences([["i", "spent"], ["i"]])
    >>> ids.tolist(), lengths.tolist(), len(vocab)
    ([3, 4, 3], [2, 1], 5)
    """
    tokens, lengths = flatten_sentences(sentences, name)
    if vocab is None:
        vocab = Vocabulary.build([tokens], min_count)  # counts the same as one call per sentence
    elif not isinstance(vocab, Vocabulary):
        raise TypeError(f"vocab must be an lmcore Vocabulary, got {type(vocab).__name__}")
    elif min_count != 1:
        raise ValueError("give either vocab or min_count, not both: min_count is for building a vocabulary")
    ids = vocab.encode(tokens)
    del tokens  # the flat list is as large as the ids: gone before counting
    return ids, lengths, vocab


class CountedNgramModel(NgramModel):
    """An n-gram model trained from the counts of its training text.

    A subclass supplies :meth:`id_probs`; one whose estimate is a formula of c(h, w) and
    c(h) (MLE, add-k) computes it with :meth:`_probs_from_counts`.
    """

    def __init__(self, order: int, *, convention: Convention | str = "standard"):
        super().__init__(order, convention=convention)
        self.counts: NgramCounts | None = None

    # -- fitting

    def fit(self, sentences: Sentences, vocab: Vocabulary | None = None, min_count: int = 1) -> CountedNgramModel:
        """Count n-grams of orders 1..n in ``sentences`` (lists of str tokens); returns the model.

        The vocabulary is built from ``sentences`` (words seen ``min_count`` times or more)
        unless ``vocab`` is given; words outside it are counted as ``<unk>``. The sentences
        are raw tokens: lmcore adds ``<s>`` and ``</s>`` as the convention says.

        >>> from lmcore.ngram import MLE
        >>> model = MLE(2).fit([["i", "spent", "money"]])                  # right
        >>> model = MLE(2).fit([["<s>", "i", "spent", "money", "</s>"]])   # wrong
        Traceback (most recent call last):
        ...
        ValueError: sentences[0] holds the marker '<s>' at position 0: lmcore adds <s> and </s> itself (...), ...
        """
        return self.fit_encoded(*encode_sentences(sentences, vocab, min_count))

    def fit_text(self, source: str | Path | Iterable[str], vocab: Vocabulary | None = None, min_count: int = 1,
                 tokenizer: Callable[[str], list[str]] | None = None) -> CountedNgramModel:
        """:meth:`fit` on the lines of a text file (a file name) or of any iterable of lines, one sentence
        a line, split at whitespace as KenLM's ``lmplz`` reads them (or by ``tokenizer``: str -> list of str),
        read in chunks straight to ids: no list of str tokens is held (:func:`lmcore.text.encode_lines`).
        The model is the one :meth:`fit` gives on the same sentences as token lists."""
        return self._fit_checked(*encode_lines(source, vocab, min_count, tokenizer))  # checked as it was read

    def fit_encoded(self, ids: ArrayLike, lengths: ArrayLike, vocab: Vocabulary,
                    counts: NgramCounts | None = None) -> CountedNgramModel:
        """:meth:`fit` on sentences already encoded: ``ids`` holds every sentence's vocabulary ids
        in a row (any integer array, e.g. int32 from ``vocab.encode``), ``lengths`` the length
        of each sentence. No list of str tokens is needed, which saves memory on large corpora.

        ``counts``, to count a text once for models of several orders (as
        :func:`lmcore.evaluate.perplexity_table` does): ``NgramCounts.from_sentences(ids, lengths,
        N, N - 1, 1, len(vocab))`` of these very ``ids`` at an order N no lower than this model's;
        the model takes its orders from them (:func:`lower_orders`), the arrays its own counting
        would give. Only a model that frames sentences that way can (the standard convention).

        >>> from lmcore.ngram import MLE
        >>> vocab = Vocabulary(["i", "spent", "money"])
        >>> ids = vocab.encode(["i", "spent", "money", "i", "spent"])
        >>> MLE(2).fit_encoded(ids, [3, 2], vocab).count("spent", ["i"])
        2
        """
        return self._fit_checked(*check_encoded(ids, lengths, vocab), vocab, counts)

    def _fit_checked(self, ids: np.ndarray, lengths: np.ndarray, vocab: Vocabulary,
                     counts: NgramCounts | None = None) -> CountedNgramModel:
        """:meth:`fit_encoded` of ids already checked (in range, no markers: refused once per fit)."""
        n_start, n_end = self.convention.padding(self.order)
        if counts is not None:
            self._check_shared_counts(counts, vocab, n_start, n_end)
        if lengths.sum() + n_end * lengths.size == 0:
            raise ValueError("sentences has no tokens to predict")
        if not self.convention.open_vocabulary and (ids == UNK_ID).any():
            raise ValueError("sentences has words outside the vocabulary, but the convention's vocabulary is "
                             "closed (open_vocabulary=False): use min_count=1 or an open vocabulary")
        is_outcome = np.ones(len(vocab), dtype=bool)
        is_outcome[BOS_ID] = self.convention.bos_outcome and n_start > 0
        is_outcome[EOS_ID] = n_end > 0
        is_outcome[UNK_ID] = self.convention.open_vocabulary
        self.vocab, self._is_outcome = vocab, is_outcome
        self.outcome_ids = np.flatnonzero(is_outcome)
        if counts is not None:
            self.counts = lower_orders(counts, self.order)  # what the counting below gives
        else:
            self.counts = NgramCounts.from_sentences(ids, lengths, self.order, n_start, n_end, len(vocab),
                                                     count_padding=self._counts_padding())
        return self

    def adopt_counts(self, model: CountedNgramModel) -> CountedNgramModel:
        """This model, fitted on the fitted ``model``'s training counts: the same vocabulary, outcomes
        and count tables, shared, not copied. For an estimate that is a formula of the counts (MLE,
        add-k) of the same convention, as :class:`~lmcore.ngram.Interpolated` shares its counts
        with its components; returns the model.

        >>> from lmcore.ngram import MLE, AddK
        >>> counted = MLE(2).fit([["a", "b"]])
        >>> AddK(2, k=1).adopt_counts(counted).prob("b", ["a"])   # (1 + 1) / (1 + 4)
        0.4
        """
        if not isinstance(model, CountedNgramModel):
            raise TypeError(f"model must be an lmcore n-gram model fitted on counts, got {type(model).__name__}")
        counts = model._check_counted()
        if model.order < self.order or model.convention != self.convention:
            raise ValueError(f"model must have this model's convention and order {self.order} or more, "
                             f"got order {model.order}")
        self.vocab, self.counts = model.vocab, counts
        self._is_outcome, self.outcome_ids = model._is_outcome, model.outcome_ids
        return self

    def _check_shared_counts(self, counts: NgramCounts, vocab: Vocabulary, n_start: int, n_end: int) -> None:
        if not isinstance(counts, NgramCounts):
            raise TypeError(f"counts must be NgramCounts, got {type(counts).__name__}")
        if counts.base != len(vocab) or len(counts.tables) < self.order:
            raise ValueError(f"counts must be of this vocabulary ({len(vocab)} ids) up to order {self.order} or "
                             f"more, got {counts.base} ids up to order {len(counts.tables)}")
        if n_start < self.order - 1 or n_end != 1 or self._counts_padding():
            raise ValueError(f"this {type(self).__name__}({self.order}) frames sentences with {n_start} <s> and "
                             f"{n_end} </s>{' and counts the padding' if self._counts_padding() else ''}: fit it "
                             "without shared counts")

    def _counts_padding(self) -> bool:
        """Whether the count tables hold the n-grams of ``<s>`` padding alone: as the convention's
        ``everygrams`` says (nltk's), unless the estimator never counts them (Kneser-Ney)."""
        return self.convention.everygrams

    # -- probabilities from counts

    def _lookup_counts(self, k: int, grams: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(c(h, w), c(h))`` of the k-gram ending at each row's predicted id."""
        table = self.counts.tables[k - 1]
        keys = self.counts.keys(grams, k)
        return table.count(keys), table.history_count(keys // self.counts.base)

    def defined_at(self, grams: np.ndarray) -> np.ndarray:
        """Whether the model has a distribution after each row's history (the last order - 1 ids
        before the predicted one): True unless an estimate is undefined there (MLE after a
        history never seen)."""
        return np.ones(grams.shape[0], dtype=bool)

    def _probs_from_counts(self, grams: np.ndarray, context_len: np.ndarray,
                           estimate: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> np.ndarray:
        """:meth:`id_probs` of a model whose estimate is ``estimate(c(h, w), c(h))`` at each row's order."""
        grams, context_len = check_id_rows(self, grams, context_len)
        probs = np.empty(grams.shape[0])
        for k in range(1, self.order + 1):
            rows = np.flatnonzero(context_len == k - 1)
            if rows.size:
                probs[rows] = estimate(*self._lookup_counts(k, grams[rows]))
        return probs

    # -- counts, looked up by tokens

    def _check_counted(self) -> NgramCounts:
        self.check_fitted()
        if self.counts is None:
            raise TypeError(f"a {type(self).__name__} has no training counts (it was read from a file)")
        return self.counts

    def count(self, word: str, context: Sequence[str] = ()) -> int:
        """c(context, word): how often ``word`` followed ``context`` in the framed training text.

        ``context`` holds at most order - 1 tokens and may hold ``<s>``; unknown words count
        as ``<unk>``. With an empty context it is the unigram count c(word).

        >>> from lmcore.ngram import MLE
        >>> model = MLE(2).fit([["i", "spent", "three", "years"], ["i", "spent", "money"]])
        >>> model.count("spent", ["i"]), model.count("i", ["<s>"]), model.count("spent")
        (2, 2, 2)
        """
        check_str(word, "word")
        self._check_counted()
        grams, context_len = context_rows(self, context, np.array([self.vocab.id(word)]))
        return int(self._lookup_counts(int(context_len[0]) + 1, grams)[0][0])

    def context_count(self, context: Sequence[str] = ()) -> int:
        """c(context) = Σ_w c(context, w): how often ``context`` was seen *as a history* (followed
        by a predicted token). With an empty context: the number of predicted training tokens.

        >>> from lmcore.ngram import MLE
        >>> model = MLE(2).fit([["i", "spent", "three", "years"], ["i", "spent", "money"]])
        >>> model.context_count(["spent"]), model.context_count()   # 7 words + 2 </s>
        (2, 9)
        """
        self._check_counted()
        grams, context_len = context_rows(self, context, np.array([UNK_ID]))
        return int(self._lookup_counts(int(context_len[0]) + 1, grams)[1][0])

    def continuations(self, context: Sequence[str] = ()) -> dict[str, int]:
        """Every token seen after ``context`` in training, with its count c(context, w), most
        frequent first (ties by vocabulary order). As nltk's ``counts[context]``.

        >>> from lmcore.ngram import MLE
        >>> model = MLE(2).fit([["i", "spent", "three", "years"], ["i", "spent", "money"]])
        >>> model.continuations(["spent"])
        {'money': 1, 'three': 1}
        """
        counts = self._check_counted()
        grams, context_len = context_rows(self, context, np.array([UNK_ID]))
        _, ids, seen = counts.continuations(grams[:, grams.shape[1] - 1 - int(context_len[0]):-1])
        by_count = np.argsort(-seen, kind="stable")
        return {token: int(c) for token, c in zip(self.vocab.decode(ids[by_count]), seen[by_count])}

    def _check_count_order(self, order: object) -> int:
        """``order`` as an int from 1 to the model's order (:func:`lmcore.checks.check_int`)."""
        return check_int(order, "order", maximum=self.order, maximum_label=f"the model's order {self.order}")

    def ngram_counts(self, order: int) -> dict[tuple[str, ...], int]:
        """Every distinct n-gram of ``order`` seen in training (padding markers included) with its
        count, in id order; ``len(model.ngram_counts(order))`` is the number of distinct ones.

        Introduced in notebooks/05_smoothing_interpolation.ipynb, section 'Going further: a "Francisco" in the
        English corpus' (for the P_cont of section "Beyond linear interpolation").

        >>> from lmcore.ngram import MLE
        >>> model = MLE(2).fit([["i", "spent", "money"]])
        >>> model.ngram_counts(2)
        {('<s>', 'i'): 1, ('i', 'spent'): 1, ('money', '</s>'): 1, ('spent', 'money'): 1}
        """
        counts = self._check_counted()
        order = self._check_count_order(order)
        rows = counts.ngram_ids(order)
        tokens = np.array(self.vocab.tokens, dtype=object)[rows]
        return {tuple(row): int(c) for row, c in zip(tokens.tolist(), counts.tables[order - 1].counts.tolist())}

    def token_counts(self, sentences: Sequence[Sequence[str]], order: int | None = None) -> TokenCounts:
        """The training counts behind every predicted token of ``sentences``, at ``order``
        (default: the model's order), framed as for scoring: c(h, w), c(h) and N1+(h •) per
        token, in the order of :meth:`token_logprobs`. Where a token has fewer than order - 1
        tokens before it (no ``<s>`` padding), its shorter history is used.

        Introduced in notebooks/05_smoothing_interpolation.ipynb, section "Choosing k on held-out data".

        >>> from lmcore.ngram import MLE
        >>> model = MLE(2).fit([["i", "spent", "three", "years"], ["i", "spent", "money"]])
        >>> counts = model.token_counts([["i", "spent", "time"]])   # <s> i, i spent, spent time, time </s>
        >>> counts.ngram_counts.tolist(), counts.history_counts.tolist(), counts.history_types.tolist()
        ([2, 2, 0, 0], [2, 2, 2, 0], [1, 1, 2, 0])
        """
        counts = self._check_counted()
        k = self._check_count_order(self.order if order is None else order)
        targets = self.frame(sentences)
        orders = np.minimum(targets.context_len + 1, k)
        found = np.zeros((3, orders.size), dtype=np.int64)
        for j in range(1, k + 1):
            rows = np.flatnonzero(orders == j)
            if rows.size:
                table = counts.tables[j - 1]
                keys = counts.keys(targets.grams[rows], j)
                found[0, rows] = table.count(keys)
                found[1, rows] = table.history_count(keys // counts.base)
                found[2, rows] = table.history_type_count(keys // counts.base)
        return TokenCounts(int(k), *found)
