"""The n-gram model's contract: how sentences are framed (:class:`Convention`) and what every
n-gram model does (:class:`NgramModel`): score, give distributions, sample.

A model of order n predicts each token from the n - 1 tokens before it. Sentences are
framed by a :class:`Convention`: by default (as KenLM and SRILM) each sentence gets n - 1
``<s>`` before it (context only, never predicted) and one ``</s>`` after it (predicted,
like a word). lmcore adds these markers itself: a sentence passed to ``fit`` or scored
must not contain them. An :class:`NgramModel` is a :class:`lmcore.lm.LanguageModel`; the
models trained from counts (MLE, add-k, interpolation, Kneser-Ney) are
:class:`~lmcore.ngram.CountedNgramModel` s (``counted``), a model read from an ARPA file is
an :class:`~lmcore.ngram.ArpaModel` (``arpa_reader``).
"""

from __future__ import annotations

import abc
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from lmcore.checks import check_bool, check_int
from lmcore.lm import LanguageModel, flatten_sentences, model_context
from lmcore.ngram.counting import check_order
from lmcore.text import BOS_ID, EOS_ID, UNK_ID

__all__ = ["CONVENTIONS", "Convention", "NgramModel", "resolve_convention"]


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
    - ``everygrams``: the markers are tokens of the padded sentence like any word, as nltk's
      ``padded_everygram_pipeline`` has them. Every n-gram of the padded sentence is counted,
      also those made of ``<s>`` padding alone, which end at no predicted token (``<s>``
      unigrams, ``(<s>, <s>)`` bigrams, ... up to order - 1 of them); and a marker the framing
      never adds (both, at order 1) is a word never seen, scored as ``<unk>``. It changes only
      what a context shorter than order - 1 sees (``prob(word, context)`` with a short
      context, the unigram count of ``<s>``, the number of unigram tokens) and the score of
      such a marker, never a full-order score. It needs ``bos_outcome``: a counted ``<s>`` is
      an outcome. Kneser-Ney does not count the padding n-grams (KenLM drops them).

    Named conventions (:data:`CONVENTIONS`):

    - ``"standard"``: as KenLM and SRILM.
    - ``"course"``: the course's toy code. No ``<s>`` or ``</s>``, so the first word
      of a sentence is scored by the unigram model (the first n - 1 words by the lower
      orders); a closed |V| = the training words (8 on the toy corpus), so an unknown
      test word has probability 0. It gives the course's 8.0155 and 4.9508.
    - ``"nltk"``: ``padded_everygram_pipeline`` plus ``pad_both_ends``: n - 1 ``<s>`` and
      n - 1 ``</s>``, every everygram counted (``everygrams``); |V| = nltk's ``len(vocab)``,
      which holds ``<UNK>``, ``<s>`` and ``</s>``. MLE and add-k then give nltk's
      ``score(word, context)`` for every context of 0 to n - 1 tokens, and
      :meth:`NgramModel.ngram_entropy` its ``entropy(text_ngrams)``.

    ``Convention(end_markers=None, bos_outcome=True)`` is nltk's framing and |V| with lmcore's
    counts (``<s>`` in |V| but never counted): what ``"nltk"`` was before ``everygrams``.

    ``Convention(start_padding=0, end_markers=0)`` is the course's framing with
    ``<unk>`` in |V| (9 on the toy corpus): nltk's unpadded 8.4608 and 5.4547.
    """

    start_padding: int | None = None
    end_markers: int | None = 1
    open_vocabulary: bool = True
    bos_outcome: bool = False
    everygrams: bool = False

    def padding(self, order: int) -> tuple[int, int]:
        """``(number of <s>, number of </s>)`` around each sentence for a model of ``order``."""
        start = order - 1 if self.start_padding is None else self.start_padding
        end = order - 1 if self.end_markers is None else self.end_markers
        return start, end


CONVENTIONS = {
    "standard": Convention(),
    "course": Convention(start_padding=0, end_markers=0, open_vocabulary=False),
    "nltk": Convention(end_markers=None, bos_outcome=True, everygrams=True),
}


def resolve_convention(convention: Convention | str) -> Convention:
    """``convention`` as a :class:`Convention`: one given, checked (its numbers of markers ``None``
    or ints >= 0, its flags True or False, ``everygrams`` only with ``bos_outcome``), or the one
    :data:`CONVENTIONS` names.

    >>> resolve_convention("course").open_vocabulary
    False
    >>> resolve_convention(Convention(end_markers=-1))
    Traceback (most recent call last):
    ...
    ValueError: convention.end_markers must be at least 0, got -1
    """
    if isinstance(convention, Convention):
        for name in ("start_padding", "end_markers"):
            if getattr(convention, name) is not None:
                check_int(getattr(convention, name), f"convention.{name}", minimum=0)
        for name in ("open_vocabulary", "bos_outcome", "everygrams"):
            check_bool(getattr(convention, name), f"convention.{name}")
        if convention.everygrams and not convention.bos_outcome:
            raise ValueError("convention.everygrams counts <s> like a predicted token, so it needs "
                             "bos_outcome=True (<s> an outcome), as nltk's convention has")
        return convention
    if isinstance(convention, str) and convention in CONVENTIONS:
        return CONVENTIONS[convention]
    raise ValueError(f"convention must be a Convention or one of {sorted(CONVENTIONS)}, got {convention!r}")


class NgramModel(LanguageModel):
    """What every n-gram model does: frame sentences by its :class:`Convention`, score them,
    give next-word distributions and sample.

    A subclass supplies :meth:`id_probs`, the probability of each row's last id given the ids
    before it, and sets ``vocab``, ``outcome_ids`` and ``_is_outcome`` (a mask over the
    vocabulary) when it is fitted or read; framing and scoring are the protocol's
    (:meth:`lmcore.lm.LanguageModel.frame`, :meth:`~lmcore.lm.LanguageModel.score_tokens`). A
    subclass that lacks ``id_probs`` cannot be built: ``HalfMade(2)`` raises ``TypeError: Can't
    instantiate abstract class HalfMade with abstract method id_probs``.
    """

    def __init__(self, order: int, *, convention: Convention | str = "standard"):
        self.order = check_order(order)
        self.convention = resolve_convention(convention)
        self.vocab = None

    def __repr__(self) -> str:
        fitted = "not fitted" if self.vocab is None else f"{self.vocab.n_words} words"
        return f"{type(self).__name__}(order={self.order}, {fitted})"

    @property
    def context_length(self) -> int:
        """n - 1: the most tokens of context a model of order n reads."""
        return self.order - 1

    @property
    def sentence_padding(self) -> tuple[int, int]:
        """``(number of <s>, number of </s>)`` around each sentence, as the convention says."""
        return self.convention.padding(self.order)

    @abc.abstractmethod
    def id_probs(self, grams: np.ndarray, context_len: np.ndarray) -> np.ndarray:
        """P(last id | the ids before it) for each row of ``grams`` (N x order ids), the vectorized core.

        Only the last ``context_len[t]`` context columns of row t are real; a shorter context
        is scored by the model of order ``context_len[t] + 1``.
        """

    def outcome_probs(self, grams: np.ndarray, context_len: np.ndarray) -> np.ndarray:
        if self.convention.everygrams:  # a marker the framing never adds is a word never seen (nltk)
            for marker, added in zip((BOS_ID, EOS_ID), self.convention.padding(self.order)):
                if added == 0:
                    grams = np.where(grams == marker, UNK_ID, grams)
        # a formula such as add-k would give mass to a non-outcome (<s>, closed <unk>): it gets 0
        return np.where(self._is_outcome[grams[:, -1]], self.id_probs(grams, context_len), 0.0)

    # -- scoring and sampling

    def ngram_entropy(self, ngrams: Iterable[Sequence[str]]) -> float:
        """nltk.lm's ``entropy(text_ngrams)``: the mean surprisal, in bits, of the last token of each
        n-gram given the tokens before it,

            H = -(1/M) Σ_i log2 P(ngram_i[-1] | ngram_i[:-1]),   i = 1..M,

        each of the M n-grams (tuples or lists of 1 to order str tokens) scored as :meth:`prob`
        scores it: unknown words as ``<unk>``, ``<s>`` and ``</s>`` as any token, a short n-gram by
        the lower orders. ``inf`` if one has probability 0. Under ``convention="nltk"`` it equals
        nltk's ``entropy`` of the same n-grams, of any lengths (nltk scores an n-gram longer than
        its order from an empty table; lmcore refuses it). :func:`lmcore.evaluate.evaluate` scores
        sentences, framed by the convention: the same number (in bits per token) as this on
        ``ngrams(pad_both_ends(s, n), n)`` of every sentence s.

        >>> from lmcore.ngram import MLE
        >>> model = MLE(2, convention="nltk").fit([["a", "b"]])   # <s> a b </s>: 4 unigram tokens
        >>> model.ngram_entropy([("<s>", "a"), ("a",)])            # -(log2 1 + log2 1/4) / 2
        1.0
        """
        self.check_fitted()
        if isinstance(ngrams, Iterable) and not isinstance(ngrams, (Sequence, str, bytes)):
            ngrams = list(ngrams)  # a generator, as nltk's everygrams and ngrams give
        tokens, lengths = flatten_sentences(ngrams, "ngrams")
        bad = np.flatnonzero((lengths < 1) | (lengths > self.order))
        if bad.size:
            raise ValueError(f"ngrams[{bad[0]}] has {lengths[bad[0]]} tokens; a model of order {self.order} "
                             f"scores n-grams of 1 to {self.order}")
        ids, ends = self.vocab.encode(tokens), np.cumsum(lengths)
        grams = np.full((lengths.size, self.order), BOS_ID, dtype=np.int64)  # right-aligned, as context_rows
        for back in range(self.order):
            real = lengths > back
            grams[real, self.order - 1 - back] = ids[ends[real] - 1 - back]
        with np.errstate(divide="ignore"):
            bits = np.log2(self.outcome_probs(grams, lengths - 1))
        return -math.fsum(bits.tolist()) / lengths.size

    def ngram_perplexity(self, ngrams: Iterable[Sequence[str]]) -> float:
        """nltk.lm's ``perplexity(text_ngrams)``: ``2 ** ngram_entropy(ngrams)`` (see :meth:`ngram_entropy`)."""
        return 2.0 ** self.ngram_entropy(ngrams)

    def generate(self, n_sentences: int = 1, seed: int | None = None, max_length: int = 50) -> list[list[str]]:
        """Sample ``n_sentences`` sentences (token lists, without markers).

        Each token is drawn from :meth:`next_word_distribution`; a sentence ends at
        ``</s>``, at an undefined (MLE) distribution, or after ``max_length`` tokens
        (the only end when the convention has no ``</s>``).
        """
        self.check_fitted()
        n_sentences = check_int(n_sentences, "n_sentences", minimum=0)
        max_length = check_int(max_length, "max_length")
        rng = np.random.default_rng(seed)
        sentences = []
        for _ in range(n_sentences):
            tokens = []
            while len(tokens) < max_length:
                probs = self.distribution(model_context(self, tokens))
                if probs.sum() == 0:
                    break
                token_id = rng.choice(self.outcome_ids, p=probs / probs.sum())
                if token_id == EOS_ID:
                    break
                tokens.append(self.vocab.tokens[token_id])
            sentences.append(tokens)
        return sentences
