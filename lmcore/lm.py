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

from lmcore.checks import check_str, check_tokens
from lmcore.text import BOS_ID, Vocabulary

__all__ = ["Sentences", "NotFittedError", "TokenScores", "LanguageModel", "context_rows", "check_language_model"]

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
        return float(self.outcome_probs(grams, context_len)[0])

    def logprob(self, word: str, context: Sequence[str] = ()) -> float:
        """Natural log of :meth:`prob`; ``-inf`` for probability 0."""
        p = self.prob(word, context)
        return math.log(p) if p > 0 else -math.inf

    def distribution(self, context: Sequence[str] = ()) -> np.ndarray:
        """P(every outcome | ``context``), aligned with ``outcome_ids``."""
        grams, context_len = context_rows(self, context, self.outcome_ids)
        return self.outcome_probs(grams, context_len)

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
    model.check_fitted()
    check_tokens(context, name)
    width = model.context_length
    if len(context) > width:
        if not model.keeps_last_tokens:
            raise ValueError(f"{name} has {len(context)} tokens; {_reach(model)}")
        context = context[len(context) - width:]
    context_ids = model.vocab.encode(list(context))
    targets = np.asarray(targets, dtype=np.int64)
    grams = np.full((targets.size, width + 1), BOS_ID, dtype=np.int64)
    grams[:, width - len(context_ids): width] = context_ids
    grams[:, -1] = targets
    return grams, np.full(targets.size, len(context_ids))


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
