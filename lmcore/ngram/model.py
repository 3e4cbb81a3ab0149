"""The n-gram model's contract: how sentences are framed (:class:`Convention`) and what every
model does (:class:`NgramModel`): fit, look counts up by tokens, score, give distributions, sample.

A model of order n predicts each token from the n - 1 tokens before it. Sentences are
framed by a :class:`Convention`: by default (as KenLM and SRILM) each sentence gets n - 1
``<s>`` before it (context only, never predicted) and one ``</s>`` after it (predicted,
like a word). lmcore adds these markers itself: a sentence passed to ``fit`` or scored
must not contain them. The models themselves (MLE, add-k, interpolation, Kneser-Ney) are in
:mod:`lmcore.ngram`, :mod:`lmcore.ngram` and :mod:`lmcore.ngram`.
"""

from __future__ import annotations

import abc
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from lmcore.ngram.arpa_writer import write_arpa
from lmcore.ngram.counting import (
    FramedTokens,
    NgramCounts,
    TokenCounts,
    check_encoded,
    check_markers,
    check_order,
    flatten_sentences,
    frame_sentences,
)
from lmcore.text import BOS_ID, EOS_ID, UNK_ID, Vocabulary, encode_lines

__all__ = [
    "CONVENTIONS", "Convention", "NgramModel", "NotFittedError", "TokenScores", "resolve_convention",
]


class NotFittedError(ValueError):
    """A model was asked to score before ``fit``."""


@dataclass(frozen=True)
class Convention:
    """How sentences are framed and which tokens a model predicts.

    - ``start_padding``: ``<s>`` tokens before each sentence, context only
      (``None``: order - 1).
    - ``end_markers``: ``</s>`` tokens after each sentence, each predicted
      (``None``: order - 1, as nltk's ``pad_both_ends``; 0: sentences just stop).
    - ``open_vocabulary``: ``<unk>`` is an outcome (counted in |V|), so an unknown
      word gets a probability; closed (``False``): it gets 0 and the training text
      must have no word outside the vocabulary.
    - ``bos_outcome``: ``<s>`` counts as an outcome when sentences are padded with
      it: nltk does so, as its vocabulary holds ``<s>`` like a word.

    Named conventions (:data:`CONVENTIONS`):

    - ``"standard"``: as KenLM and SRILM.
    - ``"course"``: the course's toy code. No ``<s>`` or ``</s>``, so the first word
      of a sentence is scored by the unigram model (the first n - 1 words by the lower
      orders); a closed |V| = the training words (8 on the toy corpus), so an unknown
      test word has probability 0. It gives the course's 8.0155 and 4.9508.
    - ``"nltk"``: ``padded_everygram_pipeline`` plus ``pad_both_ends``; |V| = nltk's
      ``len(vocab)``, which holds ``<UNK>``, ``<s>`` and ``</s>``.

    ``Convention(start_padding=0, end_markers=0)`` is the course's framing with
    ``<unk>`` in |V| (9 on the toy corpus): nltk's unpadded 8.4608 and 5.4547.
    """

    start_padding: int | None = None
    end_markers: int | None = 1
    open_vocabulary: bool = True
    bos_outcome: bool = False

    def padding(self, order: int) -> tuple[int, int]:
        """``(number of <s>, number of </s>)`` around each sentence for a model of ``order``."""
        start = order - 1 if self.start_padding is None else self.start_padding
        end = order - 1 if self.end_markers is None else self.end_markers
        return start, end


CONVENTIONS = {
    "standard": Convention(),
    "course": Convention(start_padding=0, end_markers=0, open_vocabulary=False),
    "nltk": Convention(end_markers=None, bos_outcome=True),
}


def resolve_convention(convention) -> Convention:
    if isinstance(convention, Convention):
        for name in ("start_padding", "end_markers"):
            value = getattr(convention, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
                raise ValueError(f"convention.{name} must be None or an integer >= 0, got {value!r}")
        for name in ("open_vocabulary", "bos_outcome"):
            if not isinstance(getattr(convention, name), bool):
                raise TypeError(f"convention.{name} must be True or False, got {getattr(convention, name)!r}")
        return convention
    if isinstance(convention, str) and convention in CONVENTIONS:
        return CONVENTIONS[convention]
    raise ValueError(f"convention must be a Convention or one of {sorted(CONVENTIONS)}, got {convention!r}")


@dataclass(frozen=True)
class TokenScores:
    """Natural-log probability of every predicted token of a test set, and which token it was.

    ``position`` is the index in the sentence (``len(sentence) + j`` for the j-th ``</s>``);
    ``is_oov`` marks words outside the vocabulary (scored as ``<unk>``).
    """

    logprobs: np.ndarray
    token_ids: np.ndarray
    sentence_index: np.ndarray
    position: np.ndarray
    is_eos: np.ndarray
    is_oov: np.ndarray


class NgramModel(abc.ABC):
    """What every n-gram model does: framing, counting, scoring, distributions and sampling.

    A subclass supplies one method, :meth:`id_probs`, the probability of each row's last id
    given the ids before it; one whose estimate is a formula of c(h, w) and c(h) (MLE,
    add-k) computes it with :meth:`_probs_from_counts`. A subclass that lacks it cannot be
    built: ``HalfMade(2)`` raises ``TypeError: Can't instantiate abstract class HalfMade
    with abstract method id_probs``. Models that have a backoff form (for ARPA files) also
    override :meth:`check_backoff_form`, :meth:`lower_order_probs` and :meth:`backoff_weights`.

    Counts are looked up by tokens: :meth:`count`, :meth:`history_count`,
    :meth:`continuations`, :meth:`ngram_counts` and, for a whole test set at once,
    :meth:`token_counts`.
    """

    def __init__(self, order: int, *, convention: Convention | str = "standard"):
        self.order = check_order(order)
        self.convention = resolve_convention(convention)
        self.vocab: Vocabulary | None = None
        self.counts: NgramCounts | None = None

    def __repr__(self) -> str:
        fitted = "not fitted" if self.vocab is None else f"{self.vocab.n_words} words"
        return f"{type(self).__name__}(order={self.order}, {fitted})"

    # -- fitting

    def fit(self, sentences, vocab: Vocabulary | None = None, min_count: int = 1):
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
        tokens, lengths = flatten_sentences(sentences, "sentences")
        if vocab is None:
            vocab = Vocabulary.build([tokens], min_count)  # counts the same as one call per sentence
        elif not isinstance(vocab, Vocabulary):
            raise TypeError(f"vocab must be an lmcore Vocabulary, got {type(vocab).__name__}")
        elif min_count != 1:
            raise ValueError("give either vocab or min_count, not both: min_count is for building a vocabulary")
        ids = vocab.encode(tokens)
        del tokens  # the flat list is as large as the ids: gone before counting
        check_markers(sentences, ids, lengths)
        return self.fit_encoded(ids, lengths, vocab)

    def fit_text(self, source, vocab: Vocabulary | None = None, min_count: int = 1, tokenizer=None):
        """:meth:`fit` on the lines of a text file (a file name) or of any iterable of lines, one sentence
        a line, split at whitespace as KenLM's ``lmplz`` reads them (or by ``tokenizer``: str -> list of str),
        read in chunks straight to ids: no list of str tokens is held (:func:`lmcore.text.encode_lines`).
        The model is the one :meth:`fit` gives on the same sentences as token lists."""
        return self.fit_encoded(*encode_lines(source, vocab, min_count, tokenizer))

    def fit_encoded(self, ids, lengths, vocab: Vocabulary):
        """:meth:`fit` on sentences already encoded: ``ids`` holds every sentence's vocabulary ids
        in a row (any integer array, e.g. int32 from ``vocab.encode``), ``lengths`` the length
        of each sentence. No list of str tokens is needed, which saves memory on large corpora.

        >>> from lmcore.ngram import MLE
        >>> vocab = Vocabulary(["i", "spent", "money"])
        >>> ids = vocab.encode(["i", "spent", "money", "i", "spent"])
        >>> MLE(2).fit_encoded(ids, [3, 2], vocab).count(["i"], "spent")
        2
        """
        ids, lengths = check_encoded(ids, lengths, vocab)
        n_start, n_end = self.convention.padding(self.order)
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
        self.counts = NgramCounts.from_sentences(ids, lengths, self.order, n_start, n_end, len(vocab))
        return self

    @property
    def outcomes(self) -> tuple[str, ...]:
        """The tokens the model predicts; their number is the |V| of add-k smoothing."""
        self.check_fitted()
        return tuple(self.vocab.decode(self.outcome_ids))

    def check_fitted(self) -> None:
        """Raise :class:`NotFittedError` unless the model has been fitted (or read from a file)."""
        if self.vocab is None:  # not counts: a model read from an ARPA file has a vocabulary but no counts
            raise NotFittedError(f"{type(self).__name__} is not fitted: call fit(sentences) first")

    # -- probabilities of id rows (the vectorized core)

    def _lookup_counts(self, k: int, grams: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(c(h, w), c(h))`` of the k-gram ending at each row's predicted id."""
        table = self.counts.tables[k - 1]
        keys = self.counts.keys(grams, k)
        return table.count(keys), table.history_count(keys // self.counts.base)

    @abc.abstractmethod
    def id_probs(self, grams: np.ndarray, context_len: np.ndarray) -> np.ndarray:
        """P(last id | the ids before it) for each row of ``grams`` (N x order ids), the vectorized core.

        Only the last ``context_len[t]`` context columns of row t are real; a shorter context
        is scored by the model of order ``context_len[t] + 1``.
        """

    def _probs_from_counts(self, grams: np.ndarray, context_len: np.ndarray,
                           estimate: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> np.ndarray:
        """:meth:`id_probs` of a model whose estimate is ``estimate(c(h, w), c(h))`` at each row's order."""
        probs = np.empty(grams.shape[0])
        for k in range(1, self.order + 1):
            rows = np.flatnonzero(context_len == k - 1)
            if rows.size:
                probs[rows] = estimate(*self._lookup_counts(k, grams[rows]))
        return probs

    def _outcome_probs(self, grams: np.ndarray, context_len: np.ndarray) -> np.ndarray:
        # a formula such as add-k would give mass to a non-outcome (<s>, closed <unk>): it gets 0
        return np.where(self._is_outcome[grams[:, -1]], self.id_probs(grams, context_len), 0.0)

    def _context_rows(self, context, targets: np.ndarray, name: str = "context") -> tuple[np.ndarray, np.ndarray]:
        """One id row per target id, all with the same ``context`` of str tokens."""
        self.check_fitted()
        if isinstance(context, str) or not isinstance(context, Sequence):
            raise TypeError(f"{name} must be a sequence of tokens (e.g. a list of str), got {type(context).__name__}")
        if len(context) > self.order - 1:
            most = self.order - 1
            raise ValueError(f"{name} has {len(context)} tokens; a model of order {self.order} uses at most {most}")
        for token in context:
            if not isinstance(token, str):
                raise TypeError(f"{name} must contain only str tokens, got {type(token).__name__} {token!r}")
        context_ids = self.vocab.encode(context)
        grams = np.zeros((targets.size, self.order), dtype=np.int64)
        grams[:, self.order - 1 - len(context_ids) : self.order - 1] = context_ids
        grams[:, -1] = targets
        return grams, np.full(targets.size, len(context_ids))

    def _frame(self, sentences, ids: np.ndarray, lengths: np.ndarray) -> FramedTokens:
        """Frame ``sentences`` (encoded as ``ids``) by the convention; refuse markers inside them."""
        check_markers(sentences, ids, lengths)
        n_start, n_end = self.convention.padding(self.order)
        framed = frame_sentences(ids, lengths, self.order, n_start, n_end)
        if framed.grams.shape[0] == 0:
            raise ValueError("sentences has no tokens to predict")
        return framed

    def _targets(self, sentences) -> FramedTokens:
        """The predicted tokens of test ``sentences`` with their contexts, framed by the convention."""
        self.check_fitted()
        tokens, lengths = flatten_sentences(sentences, "sentences")
        return self._frame(sentences, self.vocab.encode(tokens), lengths)

    # -- counts, looked up by tokens

    def _check_counted(self) -> NgramCounts:
        self.check_fitted()
        if self.counts is None:
            raise TypeError(f"a {type(self).__name__} has no training counts (it was read from a file)")
        return self.counts

    def count(self, history: Sequence[str], word: str) -> int:
        """c(history, word): how often ``word`` followed ``history`` in the framed training text.

        ``history`` holds at most order - 1 tokens and may hold ``<s>``; unknown words count
        as ``<unk>``. With an empty history it is the unigram count c(word).

        >>> from lmcore.ngram import MLE
        >>> model = MLE(2).fit([["i", "spent", "three", "years"], ["i", "spent", "money"]])
        >>> model.count(["i"], "spent"), model.count(["<s>"], "i"), model.count([], "spent")
        (2, 2, 2)
        """
        if not isinstance(word, str):
            raise TypeError(f"word must be a str, got {type(word).__name__}")
        self._check_counted()
        grams, context_len = self._context_rows(history, np.array([self.vocab.id(word)]), "history")
        return int(self._lookup_counts(int(context_len[0]) + 1, grams)[0][0])

    def history_count(self, history: Sequence[str] = ()) -> int:
        """c(history) = Σ_w c(history, w): how often ``history`` was seen *as a history* (followed
        by a predicted token). With an empty history: the number of predicted training tokens.

        >>> from lmcore.ngram import MLE
        >>> model = MLE(2).fit([["i", "spent", "three", "years"], ["i", "spent", "money"]])
        >>> model.history_count(["spent"]), model.history_count([])   # 7 words + 2 </s>
        (2, 9)
        """
        self._check_counted()
        grams, context_len = self._context_rows(history, np.array([UNK_ID]), "history")
        return int(self._lookup_counts(int(context_len[0]) + 1, grams)[1][0])

    def continuations(self, history: Sequence[str] = ()) -> dict[str, int]:
        """Every token seen after ``history`` in training, with its count c(history, w), most
        frequent first (ties by vocabulary order). As nltk's ``counts[history]``.

        >>> from lmcore.ngram import MLE
        >>> model = MLE(2).fit([["i", "spent", "three", "years"], ["i", "spent", "money"]])
        >>> model.continuations(["spent"])
        {'money': 1, 'three': 1}
        """
        counts = self._check_counted()
        grams, context_len = self._context_rows(history, np.array([UNK_ID]), "history")
        k = int(context_len[0]) + 1
        table, base = counts.tables[k - 1], counts.base
        history_key = int(counts.history_keys(grams[:, :-1], k - 1)[0])  # -1 if never seen: no continuations
        first, last = np.searchsorted(table.keys, [history_key * base, (history_key + 1) * base])
        ids, seen = table.keys[first:last] % base, table.counts[first:last]
        by_count = np.argsort(-seen, kind="stable")
        return {token: int(c) for token, c in zip(self.vocab.decode(ids[by_count]), seen[by_count])}

    def ngram_counts(self, k: int) -> dict[tuple[str, ...], int]:
        """Every distinct k-gram seen in training (padding markers included) with its count,
        in id order; ``len(model.ngram_counts(k))`` is the number of distinct k-grams.

        Introduced in notebooks/05_smoothing_interpolation.ipynb, section "Beyond linear interpolation".

        >>> from lmcore.ngram import MLE
        >>> model = MLE(2).fit([["i", "spent", "money"]])
        >>> model.ngram_counts(2)
        {('<s>', 'i'): 1, ('i', 'spent'): 1, ('money', '</s>'): 1, ('spent', 'money'): 1}
        """
        counts = self._check_counted()
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 1 <= k <= self.order:
            raise ValueError(f"k must be an order between 1 and {self.order}, got {k!r}")
        rows = counts.ngram_ids(k)
        tokens = np.array(self.vocab.tokens, dtype=object)[rows]
        return {tuple(row): int(c) for row, c in zip(tokens.tolist(), counts.tables[k - 1].counts.tolist())}

    def token_counts(self, sentences, k: int | None = None) -> TokenCounts:
        """The training counts behind every predicted token of ``sentences``, at order ``k``
        (default: the model's order), framed as for scoring: c(h, w), c(h) and N1+(h •) per
        token, in the order of :meth:`token_logprobs`. Where a token has fewer than k - 1
        tokens before it (no ``<s>`` padding), its shorter history is used.

        Introduced in notebooks/05_smoothing_interpolation.ipynb, section "Where the probability goes".

        >>> from lmcore.ngram import MLE
        >>> model = MLE(2).fit([["i", "spent", "three", "years"], ["i", "spent", "money"]])
        >>> counts = model.token_counts([["i", "spent", "time"]])   # <s> i, i spent, spent time, time </s>
        >>> counts.ngram_counts.tolist(), counts.history_counts.tolist(), counts.history_types.tolist()
        ([2, 2, 0, 0], [2, 2, 2, 0], [1, 1, 2, 0])
        """
        counts = self._check_counted()
        k = self.order if k is None else k
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 1 <= k <= self.order:
            raise ValueError(f"k must be an order between 1 and {self.order}, got {k!r}")
        targets = self._targets(sentences)
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

    # -- public scoring

    def prob(self, word: str, context: Sequence[str] = ()) -> float:
        """P(word | context). A word outside the vocabulary is scored as ``<unk>``.

        ``context`` holds at most order - 1 tokens (pass ``"<s>"`` explicitly for a
        sentence start); a shorter one is scored by the lower order ``len(context) + 1``.
        """
        if not isinstance(word, str):
            raise TypeError(f"word must be a str, got {type(word).__name__}")
        self.check_fitted()
        grams, context_len = self._context_rows(context, np.array([self.vocab.id(word)]))
        return float(self._outcome_probs(grams, context_len)[0])

    def logprob(self, word: str, context: Sequence[str] = ()) -> float:
        """Natural log of :meth:`prob`; ``-inf`` for probability 0."""
        p = self.prob(word, context)
        return math.log(p) if p > 0 else -math.inf

    def _distribution(self, context) -> np.ndarray:
        """Probabilities of every outcome (aligned with ``outcome_ids``) after ``context``."""
        grams, context_len = self._context_rows(context, self.outcome_ids)
        return self._outcome_probs(grams, context_len)

    def next_word_distribution(self, context: Sequence[str] = ()) -> dict[str, float]:
        """Every outcome with P(outcome | context), most probable first (ties by vocabulary order).

        The values sum to 1. For the Shannon game: what would the model guess next?

        Introduced in notebooks/05_smoothing_interpolation.ipynb, section "Where the probability goes".
        """
        probs = self._distribution(context)
        if probs.sum() == 0:
            raise ValueError(
                f"context {list(context)!r} was never seen as a history: "
                f"the {type(self).__name__} distribution is undefined there"
            )
        order = np.argsort(-probs, kind="stable")
        return {token: float(p) for token, p in zip(self.vocab.decode(self.outcome_ids[order]), probs[order])}

    def score_tokens(self, sentences) -> TokenScores:
        """Log-probability of every predicted token of ``sentences`` under the model's convention."""
        targets = self._targets(sentences)
        with np.errstate(divide="ignore"):
            logprobs = np.log(self._outcome_probs(targets.grams, targets.context_len))
        token_ids = targets.grams[:, -1]
        is_oov = token_ids == UNK_ID
        return TokenScores(logprobs, token_ids, targets.sentence_index, targets.position, targets.is_eos, is_oov)

    def token_logprobs(self, sentences) -> np.ndarray:
        """Natural-log probability of every predicted token of ``sentences``, in order, as one array.

        Includes each ``</s>`` the convention appends; ``-inf`` marks probability 0.
        """
        return self.score_tokens(sentences).logprobs

    def generate(self, n_sentences: int = 1, seed: int | None = None, max_length: int = 50) -> list[list[str]]:
        """Sample ``n_sentences`` sentences (token lists, without markers).

        Each token is drawn from :meth:`next_word_distribution`; a sentence ends at
        ``</s>``, at an undefined (MLE) distribution, or after ``max_length`` tokens
        (the only end when the convention has no ``</s>``).
        """
        self.check_fitted()
        for name, value, low in (("n_sentences", n_sentences, 0), ("max_length", max_length, 1)):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
        rng = np.random.default_rng(seed)
        n_start, _ = self.convention.padding(self.order)
        sentences = []
        for _ in range(n_sentences):
            tokens = ["<s>"] * n_start
            while len(tokens) - n_start < max_length:
                probs = self._distribution(tokens[max(0, len(tokens) - (self.order - 1)) :])
                if probs.sum() == 0:
                    break
                token_id = rng.choice(self.outcome_ids, p=probs / probs.sum())
                if token_id == EOS_ID:
                    break
                tokens.append(self.vocab.tokens[token_id])
            sentences.append(tokens[n_start:])
        return sentences

    # -- backoff form, for ARPA files (lmcore.ngram)

    def to_arpa(self, path, *, exact: bool = True) -> tuple[int, ...]:
        """Write the model as an ARPA file (log10, backoff form) that KenLM and SRILM read.

        Returns the number of n-grams of each order (the file's ``\\data\\`` header).
        KenLM reading the file gives this model's scores for the standard convention
        (``<s>`` context, ``</s>`` predicted, unknown words as ``<unk>``), so the model's
        convention must be that one. Which models can be written, and why, and what
        ``exact=False`` allows: :func:`lmcore.ngram.write_arpa`.
        """
        return write_arpa(self, path, exact=exact)

    def check_backoff_form(self, exact: bool) -> None:
        """Raise if the model cannot be written as an ARPA file (a subclass that can says so)."""
        raise TypeError(f"{type(self).__name__} has no backoff form: it cannot be written as an ARPA file")

    def lower_order_probs(self, grams: np.ndarray, k: int) -> np.ndarray:
        """Q_k(w | h): the order-k distribution (k < order) that the model backs off to, for
        each row's k-gram (the last k columns), each a k-gram seen in training."""
        self.check_backoff_form(exact=False)
        raise TypeError(f"{type(self).__name__} says it has a backoff form but defines no lower_order_probs")

    def backoff_weights(self, grams: np.ndarray, k: int) -> np.ndarray:
        """α(h) for each row's history h (the last k columns, k < order), seen in training:
        P(w | h) = α(h) Q_k(w | h') for every w never seen after h. A history starting with
        ``<s>`` stands for the whole sentence start (``<s>`` repeated to order - 1 tokens)."""
        self.check_backoff_form(exact=False)
        raise TypeError(f"{type(self).__name__} says it has a backoff form but defines no backoff_weights")
