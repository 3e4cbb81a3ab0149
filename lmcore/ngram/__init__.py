"""N-gram language models counted in numpy: MLE, add-k (Laplace), linear interpolation, Kneser-Ney.

A model of order n predicts each token from the n - 1 tokens before it. Sentences
are framed by a :class:`Convention`: by default (as KenLM and SRILM) each sentence
gets n - 1 ``<s>`` before it (context only, never predicted) and one ``</s>`` after
it (predicted, like a word). Every model is an :class:`NgramModel` (``model``), a :class:`lmcore.lm.LanguageModel`;
the models trained from counts are each a :class:`CountedNgramModel` (``counted``), whose counts
are kept in numpy tables (``counting``) and looked up by tokens
(``model.count(word, context)``, ``model.continuations(context)``).
Introduced in chapter 4, *Perplexity* (notebooks/04_perplexity.ipynb), section "Why test on
unseen text", and chapter 5, *Smoothing and interpolation*.

Models (all probabilities of an *outcome*: a known word, ``<unk>`` in an open
vocabulary, ``</s>`` when sentences end with it; never ``<s>``, except under nltk's
convention):

- :class:`MLE` (``add_k``): ``P(w | h) = c(h, w) / c(h)``; an unseen history gives 0 (as nltk),
  and its :meth:`~NgramModel.next_word_distribution` raises, as it is undefined.
- :class:`AddK`: ``P(w | h) = (c(h, w) + k) / (c(h) + k |V|)``, |V| = number of
  outcomes; ``k = 1`` is Laplace.
- :class:`Interpolated`: ``P(w | h) = Σ_i λ_i P_i(w | h_i)`` (``interpolation``).
- :class:`KneserNey`: interpolated modified Kneser-Ney, as KenLM's ``lmplz`` (``kneser_ney``).

:func:`write_arpa` writes a model in backoff form (a :class:`BackoffModel`, ``backoff``) as an
ARPA file (``arpa_writer``) and refuses any other with the reason; :func:`read_arpa` reads one, KenLM's
and SRILM's included, as an :class:`ArpaModel` (``arpa_reader``).

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

from lmcore.ngram.add_k import MLE, AddK
from lmcore.ngram.arpa_reader import ArpaModel, read_arpa
from lmcore.ngram.arpa_writer import DIGITS, LOG10_ZERO, write_arpa
from lmcore.ngram.backoff import BackoffModel
from lmcore.ngram.counted import CountedNgramModel, encode_sentences
from lmcore.ngram.counting import NgramCounts, NgramTable, TokenCounts, check_order
from lmcore.ngram.interpolation import (
    LAMBDA_SUM_TOLERANCE,
    EMTrace,
    Interpolated,
    check_lambdas,
    check_order_probs,
    fit_interpolation_weights,
    interpolated_perplexity,
    interpolated_probs,
)
from lmcore.ngram.kneser_ney import FALLBACK_DISCOUNTS, KneserNey, kneser_ney_discounts
from lmcore.ngram.model import CONVENTIONS, Convention, NgramModel, resolve_convention

__all__ = [
    "NgramCounts", "NgramTable", "TokenCounts", "check_order", "CONVENTIONS", "Convention", "NgramModel",
    "resolve_convention", "CountedNgramModel",
    "MLE", "AddK", "LAMBDA_SUM_TOLERANCE", "EMTrace", "Interpolated", "check_lambdas", "check_order_probs",
    "fit_interpolation_weights", "interpolated_perplexity", "interpolated_probs", "FALLBACK_DISCOUNTS",
    "KneserNey", "kneser_ney_discounts", "DIGITS", "LOG10_ZERO", "BackoffModel", "write_arpa", "ArpaModel",
    "read_arpa", "encode_sentences",
]
