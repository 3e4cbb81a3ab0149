"""N-gram language models counted in numpy: MLE, add-k (Laplace), linear interpolation, Kneser-Ney.

A model of order n predicts each token from the n - 1 tokens before it. Sentences
are framed by a :class:`Convention`: by default (as KenLM and SRILM) each sentence
gets n - 1 ``<s>`` before it (context only, never predicted) and one ``</s>`` after
it (predicted, like a word).

Counting. Every n-gram of ids ``(w_1, ..., w_k)`` is stored as one int64 key, the
ids read as digits in base |V| (``len(vocab)``): ``key = Σ_i w_i |V|^(k-i)``. So the
key of a history is ``key // |V|`` and the key of a suffix is ``key % |V|^(k-1)``.
For each order k, :class:`NgramTable` keeps the sorted unique keys with their counts
c(h, w) (``np.unique``) and, separately, the history counts c(h) = Σ_w c(h, w): how
often h occurs *as a history*, which differs from its unigram count at the ends of
sentences. Scoring looks keys up with ``np.searchsorted``: no Python loop per token.
Keys need |V| ** n < 2 ** 63: order 4 allows 55,108 ids (the Chinese corpus's
training words are 49,741), order 5 only 6,208; ``fit`` refuses more, by name.

Models (all probabilities of an *outcome*: a known word, ``<unk>`` in an open
vocabulary, ``</s>`` when sentences end with it; never ``<s>``, except under nltk's
convention):

- :class:`MLE`: ``P(w | h) = c(h, w) / c(h)``; an unseen history gives 0 (as nltk),
  and its :meth:`~NgramModel.next_word_distribution` raises, as it is undefined.
- :class:`AddK`: ``P(w | h) = (c(h, w) + k) / (c(h) + k |V|)``, |V| = number of
  outcomes; ``k = 1`` is Laplace.
- :class:`Interpolated`: ``P(w | h) = Σ_i λ_i P_i(w | h_i)``, see the class.
- :class:`KneserNey`: interpolated modified Kneser-Ney, as KenLM's ``lmplz``.

:meth:`~NgramModel.to_arpa` writes a model as an ARPA file (:mod:`lmcore.arpa`),
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
from itertools import chain

import numpy as np

from lmcore.evaluate import EMTrace, check_lambdas, evaluate, fit_interpolation_weights, interpolated_probs
from lmcore.vocab import BOS_ID, EOS_ID, UNK_ID, Vocabulary

__all__ = [
    "CONVENTIONS", "AddK", "Convention", "Interpolated", "KneserNey", "MLE",
    "NgramCounts", "NgramModel", "NgramTable", "NotFittedError", "PerplexityTable", "TokenScores",
    "kneser_ney_discounts", "perplexity_table",
]

INT64_MAX = np.iinfo(np.int64).max


class NotFittedError(ValueError):
    """A model was asked to score before ``fit``."""


# --- conventions -------------------------------------------------------------------


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


def _resolve_convention(convention) -> Convention:
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


# --- framing and counting ------------------------------------------------------------


@dataclass(frozen=True)
class _Targets:
    """The predicted tokens of a set of sentences, one row each.

    ``grams[t, -1]`` is the predicted id and ``grams[t, -1 - j]`` the id j tokens
    before it; only the last ``context_len[t]`` context columns are real.
    """

    grams: np.ndarray
    context_len: np.ndarray
    sentence_index: np.ndarray
    position: np.ndarray  # index in the unpadded sentence; len(sentence) + j for the j-th </s>
    is_eos: np.ndarray


def _frame(ids: np.ndarray, lengths: np.ndarray, order: int, n_start: int, n_end: int) -> _Targets:
    """Pad each sentence (``ids`` of all sentences in a row, split by ``lengths``) and
    list every predicted token with its context (vectorized)."""
    padded = lengths + n_start + n_end
    offsets = np.cumsum(padded) - padded
    sentence_of = np.repeat(np.arange(lengths.size), padded)
    position = np.arange(int(padded.sum())) - offsets[sentence_of] - n_start  # -n_start .. len + n_end - 1
    length_of = lengths[sentence_of]
    stream = np.full(position.size, BOS_ID, dtype=np.int64)
    stream[(position >= 0) & (position < length_of)] = ids
    stream[position >= length_of] = EOS_ID
    rows = np.flatnonzero(position >= 0)
    grams = np.empty((rows.size, order), dtype=np.int64)
    for back in range(order):
        # reads across sentence starts are harmless: context_len masks them
        grams[:, order - 1 - back] = stream[np.maximum(rows - back, 0)]
    return _Targets(
        grams=grams,
        context_len=np.minimum(position[rows] + n_start, order - 1),
        sentence_index=sentence_of[rows],
        position=position[rows],
        is_eos=position[rows] >= length_of[rows],
    )


def _keys(grams: np.ndarray, k: int, base: int) -> np.ndarray:
    """Key of the k-gram ending at each row's predicted token (Horner's rule in base |V|)."""
    keys = np.zeros(grams.shape[0], dtype=np.int64)
    for column in range(grams.shape[1] - k, grams.shape[1]):
        keys = keys * base + grams[:, column]
    return keys


def _lookup(sorted_keys: np.ndarray, values: np.ndarray, query: np.ndarray, default=0) -> np.ndarray:
    """``values`` of ``query`` keys in ``sorted_keys``, ``default`` for keys not there."""
    if sorted_keys.size == 0:
        return np.full(query.shape, default, dtype=values.dtype)
    # sorted queries walk the table in order, which is several times faster than random probes
    by_key = np.argsort(query)
    ordered = query[by_key]
    index = np.minimum(np.searchsorted(sorted_keys, ordered), sorted_keys.size - 1)
    found = np.empty(query.shape, dtype=values.dtype)
    found[by_key] = np.where(sorted_keys[index] == ordered, values[index], default)
    return found


@dataclass(frozen=True)
class NgramTable:
    """Counts of one order k.

    ``keys``/``counts``: each seen k-gram (h, w) and c(h, w), sorted by key.
    ``history_keys``/``history_counts``/``history_types``: each history h with
    c(h) = Σ_w c(h, w) and N1+(h •), the number of distinct words seen after h
    (Witten-Bell and Kneser-Ney need it). For k = 1 the only history is the empty
    one, key 0, and c() is the number of predicted training tokens.
    """

    order: int
    keys: np.ndarray
    counts: np.ndarray
    history_keys: np.ndarray
    history_counts: np.ndarray
    history_types: np.ndarray

    @classmethod
    def from_keys(cls, order: int, keys: np.ndarray, base: int) -> NgramTable:
        keys, counts = np.unique(keys, return_counts=True)
        counts = counts.astype(np.int64)
        histories = keys // base  # non-decreasing, since keys are sorted
        starts = np.flatnonzero(np.r_[True, histories[1:] != histories[:-1]]) if keys.size else np.zeros(0, np.int64)
        return cls(
            order=order,
            keys=keys,
            counts=counts,
            history_keys=histories[starts],
            history_counts=np.add.reduceat(counts, starts) if keys.size else counts,
            history_types=np.diff(np.r_[starts, keys.size]).astype(np.int64),
        )

    def count(self, keys: np.ndarray) -> np.ndarray:
        """c(h, w) for each k-gram key (0 if unseen)."""
        return _lookup(self.keys, self.counts, keys)

    def history_count(self, history_keys: np.ndarray) -> np.ndarray:
        """c(h) for each history key (0 if h never occurred as a history)."""
        return _lookup(self.history_keys, self.history_counts, history_keys)


@dataclass(frozen=True)
class NgramCounts:
    """Counts of orders 1..n in base |V| = ``base``; ``tables[k - 1]`` holds order k."""

    base: int
    tables: tuple[NgramTable, ...]

    @classmethod
    def from_targets(cls, targets: _Targets, order: int, base: int) -> NgramCounts:
        tables = []
        for k in range(1, order + 1):
            has_history = targets.context_len >= k - 1
            grams = targets.grams if has_history.all() else targets.grams[has_history]  # skips a copy when padded
            tables.append(NgramTable.from_keys(k, _keys(grams, k, base), base))
        return cls(base, tuple(tables))

    def decode(self, keys: np.ndarray, order: int) -> np.ndarray:
        """Ids of each k-gram key as an (M, order) array: the inverse of the key encoding."""
        ids = np.empty((len(keys), order), dtype=np.int64)
        rest = np.asarray(keys, dtype=np.int64)
        for column in range(order - 1, -1, -1):
            rest, ids[:, column] = np.divmod(rest, self.base)
        return ids

    def continuation_counts(self, order: int) -> tuple[np.ndarray, np.ndarray]:
        """``(keys of (order-1)-grams v, N1+(• v))``: how many distinct words precede v.

        Kneser-Ney's lower-order counts; ``order`` >= 2.
        """
        suffixes = self.tables[order - 1].keys % self.base ** (order - 1)
        return np.unique(suffixes, return_counts=True)

    def count_of_counts(self, order: int, largest: int = 4) -> np.ndarray:
        """``n[r]`` = number of distinct n-grams of ``order`` seen exactly r times, r = 0..largest."""
        return np.bincount(np.minimum(self.tables[order - 1].counts, largest + 1), minlength=largest + 2)[: largest + 1]


# --- input checks ---------------------------------------------------------------


def _flatten(sentences, name: str) -> tuple[list, np.ndarray]:
    """All tokens of ``sentences`` (checked) in one list, and the length of each sentence.

    One list lets the vocabulary check and encode every token in a single call,
    several times faster than one call per sentence.
    """
    if isinstance(sentences, (str, bytes)) or not isinstance(sentences, Sequence):
        raise TypeError(f"{name} must be a list of token lists, got {type(sentences).__name__}")
    if len(sentences) == 0:
        raise ValueError(f"{name} is empty")
    for sentence in sentences:
        if type(sentence) not in (list, tuple) and (isinstance(sentence, str) or not isinstance(sentence, Sequence)):
            kind = type(sentence).__name__
            raise TypeError(f"{name} must be a list of token lists (split each sentence into tokens), got a {kind}")
    lengths = np.fromiter(map(len, sentences), dtype=np.int64, count=len(sentences))
    return list(chain.from_iterable(sentences)), lengths


def _check_order(order) -> int:
    if isinstance(order, bool) or not isinstance(order, (int, np.integer)):
        raise TypeError(f"order must be an integer, got {type(order).__name__}")
    if order < 1:
        raise ValueError(f"order must be >= 1, got {order}")
    return int(order)


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


# --- the models ----------------------------------------------------------------------


class NgramModel:
    """Shared machinery: framing, counting, scoring, distributions and sampling.

    A subclass supplies ``_probs(grams, context_len)``, the probability of each row's
    last id given the ids before it. By default that is ``_estimate(c(h, w), c(h))``
    at the order ``context_len + 1``.
    """

    def __init__(self, order: int, *, convention: Convention | str = "standard"):
        self.order = _check_order(order)
        self.convention = _resolve_convention(convention)
        self.vocab: Vocabulary | None = None
        self.counts: NgramCounts | None = None

    def __repr__(self) -> str:
        fitted = "not fitted" if self.vocab is None else f"{self.vocab.n_words} words"
        return f"{type(self).__name__}(order={self.order}, {fitted})"

    # -- fitting

    def fit(self, sentences, vocab: Vocabulary | None = None, min_count: int = 1):
        """Count n-grams of orders 1..n in ``sentences`` (lists of str tokens); returns the model.

        The vocabulary is built from ``sentences`` (words seen ``min_count`` times or more)
        unless ``vocab`` is given; words outside it are counted as ``<unk>``.
        """
        tokens, lengths = _flatten(sentences, "sentences")
        if vocab is None:
            vocab = Vocabulary.build([tokens], min_count)  # counts the same as one call per sentence
        elif not isinstance(vocab, Vocabulary):
            raise TypeError(f"vocab must be an lmcore Vocabulary, got {type(vocab).__name__}")
        elif min_count != 1:
            raise ValueError("give either vocab or min_count, not both: min_count is for building a vocabulary")
        base = len(vocab)
        if base**self.order > INT64_MAX:
            most = int(INT64_MAX ** (1 / self.order))
            while most**self.order > INT64_MAX:  # the float root may be one off
                most -= 1
            raise ValueError(
                f"order {self.order} with {base} vocabulary ids needs n-gram keys up to {base}**{self.order}, "
                f"beyond int64 (order {self.order} allows {most:,} ids): lower the order, raise min_count, "
                "or build the vocabulary from the training part only"
            )
        n_start, n_end = self.convention.padding(self.order)
        targets = _frame(vocab.encode(tokens), lengths, self.order, n_start, n_end)
        if targets.grams.shape[0] == 0:
            raise ValueError("sentences has no tokens to predict")
        if not self.convention.open_vocabulary and (targets.grams[:, -1] == UNK_ID).any():
            raise ValueError(
                "sentences has words outside the vocabulary, but the convention's vocabulary is closed "
                "(open_vocabulary=False): use min_count=1 or an open vocabulary"
            )
        is_outcome = np.ones(base, dtype=bool)
        is_outcome[BOS_ID] = self.convention.bos_outcome and n_start > 0
        is_outcome[EOS_ID] = n_end > 0
        is_outcome[UNK_ID] = self.convention.open_vocabulary
        self.vocab, self._is_outcome = vocab, is_outcome
        self._outcome_ids = np.flatnonzero(is_outcome)
        self.counts = NgramCounts.from_targets(targets, self.order, base)
        return self

    @property
    def outcomes(self) -> tuple[str, ...]:
        """The tokens the model predicts; their number is the |V| of add-k smoothing."""
        self._check_fitted()
        return tuple(self.vocab.decode(self._outcome_ids))

    def _check_fitted(self) -> None:
        if self.vocab is None:  # not counts: a model read from an ARPA file has a vocabulary but no counts
            raise NotFittedError(f"{type(self).__name__} is not fitted: call fit(sentences) first")

    # -- probabilities of id rows (the vectorized core)

    def _lookup_counts(self, k: int, grams: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(c(h, w), c(h))`` of the k-gram ending at each row's predicted id."""
        table = self.counts.tables[k - 1]
        keys = _keys(grams, k, self.counts.base)
        return table.count(keys), table.history_count(keys // self.counts.base)

    def _estimate(self, c_hw: np.ndarray, c_h: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def _probs(self, grams: np.ndarray, context_len: np.ndarray) -> np.ndarray:
        probs = np.empty(grams.shape[0])
        for k in range(1, self.order + 1):
            rows = np.flatnonzero(context_len == k - 1)
            if rows.size:
                probs[rows] = self._estimate(*self._lookup_counts(k, grams[rows]))
        return probs

    def _outcome_probs(self, grams: np.ndarray, context_len: np.ndarray) -> np.ndarray:
        # a formula such as add-k would give mass to a non-outcome (<s>, closed <unk>): it gets 0
        return np.where(self._is_outcome[grams[:, -1]], self._probs(grams, context_len), 0.0)

    def _context_rows(self, context, targets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """One id row per target id, all with the same ``context`` of str tokens."""
        self._check_fitted()
        if isinstance(context, str) or not isinstance(context, Sequence):
            raise TypeError(f"context must be a sequence of tokens (e.g. a list of str), got {type(context).__name__}")
        if len(context) > self.order - 1:
            most = self.order - 1
            raise ValueError(f"context has {len(context)} tokens; a model of order {self.order} uses at most {most}")
        for token in context:
            if not isinstance(token, str):
                raise TypeError(f"context must contain only str tokens, got {type(token).__name__} {token!r}")
        context_ids = self.vocab.encode(context)
        grams = np.zeros((targets.size, self.order), dtype=np.int64)
        grams[:, self.order - 1 - len(context_ids) : self.order - 1] = context_ids
        grams[:, -1] = targets
        return grams, np.full(targets.size, len(context_ids))

    def _targets(self, sentences) -> _Targets:
        """The predicted tokens of test ``sentences`` with their contexts, framed by the convention."""
        self._check_fitted()
        tokens, lengths = _flatten(sentences, "sentences")
        n_start, n_end = self.convention.padding(self.order)
        targets = _frame(self.vocab.encode(tokens), lengths, self.order, n_start, n_end)
        if targets.grams.shape[0] == 0:
            raise ValueError("sentences has no tokens to predict")
        return targets

    # -- public scoring

    def prob(self, word: str, context: Sequence[str] = ()) -> float:
        """P(word | context). A word outside the vocabulary is scored as ``<unk>``.

        ``context`` holds at most order - 1 tokens (pass ``"<s>"`` explicitly for a
        sentence start); a shorter one is scored by the lower order ``len(context) + 1``.
        """
        if not isinstance(word, str):
            raise TypeError(f"word must be a str, got {type(word).__name__}")
        self._check_fitted()
        grams, context_len = self._context_rows(context, np.array([self.vocab.id(word)]))
        return float(self._outcome_probs(grams, context_len)[0])

    def logprob(self, word: str, context: Sequence[str] = ()) -> float:
        """Natural log of :meth:`prob`; ``-inf`` for probability 0."""
        p = self.prob(word, context)
        return math.log(p) if p > 0 else -math.inf

    def _distribution(self, context) -> np.ndarray:
        """Probabilities of every outcome (aligned with ``_outcome_ids``) after ``context``."""
        grams, context_len = self._context_rows(context, self._outcome_ids)
        return self._outcome_probs(grams, context_len)

    def next_word_distribution(self, context: Sequence[str] = ()) -> dict[str, float]:
        """Every outcome with P(outcome | context), most probable first (ties by vocabulary order).

        The values sum to 1. For the Shannon game: what would the model guess next?
        """
        probs = self._distribution(context)
        if probs.sum() == 0:
            raise ValueError(
                f"context {list(context)!r} was never seen as a history: "
                f"the {type(self).__name__} distribution is undefined there"
            )
        order = np.argsort(-probs, kind="stable")
        return {token: float(p) for token, p in zip(self.vocab.decode(self._outcome_ids[order]), probs[order])}

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
        self._check_fitted()
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
                token_id = rng.choice(self._outcome_ids, p=probs / probs.sum())
                if token_id == EOS_ID:
                    break
                tokens.append(self.vocab.tokens[token_id])
            sentences.append(tokens[n_start:])
        return sentences

    # -- backoff form, for ARPA files (written by lmcore.arpa)

    def to_arpa(self, path, *, exact: bool = True) -> tuple[int, ...]:
        """Write the model as an ARPA file (log10, backoff form) that KenLM and SRILM read.

        Returns the number of n-grams of each order (the file's ``\\data\\`` header).
        KenLM reading the file gives this model's scores for the standard convention
        (``<s>`` context, ``</s>`` predicted, unknown words as ``<unk>``), so the model's
        convention must be that one. Which models can be written, and why, and what
        ``exact=False`` allows: :func:`lmcore.arpa.write_arpa`.
        """
        from lmcore.arpa import write_arpa  # lmcore.arpa imports this module

        return write_arpa(self, path, exact=exact)

    def _check_backoff_form(self, exact: bool) -> None:
        """Raise if the model cannot be written as an ARPA file (a subclass that can says so)."""
        raise TypeError(f"{type(self).__name__} has no backoff form: it cannot be written as an ARPA file")

    def _lower_order_probs(self, grams: np.ndarray, k: int) -> np.ndarray:
        """Q_k(w | h): the order-k distribution (k < order) that the model backs off to, for
        each row's k-gram (the last k columns), each a k-gram seen in training."""
        raise NotImplementedError

    def _backoff_weights(self, grams: np.ndarray, k: int) -> np.ndarray:
        """α(h) for each row's history h (the last k columns, k < order), seen in training:
        P(w | h) = α(h) Q_k(w | h') for every w never seen after h. A history starting with
        ``<s>`` stands for the whole sentence start (``<s>`` repeated to order - 1 tokens)."""
        raise NotImplementedError


class MLE(NgramModel):
    """Maximum-likelihood estimate ``P(w | h) = c(h, w) / c(h)``.

    c(h) counts h as a history. An unseen history gives every word probability 0 (as
    nltk does), so a test set containing one has perplexity inf;
    :meth:`next_word_distribution` raises there, as the distribution is undefined.
    It has no ARPA form (:meth:`to_arpa` refuses): ARPA cannot hold a probability 0.

    >>> m = MLE(2).fit([["a", "b"], ["a", "c"]])
    >>> m.prob("b", ["a"]), m.prob("a", ["<s>"]), m.prob("a", ["zzz"])
    (0.5, 1.0, 0.0)
    """

    def _estimate(self, c_hw: np.ndarray, c_h: np.ndarray) -> np.ndarray:
        return np.where(c_h > 0, c_hw / np.maximum(c_h, 1), 0.0)

    def _check_backoff_form(self, exact: bool) -> None:
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

    def _estimate(self, c_hw: np.ndarray, c_h: np.ndarray) -> np.ndarray:
        return (c_hw + self.k) / (c_h + self.k * self._outcome_ids.size)

    # Backoff form: every n-gram unseen after h gets the same k / (c(h) + k|V|), which is
    # α(h) = k|V| / (c(h) + k|V|) times a uniform 1/|V|. So the lower orders of the file are
    # uniform (they are only ever backed off to) and the top order's histories carry α(h).

    def _check_backoff_form(self, exact: bool) -> None:
        pass

    def _lower_order_probs(self, grams: np.ndarray, k: int) -> np.ndarray:
        return np.full(grams.shape[0], 1.0 / self._outcome_ids.size)

    def _backoff_weights(self, grams: np.ndarray, k: int) -> np.ndarray:
        keys = _keys(grams, k, self.counts.base)
        c_h = self.counts.tables[k].history_count(keys)
        k_v = self.k * self._outcome_ids.size
        # a sentence-start history stands for <s> * (order - 1), a history at the top order
        top = (k == self.order - 1) | (grams[:, -k] == BOS_ID)
        return np.where(top, k_v / (c_h + k_v), 1.0)


class Interpolated(NgramModel):
    """Linear interpolation of orders 1..n: ``P(w | h) = Σ_i λ_i P_i(w | h_i)``, Σ λ_i = 1.

    - P_1 is the add-one unigram ``(c(w) + 1) / (N + |V|)`` over the outcomes, so no
      outcome, not even ``<unk>``, ever gets probability 0.
    - P_i for i >= 2 is the MLE ``c(h_i, w) / c(h_i)``. For a history never seen in
      training (or one shorter than i - 1 tokens) it is undefined; lmcore then uses
      P_{i-1} in its place. Every P_i is thus a distribution over the outcomes,
      whatever the history, so the mix always sums to 1, and P_i does not depend on
      λ, so a new λ re-scores with one weighted sum (:meth:`order_probs` and
      :func:`lmcore.evaluate.interpolated_perplexity`).

    ``lambdas`` (lowest order first) are given, or learned on held-out data by
    :meth:`fit_lambdas` (EM). The course's worked example mixes *add-one* estimates
    (0.1 · 0.111111 + 0.3 · 0.2 + 0.6 · 0.001 = 0.071711): compute those with
    :class:`AddK` and mix them with :func:`lmcore.evaluate.interpolated_probs`.

    :meth:`to_arpa` writes orders 1 and 2 exactly; from order 3 on, the fallback above has
    no compact backoff form, and ``to_arpa(path, exact=False)`` writes the standard
    conversion, equal to the model after every history seen in training
    (:func:`lmcore.arpa.write_arpa` explains).

    >>> m = Interpolated(2, lambdas=[0.5, 0.5]).fit([["a", "b"]])
    >>> m.prob("b", ["a"])   # 0.5 * (1 + 1) / (3 + 4) + 0.5 * 1
    0.6428571428571428
    """

    def __init__(
        self, order: int, lambdas: Sequence[float] | None = None, *, convention: Convention | str = "standard"
    ):
        super().__init__(order, convention=convention)
        self.lambdas = lambdas
        self.em_trace_: EMTrace | None = None

    @property
    def lambdas(self) -> np.ndarray | None:
        """The weights λ_1..λ_n (lowest order first); ``None`` until given or learned."""
        return self._lambdas

    @lambdas.setter
    def lambdas(self, value) -> None:
        self._lambdas = None if value is None else check_lambdas(value, self.order)

    def _order_probs(self, grams: np.ndarray, context_len: np.ndarray) -> np.ndarray:
        probs = np.empty((grams.shape[0], self.order))
        c_w, n_tokens = self._lookup_counts(1, grams)
        probs[:, 0] = (c_w + 1.0) / (n_tokens + self._outcome_ids.size)
        for k in range(2, self.order + 1):
            c_hw, c_h = self._lookup_counts(k, grams)
            defined = (context_len >= k - 1) & (c_h > 0)
            probs[:, k - 1] = np.where(defined, c_hw / np.maximum(c_h, 1), probs[:, k - 2])
        probs[~self._is_outcome[grams[:, -1]]] = 0.0
        return probs

    def order_probs(self, sentences) -> np.ndarray:
        """(N tokens x order) array: P_i of every predicted token of ``sentences`` under each order i.

        Rows follow :meth:`token_logprobs`; unknown words are scored as ``<unk>``.
        """
        targets = self._targets(sentences)
        return self._order_probs(targets.grams, targets.context_len)

    def _probs(self, grams: np.ndarray, context_len: np.ndarray) -> np.ndarray:
        if self._lambdas is None:
            raise NotFittedError("lambdas are not set: pass lambdas= or call fit_lambdas(heldout)")
        return interpolated_probs(self._order_probs(grams, context_len), self._lambdas)

    def fit_lambdas(self, heldout, tolerance: float = 0.001, max_iterations: int = 1000) -> EMTrace:
        """Learn λ by EM on held-out sentences (see :func:`lmcore.evaluate.fit_interpolation_weights`).

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
    # Q_k), which no compact backoff form holds: see lmcore.arpa.write_arpa.

    def _check_backoff_form(self, exact: bool) -> None:
        if self._lambdas is None:
            raise NotFittedError("lambdas are not set: pass lambdas= or call fit_lambdas(heldout)")
        if exact and self.order >= 3:
            raise ValueError(
                f"an Interpolated model of order {self.order} has no exact backoff form: after a history never "
                "seen in training it moves the missing orders' weight to the highest defined order, while an ARPA "
                "reader backs off to the lower orders' mix; exactness would need, for each seen history h, an n-gram "
                "for every word seen after h' (tens of millions on the course's corpora). to_arpa(path, exact=False) "
                "writes the standard conversion, equal to the model wherever the history was seen in training; "
                "KneserNey and AddK are written exactly"
            )
        if self._lambdas[0] == 0:
            raise ValueError(
                "lambdas[0] is 0, so words never seen in training get probability 0, which an ARPA file "
                "cannot represent (its -99 is 10**-99 to KenLM): give the unigram a positive weight"
            )

    def _lower_order_probs(self, grams: np.ndarray, k: int) -> np.ndarray:
        probs = self._order_probs(grams, np.full(grams.shape[0], k - 1))[:, :k]
        return probs @ self._lambdas[:k] / self._lambdas[:k].sum()

    def _backoff_weights(self, grams: np.ndarray, k: int) -> np.ndarray:
        cumulative = np.cumsum(self._lambdas)
        # after <s> every higher order repeats the MLE of the history, so the whole
        # λ_{k+1} + .. + λ_n = 1 - Λ_k sits on the n-grams seen after h: α = Λ_k / 1
        return np.where(grams[:, -k] == BOS_ID, cumulative[k - 1], cumulative[k - 1] / cumulative[k])


# --- Kneser-Ney ----------------------------------------------------------------------------

FALLBACK_DISCOUNTS = (0.5, 1.0, 1.5)  # KenLM's --discount_fallback


def _closed_form_discounts(count_of_counts) -> tuple[np.ndarray | None, str]:
    """``(D1, D2, D3+)`` by Chen and Goodman's closed form, or ``(None, why it is undefined)``."""
    t = [int(x) for x in count_of_counts]
    for j in (1, 2, 3):
        if t[j] == 0:
            return None, f"no n-gram has adjusted count {j} (t{j} = 0)"
    y = t[1] / (t[1] + 2 * t[2])
    discounts = np.array([j - (j + 1) * y * t[j + 1] / t[j] for j in (1, 2, 3)])
    for j, d in enumerate(discounts, start=1):
        if not 0 < d <= j:
            return None, f"D{j} = {d:.4f} is outside (0, {j}]"
    return discounts, ""


def kneser_ney_discounts(count_of_counts) -> np.ndarray:
    """Modified Kneser-Ney discounts ``(D1, D2, D3+)`` from count-of-counts (Chen and Goodman, eq. 26).

        Y = t1 / (t1 + 2 t2),   D(j) = j - (j + 1) Y t(j+1) / t(j),   j = 1, 2, 3

    ``count_of_counts[j]`` = t(j), the number of n-grams seen exactly j times (index 0
    is ignored; index 4 is needed). Undefined (``ValueError``) when t1, t2 or t3 is 0
    or a D(j) falls outside (0, j], as on tiny or artificial data. t4 = 0 is allowed
    and gives D3+ = 3, as in KenLM.

    >>> kneser_ney_discounts([0, 100, 40, 20, 10]).round(4).tolist()  # Y = 100 / 180
    [0.5556, 1.1667, 1.8889]
    """
    try:
        t = np.asarray(count_of_counts, dtype=float)
    except (TypeError, ValueError):
        raise TypeError("count_of_counts must be a sequence of numbers t0..t4") from None
    if t.ndim != 1 or t.size < 5 or (t < 0).any() or (t != np.round(t)).any():
        raise ValueError(f"count_of_counts must hold counts t0..t4 (>= 5 non-negative integers), got {t.tolist()}")
    discounts, why = _closed_form_discounts(t[:5])
    if discounts is None:
        raise ValueError(f"the closed-form discounts are undefined: {why}")
    return discounts


def _check_discounts(discounts, order: int, name: str) -> np.ndarray:
    """``discounts`` as an (order, 3) array of D1, D2, D3+ per order, each 0 < D(j) <= j."""
    if isinstance(discounts, (str, bytes)):
        raise TypeError(f"{name} must be 3 numbers (D1, D2, D3+) or one such row per order, got a str")
    try:
        values = np.asarray(discounts, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must contain only numbers") from None
    if values.shape == (3,):
        values = np.tile(values, (order, 1))
    if values.shape != (order, 3):
        raise ValueError(f"{name} must have shape (3,) or ({order}, 3): D1, D2, D3+ per order; got {values.shape}")
    bad = np.argwhere(~((values > 0) & (values <= np.arange(1, 4))))  # also catches NaN
    if bad.size:
        k, j = bad[0]
        label = ("D1", "D2", "D3+")[j]
        raise ValueError(f"{name}: {label} of order {k + 1} is {values[k, j]}, expected 0 < {label} <= {j + 1}")
    return values


@dataclass(frozen=True)
class _KneserNeyLevel:
    """Order k of a fitted Kneser-Ney model: u(h, w) = (a(h, w) - D(a)) / Σ_v a(h, v) per kept
    k-gram, γ(h) per history, and the adjusted counts a."""

    keys: np.ndarray
    u: np.ndarray
    history_keys: np.ndarray
    gamma: np.ndarray
    adjusted: np.ndarray


class KneserNey(NgramModel):
    """Interpolated modified Kneser-Ney (Chen and Goodman), with KenLM's (``lmplz``) rules.

    For a history h of k - 1 words and adjusted counts a (below),

        P_k(w | h) = (a(h, w) - D_k(a(h, w))) / Σ_v a(h, v)  +  γ_k(h) P_{k-1}(w | h')
        γ_k(h)     = (D_k1 N1(h •) + D_k2 N2(h •) + D_k3+ N3+(h •)) / Σ_v a(h, v)
        P_0(w)     = 1 / |V|

    where h' is h without its first word, N_j(h •) counts the words with a(h, w) = j
    (3 or more for N3+), and |V| is the number of outcomes (words, ``<unk>``, ``</s>``;
    not ``<s>``): so every outcome, ``<unk>`` and unseen words included, gets P > 0.
    A history never seen in training has γ = 1: P_k = P_{k-1}.

    Adjusted counts, as KenLM's: the highest order uses raw counts c(h, w); a lower-order
    n-gram uses its continuation count N1+(• h w), the number of distinct words seen
    before it (``<s>`` counts as one), except that an n-gram starting with ``<s>`` keeps
    its raw count (nothing can precede it). An n-gram starting with two ``<s>`` (from
    padding a sentence with order - 1 of them) is dropped, as KenLM pads with one: so
    P(w | <s> <s>) = P_2(w | <s>). Under a convention without ``<s>`` padding, an
    n-gram seen at a sentence start gets one more continuation, for the missing left word.

    Discounts D_k = (D1, D2, D3+) per order k come from the count-of-counts t_j of the
    adjusted counts by :func:`kneser_ney_discounts`. Where that is undefined (tiny data),
    the order gets ``fallback`` (KenLM's ``--discount_fallback`` values 0.5, 1, 1.5) and is
    listed in ``fallback_orders_``; ``fallback=None`` raises instead, as KenLM does by
    default. ``discounts`` given as 3 numbers (all orders) or an (order, 3) array,
    each 0 < D(j) <= j, replace the estimate. After fitting: ``discounts_`` (order x 3,
    lowest order first) and ``count_of_counts_`` (order x 5: t_0 = 0, t_1 .. t_4, t_4 counting
    4 only); :meth:`adjusted_counts` shows the a of each n-gram.

    >>> m = KneserNey(2, discounts=[0.5, 1.0, 1.5]).fit([["a", "b"], ["a", "c"]])
    >>> round(m.prob("b", ["a"]), 6), round(m.prob("zzz"), 6)  # 0.5/2 + 0.5 P_1(b); γ_1 / |V|
    (0.35, 0.1)

    Here P_1(b) = (1 - 0.5) / 5 + γ_1 / 5 = 0.2, with continuation counts a, b, c: 1 and
    ``</s>``: 2 (after b and after c), so γ_1 = (0.5 · 3 + 1 · 1) / 5 = 0.5, |V| = 5.
    """

    def __init__(self, order: int, discounts=None, *, fallback=FALLBACK_DISCOUNTS,
                 convention: Convention | str = "standard"):
        super().__init__(order, convention=convention)
        self._given_discounts = None if discounts is None else _check_discounts(discounts, self.order, "discounts")
        self.fallback = None if fallback is None else tuple(_check_discounts(fallback, 1, "fallback")[0].tolist())
        self.discounts_: np.ndarray | None = None
        self.count_of_counts_: np.ndarray | None = None
        self.fallback_orders_: tuple[int, ...] = ()
        self._levels: tuple[_KneserNeyLevel, ...] = ()

    def fit(self, sentences, vocab: Vocabulary | None = None, min_count: int = 1):
        """Count as :meth:`NgramModel.fit`, then adjust the counts and estimate the discounts."""
        super().fit(sentences, vocab, min_count)
        base, tables = self.counts.base, self.counts.tables
        # n-grams starting with <s> <s> exist only because of the padding (KenLM drops them)
        kept = [np.ones(tables[0].keys.size, dtype=bool)]
        for k in range(2, self.order + 1):
            lead = tables[k - 1].keys // base ** (k - 2)
            kept.append(~((lead // base == BOS_ID) & (lead % base == BOS_ID)))
        adjusted = []
        for k in range(1, self.order + 1):
            keys, counts = tables[k - 1].keys[kept[k - 1]], tables[k - 1].counts[kept[k - 1]]
            if k < self.order:
                longer = tables[k]
                suffixes, index = np.unique(longer.keys[kept[k]] % base**k, return_inverse=True)
                n_before = np.bincount(index, minlength=suffixes.size)
                seen_after = np.bincount(index, weights=longer.counts[kept[k]], minlength=suffixes.size)
                # occurrences with no word before them (no <s> padding) count as one more left word
                at_start = counts > _lookup(suffixes, seen_after, keys)
                continuation = _lookup(suffixes, n_before, keys) + at_start
                counts = np.where(keys // base ** (k - 1) == BOS_ID, counts, continuation)
            adjusted.append((keys, counts.astype(np.int64)))
        # t_j = how many n-grams have adjusted count j, j = 0..4 (t_0 = 0)
        self.count_of_counts_ = np.array([np.bincount(np.minimum(a, 5), minlength=6)[:5] for _, a in adjusted])
        self._estimate_discounts(self.count_of_counts_)
        self._levels = tuple(self._level(keys, a, d) for (keys, a), d in zip(adjusted, self.discounts_))
        return self

    def _estimate_discounts(self, count_of_counts: np.ndarray) -> None:
        if self._given_discounts is not None:
            self.discounts_, self.fallback_orders_ = self._given_discounts.copy(), ()
            return
        rows, fallen = [], []
        for k, t in enumerate(count_of_counts, start=1):
            discounts, why = _closed_form_discounts(t)
            if discounts is None:
                if self.fallback is None:
                    raise ValueError(
                        f"cannot estimate the Kneser-Ney discounts of order {k}: {why} "
                        f"(count-of-counts t1..t4 = {t[1:].tolist()}); the training data is too small: "
                        "pass discounts=(D1, D2, D3+) or fallback=(0.5, 1.0, 1.5)"
                    )
                discounts = np.array(self.fallback)
                fallen.append(k)
            rows.append(discounts)
        self.discounts_, self.fallback_orders_ = np.array(rows), tuple(fallen)

    def _level(self, keys: np.ndarray, adjusted: np.ndarray, discounts: np.ndarray) -> _KneserNeyLevel:
        base = self.counts.base
        histories = keys // base
        if keys.size == 0:  # no n-gram of this order in training (one-word sentences, no </s>)
            empty = np.zeros(0)
            return _KneserNeyLevel(keys, empty, keys, empty, adjusted)
        starts = np.flatnonzero(np.r_[True, histories[1:] != histories[:-1]])
        total = np.add.reduceat(adjusted, starts).astype(float)
        size = np.diff(np.r_[starts, keys.size])
        d = discounts[np.minimum(adjusted, 3) - 1]
        mass = np.add.reduceat(d, starts)  # D1 N1(h •) + D2 N2(h •) + D3+ N3+(h •)
        return _KneserNeyLevel(
            keys=keys,
            u=(adjusted - d) / np.repeat(total, size),
            history_keys=histories[starts],
            gamma=mass / total,
            adjusted=adjusted,
        )

    def adjusted_counts(self, k: int) -> dict[tuple[str, ...], int]:
        """The adjusted count a of every kept k-gram (tokens -> a), for looking inside the model."""
        self._check_fitted()
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 1 <= k <= self.order:
            raise ValueError(f"k must be an order between 1 and {self.order}, got {k!r}")
        level = self._levels[k - 1]
        grams = self.counts.decode(level.keys, k)
        return {tuple(self.vocab.decode(row)): int(a) for row, a in zip(grams, level.adjusted)}

    def _probs(self, grams: np.ndarray, context_len: np.ndarray) -> np.ndarray:
        # a sum, not a log: a mixture of probabilities, each well above underflow
        base = self.counts.base
        first = self._levels[0]
        probs = _lookup(first.keys, first.u, grams[:, -1]) + first.gamma[0] / self._outcome_ids.size
        for k in range(2, self.order + 1):
            level = self._levels[k - 1]
            rows = np.flatnonzero(context_len >= k - 1)
            if rows.size == 0:
                break
            keys = _keys(grams[rows], k, base)
            gamma = _lookup(level.history_keys, level.gamma, keys // base, default=1.0)  # unseen h: P_{k-1}
            probs[rows] = _lookup(level.keys, level.u, keys) + gamma * probs[rows]
        return probs

    # Backoff form: the recursion above is one already, with α(h) = γ(h) and Q_k = P_k.

    def _check_backoff_form(self, exact: bool) -> None:
        pass

    def _lower_order_probs(self, grams: np.ndarray, k: int) -> np.ndarray:
        return self._probs(grams, np.full(grams.shape[0], k - 1))

    def _backoff_weights(self, grams: np.ndarray, k: int) -> np.ndarray:
        level = self._levels[k]
        return _lookup(level.history_keys, level.gamma, _keys(grams, k, self.counts.base), default=1.0)


# --- the course's table: perplexity by smoothing and order ------------------------------------

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
    orders = tuple(_check_order(n) for n in orders)
    unknown = [m for m in methods if m not in SMOOTHING_METHODS]
    if unknown or not methods or not orders:
        raise ValueError(
            f"methods must be some of {SMOOTHING_METHODS} and orders non-empty, got {list(methods)}, {orders}"
        )
    if vocab is None:
        vocab = Vocabulary.build([_flatten(train, "split.train")[0]])
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
