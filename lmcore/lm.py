"""The language-model protocol: what every lmcore model does, so that every tool takes any model.

A language model predicts each token of a sentence from the tokens before it. Every model
in lmcore (the n-gram models, a model read from an ARPA file, the neural model) is a
:class:`LanguageModel`, and the tools that measure models (``lmcore.evaluate``, the
Shannon game, the arithmetic coder, bits per character, sliding windows) ask only for that.
A model supplies:

- ``vocab``, its :class:`~lmcore.text.Vocabulary`, and ``outcome_ids``, the sorted ids of
  the tokens it predicts (:attr:`~LanguageModel.outcomes` as str);
- :attr:`~LanguageModel.context_length`: the most tokens of context it reads (n - 1 for an
  n-gram model of order n, ``context_size`` for the neural model);
- :attr:`~LanguageModel.sentence_padding`: how many ``<s>`` stand before each sentence and
  how many ``</s>`` are predicted after it;
- :meth:`~LanguageModel.id_probs`: ``P(last id | the ids before it)`` for rows of
  ``context_length + 1`` ids, the vectorized core;
- :meth:`~LanguageModel.score_tokens`: the log-probability of every predicted token of a
  test set (:class:`TokenScores`).

From these, every model gets the same :meth:`~LanguageModel.prob` (``(word, context)``, as
everywhere in lmcore), :meth:`~LanguageModel.logprob`, :meth:`~LanguageModel.distribution`,
:meth:`~LanguageModel.next_word_distribution` and :meth:`~LanguageModel.token_logprobs`;
:func:`context_rows` turns a context into id rows, once for all of them.

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

import numpy as np

from lmcore.checks import PROBABILITY_SUM_TOLERANCE, check_str, check_tokens
from lmcore.text import BOS_ID, Vocabulary

__all__ = ["Sentences", "NotFittedError", "TokenScores", "LanguageModel", "context_rows", "check_id_rows",
           "check_model_probs", "check_language_model"]

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


class LanguageModel(abc.ABC):
    """What every lmcore language model does; a subclass supplies the abstract members.

    ``vocab`` is None until the model is fitted (or read); ``outcome_ids`` then holds the
    sorted ids of the tokens it predicts.
    """

    vocab: Vocabulary | None = None
    outcome_ids: np.ndarray
    keeps_last_tokens: bool = False  # True: a context longer than context_length is cut to its end

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

    @abc.abstractmethod
    def score_tokens(self, sentences: Sentences) -> TokenScores:
        """Log-probability of every predicted token of ``sentences`` (each a list of str tokens)."""

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
