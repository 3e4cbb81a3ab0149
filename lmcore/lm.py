"""The language-model protocol: what every lmcore model does, so that every tool takes any model.

A language model predicts each token of a sentence from the tokens before it. Every model
in lmcore (the n-gram models, a model read from an ARPA file, the neural model) is a
:class:`LanguageModel`, and the tools that measure models (``lmcore.evaluate``, the
Shannon game, the arithmetic coder, bits per character, sliding windows) ask only for that.
A model supplies:

- ``vocab``, its :class:`~lmcore.text.Vocabulary`, and ``outcome_ids``, the sorted ids of
  the tokens it predicts (:attr:`~LanguageModel.outcomes` as str);
- :attr:`~LanguageModel.context_length`: the most tokens of context it reads (n - 1 for an
  n-gram model of order n, k for the neural model);
- :attr:`~LanguageModel.sentence_padding`: how many ``<s>`` stand before each sentence and
  how many ``</s>`` are predicted after it;
- :meth:`~LanguageModel.id_probs`: ``P(last id | the ids before it)`` for rows of
  ``context_length + 1`` ids, the vectorized core.

From these, every model gets the same :meth:`~LanguageModel.prob` (``(word, context)``, as
everywhere in lmcore), :meth:`~LanguageModel.logprob`, :meth:`~LanguageModel.distribution`,
:meth:`~LanguageModel.next_word_distribution`, :meth:`~LanguageModel.frame` (a test set's
predicted tokens, each with its context: :func:`frame_sentences`) and
:meth:`~LanguageModel.score_tokens` (their log-probabilities, :class:`TokenScores`);
:func:`context_rows` turns a context into id rows, and :func:`model_context` gives the
context a model reads after the tokens of a sentence so far, once for all of them.
lmcore adds ``<s>`` and ``</s>`` itself: :func:`check_no_markers` refuses them in a text.

>>> from lmcore.ngram import AddK
>>> model = AddK(2).fit([["a", "b"], ["b", "a"]])
>>> isinstance(model, LanguageModel), model.context_length, model.sentence_padding
(True, 1, (1, 1))
>>> grams, context_len = context_rows(model, ["a"], model.outcome_ids)
>>> grams.tolist(), context_len.tolist()   # one row per outcome: <unk>, </s>, a, b after "a"
([[3, 0], [3, 2], [3, 3], [3, 4]], [1, 1, 1, 1])
"""

from __future__ import annotations

import abc
import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain

import numpy as np

from lmcore.checks import PROBABILITY_SUM_TOLERANCE, check_int, check_sentences, check_str, check_tokens
from lmcore.text import BOS, BOS_ID, EOS, EOS_ID, UNK_ID, Vocabulary

__all__ = ["Sentences", "NotFittedError", "TokenScores", "FramedTokens", "LanguageModel", "context_rows",
           "model_context", "check_id_rows", "check_model_probs", "check_language_model", "flatten_sentences",
           "check_no_markers", "check_encoded", "padded_stream", "frame_sentences"]

#: Tokenized sentences, each a list of str tokens without markers: what models fit and score.
Sentences = Sequence[Sequence[str]]


class NotFittedError(ValueError):
    """A model was used before :meth:`fit` (or before it was read from a file)."""


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


@dataclass(frozen=True)
class FramedTokens:
    """The predicted tokens of a set of sentences, one row each (:func:`frame_sentences`).

    ``grams[t, -1]`` is the predicted id and ``grams[t, -1 - j]`` the id j tokens
    before it; only the last ``context_len[t]`` context columns are real.
    """

    grams: np.ndarray
    context_len: np.ndarray
    sentence_index: np.ndarray
    position: np.ndarray  # index in the unpadded sentence; len(sentence) + j for the j-th </s>
    is_eos: np.ndarray


class LanguageModel(abc.ABC):
    """What every lmcore language model does; a subclass supplies the abstract members.

    ``vocab`` is None until the model is fitted (or read); ``outcome_ids`` then holds the
    sorted ids of the tokens it predicts.
    """

    vocab: Vocabulary | None = None
    outcome_ids: np.ndarray
    keeps_last_tokens: bool = False  # True: a context longer than context_length is cut to its end
    #: True: for every v never seen after a history h in training, P(v | h) = β(h) P(v | h'), h' being h
    #: without its first token and P(v | h') the model's own (id_probs with one token less of context),
    #: and the model's ``counts`` list the words seen after each history: the coder codes it in levels.
    backs_off: bool = False

    @property
    @abc.abstractmethod
    def context_length(self) -> int:
        """The most tokens of context the model reads."""

    @property
    @abc.abstractmethod
    def sentence_padding(self) -> tuple[int, int]:
        """``(number of <s> before each sentence, number of </s> predicted after it)``."""

    @abc.abstractmethod
    def id_probs(self, grams: np.ndarray, context_len: np.ndarray) -> np.ndarray:
        """P(last id | the ids before it) for each row of ``grams`` (N x (context_length + 1) ids).

        Only the last ``context_len[t]`` context columns of row t are real context; the
        columns before them hold ``<s>``. A model that reads fewer tokens for a shorter
        context (an n-gram model backs off to its lower orders) uses ``context_len``; one
        that always reads its whole window (the neural model) reads the ``<s>`` as a
        sentence start.
        """

    def check_fitted(self) -> None:
        """Raise :class:`NotFittedError` unless the model has been fitted (or read from a file)."""
        if self.vocab is None:
            raise NotFittedError(f"{type(self).__name__} is not fitted: call fit(sentences) first")

    @property
    def outcomes(self) -> tuple[str, ...]:
        """The tokens the model predicts; their number is the |V| of add-k smoothing."""
        self.check_fitted()
        return tuple(self.vocab.decode(self.outcome_ids))

    def outcome_probs(self, grams: np.ndarray, context_len: np.ndarray) -> np.ndarray:
        """:meth:`id_probs`, with 0 for a row whose last id the model never predicts (``<s>``, a
        closed vocabulary's ``<unk>``): a formula such as add-k would give it mass."""
        is_outcome = np.isin(grams[:, -1], self.outcome_ids)
        return np.where(is_outcome, self.id_probs(grams, context_len), 0.0)

    def prob(self, word: str, context: Sequence[str] = ()) -> float:
        """P(word | context). A word outside the vocabulary is scored as ``<unk>``.

        ``context`` is a list of str tokens, at most :attr:`context_length` of them (pass
        ``"<s>"`` explicitly for a sentence start).
        """
        check_str(word, "word")
        self.check_fitted()
        grams, context_len = context_rows(self, context, np.array([self.vocab.id(word)]))
        return float(check_model_probs(self, self.outcome_probs(grams, context_len))[0])

    def logprob(self, word: str, context: Sequence[str] = ()) -> float:
        """Natural log of :meth:`prob`; ``-inf`` for probability 0."""
        p = self.prob(word, context)
        return math.log(p) if p > 0 else -math.inf

    def distribution(self, context: Sequence[str] = ()) -> np.ndarray:
        """P(every outcome | ``context``), aligned with ``outcome_ids``."""
        grams, context_len = context_rows(self, context, self.outcome_ids)
        return check_model_probs(self, self.outcome_probs(grams, context_len))

    def next_word_distribution(self, context: Sequence[str] = ()) -> dict[str, float]:
        """Every outcome with P(outcome | context), most probable first (ties by vocabulary order).

        The values sum to 1. For the Shannon game: what would the model guess next?

        Introduced in notebooks/05_smoothing_interpolation.ipynb, section "Where the probability goes".
        """
        probs = self.distribution(context)
        if probs.sum() == 0:
            raise ValueError(
                f"context {list(context)!r} was never seen as a history: "
                f"the {type(self).__name__} distribution is undefined there"
            )
        order = np.argsort(-probs, kind="stable")
        return {token: float(p) for token, p in zip(self.vocab.decode(self.outcome_ids[order]), probs[order])}

    def id_logprobs(self, grams: np.ndarray, context_len: np.ndarray) -> np.ndarray:
        """ln :meth:`outcome_probs` (``-inf`` for 0); a model that computes logs itself (the neural
        softmax) gives them here unrounded."""
        with np.errstate(divide="ignore"):
            return np.log(self.outcome_probs(grams, context_len))

    def frame(self, sentences: Sentences, name: str = "sentences") -> FramedTokens:
        """Every predicted token of ``sentences`` (lists of str tokens) with the ids before it, one
        row each: :func:`frame_sentences` with the model's :attr:`sentence_padding`, after
        :func:`check_no_markers`; errors name the argument ``name``."""
        self.check_fitted()
        tokens, lengths = flatten_sentences(sentences, name)
        ids = self.vocab.encode(tokens)
        check_no_markers(ids, lengths, self.vocab, name)
        n_start, n_end = self.sentence_padding
        framed = frame_sentences(ids, lengths, self.context_length + 1, n_start, n_end)
        if framed.grams.shape[0] == 0:
            raise ValueError(f"{name} has no tokens to predict")
        return framed

    def score_tokens(self, sentences: Sentences) -> TokenScores:
        """Log-probability of every predicted token of ``sentences`` (each a list of str tokens),
        framed by :meth:`frame`: ``ln P(w_t | its context)`` by :meth:`id_logprobs`, ``</s>`` included."""
        framed = self.frame(sentences)
        token_ids = framed.grams[:, -1]
        return TokenScores(self.id_logprobs(framed.grams, framed.context_len), token_ids, framed.sentence_index,
                           framed.position, framed.is_eos, token_ids == UNK_ID)

    def token_logprobs(self, sentences: Sentences) -> np.ndarray:
        """Natural-log probability of every predicted token of ``sentences``, in order, as one array.

        Includes each ``</s>`` the model predicts; ``-inf`` marks probability 0.
        """
        return self.score_tokens(sentences).logprobs


def context_rows(model: LanguageModel, context: Sequence[str], targets: np.ndarray,
                 name: str = "context") -> tuple[np.ndarray, np.ndarray]:
    """One id row per id of ``targets``, each after the same ``context`` of str tokens, and the
    context length of each row: what :meth:`LanguageModel.id_probs` reads.

    The context fills the columns just before the target, ``<s>`` the columns before it. A
    context longer than the model reads is refused, or cut to its last tokens for a model
    whose ``keeps_last_tokens`` is true (a window that slides along the text).
    """
    check_language_model(model)
    check_tokens(context, name)
    width = model.context_length
    if len(context) > width:
        if not model.keeps_last_tokens:
            raise ValueError(f"{name} has {len(context)} tokens; {_reach(model)}")
        context = context[len(context) - width:]
    context_ids = model.vocab.encode(list(context))
    targets = np.asarray(targets)
    if targets.ndim != 1 or (targets.size and not np.issubdtype(targets.dtype, np.integer)):
        raise TypeError(f"targets must be a 1-d array of int ids, got {targets.dtype} of shape {targets.shape}")
    targets = targets.astype(np.int64, copy=False)
    grams = np.full((targets.size, width + 1), BOS_ID, dtype=np.int64)
    grams[:, width - len(context_ids): width] = context_ids
    grams[:, -1] = targets
    return grams, np.full(targets.size, len(context_ids))


def model_context(model: LanguageModel, prefix: Sequence, start: object = BOS) -> tuple:
    """The context ``model`` reads after ``prefix``, the tokens of a sentence so far: the last
    ``context_length`` tokens (order - 1 for an n-gram model) of the sentence after its ``<s>``
    padding. ``prefix`` holds str tokens, or ids with ``start=BOS_ID`` (the coder's).

    >>> from lmcore.ngram import MLE
    >>> trigram = MLE(3).fit([["a", "b", "c"]])
    >>> model_context(trigram, []), model_context(trigram, ["a"]), model_context(trigram, ["a", "b", "c"])
    (('<s>', '<s>'), ('<s>', 'a'), ('b', 'c'))
    >>> model_context(trigram, [3], start=BOS_ID)
    (1, 3)
    """
    check_language_model(model)
    if start == BOS:
        check_tokens(prefix, "prefix")
    padded = [start] * model.sentence_padding[0] + list(prefix)
    return tuple(padded[max(len(padded) - model.context_length, 0):]) if model.context_length else ()


def check_id_rows(model: LanguageModel, grams: object, context_len: object) -> tuple[np.ndarray, np.ndarray]:
    """``grams`` and ``context_len`` as :meth:`LanguageModel.id_probs` reads them, checked: N rows of
    at most ``context_length + 1`` int ids of ``model``'s vocabulary (a lower order reads fewer), and
    N ints from 0 to the row's width - 1 (a float or NaN would index the wrong rows, or give NaN).

    >>> from lmcore.ngram import MLE
    >>> model = MLE(2).fit([["a", "b"]])
    >>> check_id_rows(model, [[1, 3]], [1.0])
    Traceback (most recent call last):
    ...
    TypeError: context_len must be a 1-d array of 1 int (one per row of grams), got float64 of shape (1,)
    """
    model.check_fitted()
    grams, context_len = np.asarray(grams), np.asarray(context_len)
    width = model.context_length + 1
    if grams.ndim != 2 or not 1 <= grams.shape[1] <= width or grams.dtype.kind not in "iu":
        raise TypeError(f"grams must be an int array of shape (N, {width}), got {grams.dtype} of shape {grams.shape}")
    n = grams.shape[0]
    if context_len.shape != (n,) or context_len.dtype.kind not in "iu":
        raise TypeError(f"context_len must be a 1-d array of {n} int{'s' * (n != 1)} (one per row of grams), "
                        f"got {context_len.dtype} of shape {context_len.shape}")
    # seen as unsigned, a negative number is huge: one max finds both ends (id_probs is a hot path)
    if n and _unsigned(grams).max() >= len(model.vocab):
        raise ValueError(f"grams holds ids outside 0..{len(model.vocab) - 1}")
    if n and _unsigned(context_len).max() >= grams.shape[1]:
        raise ValueError(f"context_len must be between 0 and {grams.shape[1] - 1}, "
                         f"got {context_len.min()} .. {context_len.max()}")
    return grams, context_len


def _unsigned(array: np.ndarray) -> np.ndarray:
    """An int array's bits read as unsigned ints of the same size (no copy)."""
    return array.view(f"u{array.dtype.itemsize}")


def check_model_probs(model: LanguageModel, probs: np.ndarray) -> np.ndarray:
    """``probs``, which ``model`` just computed, if each is a probability (a rounding error of
    :data:`lmcore.checks.PROBABILITY_SUM_TOLERANCE` above 1 passes): the tools refuse a model that
    answers NaN or a number outside [0, 1] by name, rather than pass the number on.

    >>> from lmcore.ngram import MLE
    >>> check_model_probs(MLE(1), np.array([0.5, np.nan]))
    Traceback (most recent call last):
    ...
    ValueError: model MLE gave the probability nan (not a number in [0, 1]) for 1 of 2 rows
    """
    good = (probs >= 0) & (probs <= 1 + PROBABILITY_SUM_TOLERANCE)  # NaN is neither
    if not good.all():
        bad = probs[~good]
        raise ValueError(f"model {type(model).__name__} gave the probability {bad[0]:.6g} (not a number in [0, 1]) "
                         f"for {bad.size} of {probs.size} rows")
    return probs


def _reach(model: LanguageModel) -> str:
    """How many tokens ``model`` reads, in words: for an error message."""
    order = getattr(model, "order", None)
    if order is not None:
        return f"a model of order {order} uses at most {order - 1}"
    return f"the model reads at most {model.context_length}"


def check_language_model(model: object, name: str = "model") -> LanguageModel:
    """``model`` if it is a fitted :class:`LanguageModel`; TypeError or :class:`NotFittedError` otherwise."""
    if not isinstance(model, LanguageModel):
        raise TypeError(f"{name} must be a fitted lmcore language model (an n-gram model, an ArpaModel "
                        f"or a NeuralLM), got {type(model).__name__}")
    model.check_fitted()
    return model


# --- framing sentences: what every model scores -------------------------------------------------


def flatten_sentences(sentences: object, name: str) -> tuple[list, np.ndarray]:
    """All tokens of ``sentences`` (:func:`lmcore.checks.check_sentences`: a non-empty list of token
    lists of str) in one list, and the length of each sentence; errors name the argument ``name``,
    a bad token the sentence it is in. One list lets the vocabulary encode every token in a single
    call, several times faster than one call per sentence (so the tokens are checked here: the
    vocabulary sees only the one list).

    >>> flatten_sentences([["i"], ["spent", "money"]], "heldout")[1].tolist()
    [1, 2]
    >>> flatten_sentences([["i"], ["spent", 3]], "heldout")
    Traceback (most recent call last):
    ...
    TypeError: heldout[1] must contain only str tokens, got int 3
    """
    sentences = check_sentences(sentences, name)
    lengths = np.fromiter(map(len, sentences), dtype=np.int64, count=len(sentences))
    return list(chain.from_iterable(sentences)), lengths


def check_no_markers(ids: np.ndarray, lengths: np.ndarray, vocab: Vocabulary, name: str = "sentences") -> None:
    """Refuse ``<s>`` or ``</s>`` among ``ids`` (the sentences ``name``, every one's vocabulary ids in
    a row, split by ``lengths``): lmcore adds them itself. The one place a text's markers are refused.

    >>> vocab = Vocabulary(["i", "spent"])
    >>> check_no_markers(vocab.encode(["i", "spent", "</s>"]), np.array([1, 2]), vocab)
    Traceback (most recent call last):
    ...
    ValueError: sentences[1] holds the marker '</s>' at position 1: lmcore adds <s> and </s> itself (see Convention), \
so pass the raw tokens, e.g. ['spent']
    """
    markers = np.flatnonzero((ids == BOS_ID) | (ids == EOS_ID))
    if markers.size:
        first = int(markers[0])
        ends = np.cumsum(lengths)
        index = int(np.searchsorted(ends, first, side="right"))
        start = int(ends[index] - lengths[index])
        sentence = vocab.decode(ids[start:int(ends[index])])
        raw = [t for t in sentence if t not in (BOS, EOS)] or ["i", "spent", "money"]
        raise ValueError(f"{name}[{index}] holds the marker {sentence[first - start]!r} at position {first - start}: "
                         f"lmcore adds {BOS} and {EOS} itself (see Convention), so pass the raw tokens, e.g. {raw}")


def padded_stream(ids: np.ndarray, lengths: np.ndarray, n_start: int, n_end: int,
                  cap: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """All sentences in one row of ids (int32), each after ``n_start`` ``<s>`` and before ``n_end``
    ``</s>``, and the depth of each token: how many tokens of its sentence come before it (int32;
    with ``cap``, at most ``cap``, in the smallest unsigned type). A token is predicted when its
    depth is ``n_start`` or more, and a k-gram ends there from depth k - 1.

    >>> [a.tolist() for a in padded_stream(np.array([5, 6]), np.array([2]), 1, 1)]   # <s>=1 a=5 b=6 </s>=2
    [[1, 5, 6, 2], [0, 1, 2, 3]]
    >>> padded_stream(np.array([5, 6]), np.array([2]), 1, 1, cap=2)[1].tolist()
    [0, 1, 2, 2]
    """
    padded = lengths + n_start + n_end
    starts = np.cumsum(padded) - padded
    total = int(padded.sum())
    if cap is None:
        depth = np.ones(total, dtype=np.int32)
        if depth.size:  # depth counts up from 0 in each sentence: +1 everywhere, reset at each start
            shown = padded > 0  # a sentence padded to nothing has no start
            depth[0] = 0
            depth[starts[shown][1:]] = 1 - padded[shown][:-1]
            np.cumsum(depth, out=depth)
    else:  # the first cap tokens of each sentence, one step each: no array over the tokens but this
        depth = np.full(total, cap, dtype=np.min_scalar_type(cap))
        for j in range(cap):
            depth[starts[padded > j] + j] = j
    stream = np.full(total, BOS_ID, dtype=np.int32)  # the <s> are in place
    real = np.ones(total, dtype=bool)  # a mask, not an array of positions: a byte per token
    for j in range(n_start):
        real[starts + j] = False
    ends = starts + n_start + lengths
    for j in range(n_end):
        real[ends + j] = False
    stream[real] = ids
    del real
    for j in range(n_end):
        stream[ends + j] = EOS_ID
    return stream, depth


def frame_sentences(ids: np.ndarray, lengths: np.ndarray, order: int, n_start: int, n_end: int) -> FramedTokens:
    """Pad each sentence with ``n_start`` ``<s>`` and ``n_end`` ``</s>`` and list every predicted
    token with the ``order - 1`` ids before it (vectorized): row t of ``grams`` is

        (w_{t-order+1}, ..., w_{t-1}, w_t),   w_j = <s> before the sentence's start.

    ``ids`` holds all sentences' ids in a row, split by ``lengths``.

    >>> framed = frame_sentences(np.array([5, 6]), np.array([2]), order=2, n_start=1, n_end=1)
    >>> framed.grams.tolist(), framed.context_len.tolist()   # <s>=1 a=5, a b=6, b </s>=2
    ([[1, 5], [5, 6], [6, 2]], [1, 1, 1])
    """
    ids, lengths = _ids_and_lengths(ids, lengths)
    order = check_int(order, "order")
    n_start, n_end = check_int(n_start, "n_start", minimum=0), check_int(n_end, "n_end", minimum=0)
    stream, depth = padded_stream(ids, lengths, n_start, n_end)
    rows = np.flatnonzero(depth >= n_start)
    grams = np.empty((rows.size, order), dtype=np.int64)
    for back in range(order):
        # reads across sentence starts are harmless: context_len masks them
        grams[:, order - 1 - back] = stream[np.maximum(rows - back, 0)]
    sentence_index = np.repeat(np.arange(lengths.size), lengths + n_end)
    position = depth[rows] - n_start
    return FramedTokens(grams, np.minimum(depth[rows], order - 1), sentence_index, position,
                        is_eos=position >= lengths[sentence_index])


def check_encoded(ids: object, lengths: object, vocab: Vocabulary, name: str = "sentences"
                  ) -> tuple[np.ndarray, np.ndarray]:
    """``ids`` (every sentence's vocabulary ids in a row) and ``lengths`` (one per sentence) as
    arrays, checked against ``vocab``: ids in range, no ``<s>``/``</s>`` inside (:func:`check_no_markers`).

    >>> check_encoded([3, 9], [2], Vocabulary(["a"]))
    Traceback (most recent call last):
    ...
    ValueError: ids must be vocabulary ids between 0 and 3, got 3 .. 9
    """
    if not isinstance(vocab, Vocabulary):
        raise TypeError(f"vocab must be an lmcore Vocabulary, got {type(vocab).__name__}")
    ids, lengths = _ids_and_lengths(ids, lengths)
    if ids.size and (ids.min() < 0 or ids.max() >= len(vocab)):
        raise ValueError(f"ids must be vocabulary ids between 0 and {len(vocab) - 1}, got {ids.min()} .. {ids.max()}")
    check_no_markers(ids, lengths, vocab, name)
    return ids, lengths.astype(np.int64)


def _ids_and_lengths(ids: object, lengths: object) -> tuple[np.ndarray, np.ndarray]:
    """``ids`` (every sentence's ids in a row) and ``lengths`` (one per sentence, adding up to
    the number of ids) as 1-d int arrays, or an error naming the one that is not."""
    ids, lengths = np.asarray(ids), np.asarray(lengths)
    if ids.ndim != 1 or not np.issubdtype(ids.dtype, np.integer):
        raise TypeError(f"ids must be a 1-d array of integer vocabulary ids, got {ids.dtype} of shape {ids.shape}")
    if lengths.ndim != 1 or not np.issubdtype(lengths.dtype, np.integer) or (lengths < 0).any():
        raise TypeError("lengths must be a 1-d array of sentence lengths (integers >= 0)")
    if int(lengths.sum()) != ids.size:
        raise ValueError(f"lengths add up to {int(lengths.sum())}, but ids holds {ids.size} ids")
    return ids, lengths
