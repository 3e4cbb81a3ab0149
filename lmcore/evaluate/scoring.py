"""Perplexity and cross-entropy of a model on a test set, with explicit conventions.

For a model scoring the predicted tokens ``w_1 .. w_N`` of a test set,

    H = -(1/N) Σ_t log2 P(w_t | h_t)   (bits per token),     PP = 2 ** H

summed over the *whole* test set (corpus level): total log-probability over total
tokens, never the mean of per-sentence perplexities (that mean, which Hugging Face
``evaluate`` reports as ``mean_perplexity``, is a different number; see
:func:`sentence_perplexities`).

What is counted is a choice; lmcore's choices are arguments with defaults, and here
is where they match the reference tools:

===============  ======================  ============  ====================  ======================
convention       lmcore (default)        KenLM         SRILM ``ngram -ppl``  nltk.lm ``perplexity``
===============  ======================  ============  ====================  ======================
``<s>``          context, never scored   same          same                  same, when padded
``</s>``         predicted and counted   same          ``ppl``: same;        ``pad_both_ends``: n-1
                 (``eos="count"``)                     ``ppl1``: scored,     of them, all predicted
                                                       not in N
                                                       (``eos="ppl1"``)
unknown word     scored as ``<unk>``     same          left out, reported    scored as ``<UNK>``
                 (``unknown="unk"``)                   as OOV
                                                       (``"exclude"``)
known word,      counted: PP = inf,      never         left out as           PP = inf
P = 0            token reported          happens       "zeroprob"
aggregation      corpus                  corpus        corpus                mean over the n-grams
                                         (``query``)                         passed (= corpus)
|V| of add-k     outcomes: words,        -             -                     ``len(vocab)``: words,
                 ``<unk>``, ``</s>``                                         ``<UNK>``, ``<s>``,
                                                                             ``</s>``
===============  ======================  ============  ====================  ======================

The model side of the conventions (padding, |V|) is ``lmcore.ngram.Convention``;
``convention="nltk"`` reproduces nltk.lm's MLE, Laplace and Lidstone at every context
length (tests/parity/test_nltk_parity.py).

lmcore never drops a zero-probability token silently (SRILM does, as "zeroprobs"):
the perplexity is ``inf`` and :attr:`PerplexityResult.zero_probability_tokens` names
the tokens. nltk returns ``inf`` even where a smoothed model should be finite: its
Kneser-Ney gives ``<s>`` and unseen words probability 0 (nltk issues 3065, 3211) and
its Witten-Bell gives unseen words 0; lmcore's smoothed models (add-k, interpolated)
give every outcome a positive probability.

Interpolation weights (``fit_interpolation_weights``, SRILM's compute-best-mix EM,
and ``interpolated_perplexity``) live beside the model, in :mod:`lmcore.ngram`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from lmcore.checks import PROBABILITY_SUM_TOLERANCE
from lmcore.lm import LanguageModel, Sentences, TokenScores, check_language_model

__all__ = ["UNKNOWN_MODES", "EOS_MODES", "PerplexityResult", "evaluate", "perplexity", "bits_per_token",
           "sentence_perplexities"]

UNKNOWN_MODES = ("unk", "exclude", "zero")
EOS_MODES = ("count", "ppl1", "exclude")


@dataclass(frozen=True)
class PerplexityResult:
    """A model's corpus-level perplexity on a test set, with the counts behind it.

    ``cross_entropy`` is in bits per counted token and ``perplexity = 2 ** cross_entropy``;
    ``total_logprob`` is the natural-log probability summed over the scored tokens;
    ``n_tokens`` counts the tokens in the denominator (predicted words, plus ``</s>``
    under ``eos="count"``); ``n_oov`` counts the test tokens outside the vocabulary,
    whatever ``unknown`` did with them; ``zero_probability_tokens`` lists
    ``(sentence index, position, token)`` of every scored token with probability 0
    (``</s>`` has position ``len(sentence)``).
    """

    perplexity: float
    cross_entropy: float
    n_tokens: int
    n_oov: int
    zero_probability_tokens: tuple[tuple[int, int, str], ...]
    total_logprob: float
    unknown: str
    eos: str


def _check_modes(unknown: str, eos: str) -> None:
    if unknown not in UNKNOWN_MODES:
        raise ValueError(f"unknown must be one of {UNKNOWN_MODES}, got {unknown!r}")
    if eos not in EOS_MODES:
        raise ValueError(f"eos must be one of {EOS_MODES}, got {eos!r}")


def _scored(model, sentences, unknown: str, eos: str):
    """Per-token log-probabilities after the conventions, and which tokens enter the sum and the count."""
    _check_modes(unknown, eos)
    scores = check_language_model(model).score_tokens(sentences)
    _check_logprobs(model, scores)
    logprobs = scores.logprobs.copy()
    if unknown == "zero":
        logprobs[scores.is_oov] = -math.inf
    in_sum = ~scores.is_oov if unknown == "exclude" else np.ones(logprobs.size, dtype=bool)
    if eos == "exclude":
        in_sum &= ~scores.is_eos
    in_count = in_sum & ~scores.is_eos if eos == "ppl1" else in_sum
    return scores, logprobs, in_sum, in_count


_ABOVE_LOG_1 = math.log1p(PROBABILITY_SUM_TOLERANCE)  # log P above 0 by rounding: P up to 1 + the tolerance


def _check_logprobs(model: LanguageModel, scores: TokenScores) -> None:
    """Refuse a model's log-probabilities that are NaN or above 0 (a probability above 1): they
    would make the perplexity NaN or too low, silently. ``-inf`` (probability 0) is no error."""
    bad = np.flatnonzero(~(scores.logprobs <= _ABOVE_LOG_1))  # NaN fails every comparison
    if bad.size:
        first = bad[0]
        raise ValueError(f"model {type(model).__name__} gave the log-probability {scores.logprobs[first]:.6g} (not "
                         f"a log-probability <= 0) to {bad.size} of {scores.logprobs.size} tokens, the first at "
                         f"sentences[{scores.sentence_index[first]}], position {scores.position[first]}")


def evaluate(model: LanguageModel, sentences: Sentences, *, unknown: str = "unk",
             eos: str = "count") -> PerplexityResult:
    """Corpus-level perplexity and cross-entropy of ``model`` on ``sentences``.

        H = -(1/N) Σ_t log2 P(w_t | h_t),   PP = 2 ** H

    - ``unknown="unk"`` (default, as KenLM and nltk): an out-of-vocabulary word is
      scored as ``<unk>``; ``"exclude"`` (as SRILM): left out of the sum and of N;
      ``"zero"``: scored as probability 0 (so PP = inf).
    - ``eos="count"`` (default, as KenLM and SRILM ``ppl``): ``</s>`` is predicted and
      counted in N; ``"ppl1"``: its log-probability stays in the sum but it leaves N
      (SRILM ``ppl1``); ``"exclude"``: left out of both. ``<s>`` is never scored.

    A token of probability 0 makes the perplexity ``inf`` (never NaN, never an
    exception) and is listed in ``zero_probability_tokens``.

    Introduced in notebooks/04_perplexity.ipynb, section "Why test on unseen text".

    >>> from lmcore.ngram import AddK
    >>> toy = [s.split() for s in ("i spent three years", "before the mast", "i spent money")]
    >>> test = ["i spent three years before the mast".split()]
    >>> model = AddK(2, convention="course").fit(toy)
    >>> round(evaluate(model, test).perplexity, 4)                       # right: raw tokens
    4.9508
    >>> evaluate(model, [["<s>", "i", "spent", "money", "</s>"]])       # wrong: lmcore adds the markers
    Traceback (most recent call last):
    ...
    ValueError: sentences[0] holds the marker '<s>' at position 0: lmcore adds <s> and </s> itself (...), ...
    """
    scores, logprobs, in_sum, in_count = _scored(model, sentences, unknown, eos)
    n_tokens = int(in_count.sum())
    if n_tokens == 0:
        raise ValueError("sentences: no tokens left to count under these conventions")
    total = float(logprobs[in_sum].sum())
    zero_rows = np.flatnonzero(in_sum & np.isneginf(logprobs))
    zero_tokens = tuple(
        (int(s), int(p), _token_at(sentences, int(s), int(p)))
        for s, p in zip(scores.sentence_index[zero_rows], scores.position[zero_rows])
    )
    nats_per_token = -total / n_tokens
    try:
        perplexity = math.exp(nats_per_token)
    except OverflowError:  # beyond the largest float (about e^709.78): as good as infinite
        perplexity = math.inf
    return PerplexityResult(
        perplexity=perplexity,
        cross_entropy=nats_per_token / math.log(2),
        n_tokens=n_tokens,
        n_oov=int(scores.is_oov.sum()),
        zero_probability_tokens=zero_tokens,
        total_logprob=total,
        unknown=unknown,
        eos=eos,
    )


def _token_at(sentences, sentence_index: int, position: int) -> str:
    sentence = sentences[sentence_index]
    return sentence[position] if position < len(sentence) else "</s>"


def perplexity(model: LanguageModel, sentences: Sentences, *, unknown: str = "unk",
               eos: str = "count") -> float:
    """``evaluate(model, sentences, ...).perplexity``.

    Introduced in notebooks/04_perplexity.ipynb, section "From probability to perplexity".
    """
    return evaluate(model, sentences, unknown=unknown, eos=eos).perplexity


def bits_per_token(model: LanguageModel, sentences: Sentences, *, unknown: str = "unk",
                   eos: str = "count") -> float:
    """``evaluate(model, sentences, ...).cross_entropy``, in bits per token."""
    return evaluate(model, sentences, unknown=unknown, eos=eos).cross_entropy


def sentence_perplexities(model: LanguageModel, sentences: Sentences, *, unknown: str = "unk",
                          eos: str = "count") -> np.ndarray:
    """Each sentence's own perplexity, same conventions as :func:`evaluate`.

    For teaching a pitfall: their mean is *not* the corpus perplexity (short sentences
    weigh as much as long ones, and a mean of exponentials is not the exponential of a
    mean). A sentence with no counted token gets NaN.
    """
    scores, logprobs, in_sum, in_count = _scored(model, sentences, unknown, eos)
    n = len(sentences)
    totals = np.bincount(scores.sentence_index[in_sum], weights=logprobs[in_sum], minlength=n)
    counts = np.bincount(scores.sentence_index[in_count], minlength=n)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return np.where(counts > 0, np.exp(-totals / np.maximum(counts, 1)), np.nan)
