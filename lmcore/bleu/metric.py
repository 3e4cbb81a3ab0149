"""BLEU configured once, in the manner of sacrebleu's ``BLEU(...)``: the settings checked when the
metric is made, then ``corpus_score``, ``sentence_score`` and ``paired_bootstrap`` with them.

    BLEU = BP * exp(sum_n w_n log p_n),   n = 1..N (``max_order``)
    p_n  = clipped matches_n / totals_n,   BP = 1 if c > r else exp(1 - r/c) (0 when c = 0)

``BLEU`` is the one place where BLEU's settings are checked and passed on: ``corpus_bleu``,
``sentence_bleu`` and ``paired_bootstrap`` are one-call forms that build a ``BLEU`` and call it,
with the same numbers. The counting and combining are in ``score``, the resampling in
``bootstrap``, the checks of the settings in ``signature`` (which ``BleuSignature`` runs too).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from lmcore.bleu.bootstrap import (
    SACREBLEU_SEED,
    PairedBootstrap,
    _check_confidence,
    _check_seed,
    _resampled,
    _statistics_pair,
    sentence_stats_matrix,
)
from lmcore.bleu.score import BleuResult, BleuStats, _combine, _corpus_shape, _counted, _one_sentence
from lmcore.bleu.signature import PRETOKENIZED, BleuSignature, _check_settings, check_flag

__all__ = ["BLEU", "corpus_bleu", "sentence_bleu", "paired_bootstrap"]


@dataclass(frozen=True, kw_only=True)
class BLEU:
    """One set of BLEU settings, checked on construction; score with ``corpus_score`` and
    ``sentence_score``, compare two systems with ``paired_bootstrap``.

        BLEU = BP * exp(sum_n w_n log p_n),  p_n = clipped matches_n / totals_n,  BP = min(1, exp(1 - r/c))

    The settings are ``corpus_bleu``'s, with its defaults: ``max_order`` (N), ``weights`` (None
    or "uniform": 1/N each; "halving": 1/2^n; or N numbers >= 0), ``smooth_method`` ("none",
    "floor", "add-k", "exp") and ``smooth_value`` (for "floor" and "add-k"; None: 0.1 and 1),
    ``effective_order``, ``tokenize`` ("13a", "intl", "zh", "char", "none"; strings only),
    ``lowercase`` and ``nltk_totals``. A bad one raises ValueError or TypeError naming it. A
    sequence of weights is kept as a tuple of floats, so a metric is hashable.

    Against sacrebleu's ``sacrebleu.metrics.BLEU``: the same shape and tokenizers, but
    ``max_order`` for its ``max_ngram_order``; no smoothing by default (sacrebleu: "exp");
    ``references[i]`` is the list of references of ``hypotheses[i]`` (sacrebleu takes reference
    streams: ``references_from_streams`` converts them); scores on the 0-1 scale
    (``score100`` for 0-100); token lists accepted as well as strings; ``weights`` and
    ``nltk_totals`` added; no ``trg_lang``, ``force`` or reference cache. A metric never
    changes once made: sacrebleu's ``get_signature()`` reads the number of references from the
    last call, here ``signature(nrefs)`` takes it, and each result carries its own.

    >>> metric = BLEU(max_order=2)
    >>> round(metric.sentence_score("我 是 一位 老师", ["我 是 一个 学生"]).score, 4)
    0.4082
    >>> result = metric.corpus_score(["我 是 一位 老师", "跟我 学 深度学习"],
    ...                              [["我 是 一个 学生", "我 是 一位 学生 。"], ["跟我 一起 学 机器学习"]])
    >>> round(result.score, 5), result.signature == metric.signature("var")
    (0.46337, True)
    >>> BLEU(smooth_method="floor", smooth_value=-1)
    Traceback (most recent call last):
    ...
    ValueError: smooth_value must be a finite number >= 0, got -1
    """

    max_order: int = 4
    weights: Sequence[float] | str | None = None
    smooth_method: str = "none"
    smooth_value: float | None = None
    effective_order: bool = False
    tokenize: str = "13a"
    lowercase: bool = False
    nltk_totals: bool = False

    def __post_init__(self) -> None:
        # tokenize="pretokenized" is what a signature says of token lists, not a setting
        checked = _check_settings(tokenize=self.tokenize, lowercase=self.lowercase, smooth_method=self.smooth_method,
                                  smooth_value=self.smooth_value, effective_order=self.effective_order,
                                  max_order=self.max_order, weights=self.weights, nltk_totals=self.nltk_totals)
        for name in ("lowercase", "effective_order", "nltk_totals"):
            object.__setattr__(self, name, checked[name])  # True/False, numpy's bools too
        if self.weights is not None and not isinstance(self.weights, str):
            object.__setattr__(self, "weights", checked["weights"])  # a hashable tuple of floats

    def signature(self, nrefs: int | str = 1, *, pretokenized: bool = False) -> BleuSignature:
        """The ``BleuSignature`` of a score with these settings on ``nrefs`` references per
        hypothesis ("var" if that varies), of token lists if ``pretokenized``: what
        ``corpus_score`` puts on its result.

        >>> print(BLEU(tokenize="zh").signature(2).format(short=True))  # doctest: +ELLIPSIS
        #:2|c:mixed|e:no|tok:zh|s:none|N:4|w:uniform|v:lmcore-...
        """
        pretokenized = check_flag("pretokenized", pretokenized)
        return BleuSignature(nrefs=nrefs, tokenize=PRETOKENIZED if pretokenized else self.tokenize,
                             lowercase=self.lowercase, smooth_method=self.smooth_method,
                             smooth_value=self.smooth_value, effective_order=self.effective_order,
                             max_order=self.max_order, weights=self.weights, nltk_totals=self.nltk_totals)

    def corpus_score(self, hypotheses: Sequence[str | Sequence[str]],
                     references: Sequence[Sequence[str | Sequence[str]]]) -> BleuResult:
        """Corpus BLEU: every sentence's matches, totals, c and r added up, then combined once.

        ``hypotheses[i]``: a string or a token list; ``references[i]``: the list of its
        references, of the same kind. Strings are tokenized with ``tokenize``, token lists used
        as they are (the signature then says "tok:pretokenized").

        >>> hyps = [["我", "是", "一位", "老师"], ["跟我", "学", "深度学习"]]
        >>> refs = [[["我", "是", "一个", "学生"], ["我", "是", "一位", "学生", "。"]],
        ...         [["跟我", "一起", "学", "机器学习"]]]
        >>> result = BLEU(max_order=2).corpus_score(hyps, refs)
        >>> round(result.score, 5), result.stats
        (0.46337, BleuStats(matches=(5, 2), totals=(7, 5), hyp_len=7, ref_len=8))
        """
        nrefs, texts = _corpus_shape(hypotheses, references, self.tokenize)
        signature = self.signature(nrefs, pretokenized=not texts)
        stats = _counted(hypotheses, references, self.max_order, self.tokenize, self.lowercase, self.nltk_totals,
                         texts)
        return _combine(stats, signature)

    def sentence_score(self, hypothesis: str | Sequence[str],
                       references: Sequence[str | Sequence[str]]) -> BleuResult:
        """BLEU of one hypothesis against the list of its references: exactly
        ``corpus_score([hypothesis], [references])``. Unlike sacrebleu's, it does not warn
        without ``effective_order``; ``BLEU(smooth_method="exp", effective_order=True)`` is
        sacrebleu's ``sentence_bleu``.

        >>> metric = BLEU(max_order=2)
        >>> round(metric.sentence_score("我 是 一位 老师", ["我 是 一个 学生", "我 是 一位 学生 。"]).score, 4)
        0.7071
        """
        return self.corpus_score([hypothesis], _one_sentence(references))

    def paired_bootstrap(self, system_a: Sequence[str | Sequence[str]] | Sequence[BleuStats] | np.ndarray,
                         system_b: Sequence[str | Sequence[str]] | Sequence[BleuStats] | np.ndarray,
                         references: Sequence[Sequence[str | Sequence[str]]] | None = None, *,
                         n_resamples: int = 1000, seed: int | None = SACREBLEU_SEED,
                         confidence: float = 0.95) -> PairedBootstrap:
        """Paired bootstrap resampling of two systems' corpus BLEU with these settings (Koehn, 2004;
        ``bootstrap`` explains it): ``delta* = BLEU_B - BLEU_A`` on ``n_resamples`` resamples of
        the sentences, the same ones for both systems, drawn as sacrebleu does for the same ``seed``.

        With ``references``: ``system_a`` and ``system_b`` are the two systems' hypotheses for
        the same sentences, counted with these settings. Without: they are the systems' sentence
        statistics, counted once beforehand (a ``stats_matrix`` or a list of ``BleuStats``, row i
        for sentence i, of order ``max_order``), as ``paired_bootstrap`` takes them.

        >>> refs = [["a b c d"], ["e f g"], ["h i j k"]]
        >>> result = BLEU(max_order=2).paired_bootstrap(["a b c x", "e f", "h i j k"],
        ...                                             ["a b c d", "e f g", "h x j k"], refs, n_resamples=200, seed=0)
        >>> f"A = {result.score_a:.4f}, B = {result.score_b:.4f}, B wins in {result.wins_b:.0%}"
        'A = 0.7947, B = 0.8257, B wins in 70%'
        """
        _check_confidence(confidence)  # before any counting, so that a bad setting is named at once
        _check_seed(seed)
        if references is None:
            for name, system in (("system_a", system_a), ("system_b", system_b)):
                first = system[0] if isinstance(system, (list, tuple)) and system else None
                tokens = isinstance(first, (list, tuple)) and all(isinstance(token, str) for token in first)
                if isinstance(first, str) or tokens:
                    raise TypeError(f"{name} holds hypotheses, not sentence statistics: pass their references "
                                    "too (references=...)")
            a, b = _statistics_pair(system_a, system_b, ("system_a", "system_b"))
            if a.shape[1] != 2 + 2 * self.max_order:
                raise ValueError(f"the statistics are of max order {(a.shape[1] - 2) // 2} but max_order is "
                                 f"{self.max_order}; count them with the same max_order")
        else:
            a, b = (sentence_stats_matrix(system, references, max_order=self.max_order, tokenize=self.tokenize,
                                          lowercase=self.lowercase, nltk_totals=self.nltk_totals)
                    for system in (system_a, system_b))
        return _resampled(a, b, self.signature(), n_resamples=n_resamples, seed=seed, confidence=confidence)


def corpus_bleu(hypotheses: Sequence[str | Sequence[str]], references: Sequence[Sequence[str | Sequence[str]]], *,
                max_order: int = 4, weights: Sequence[float] | str | None = None, smooth_method: str = "none",
                smooth_value: float | None = None, effective_order: bool = False, tokenize: str = "13a",
                lowercase: bool = False, nltk_totals: bool = False) -> BleuResult:
    """Corpus BLEU in one call: ``BLEU(**settings).corpus_score(hypotheses, references)``.

    Corpus BLEU adds up every sentence's matches, totals, c and r, then combines once.
    ``hypotheses[i]``: a string or a token list; ``references[i]``: the list of its
    references (from sacrebleu's streams: ``references_from_streams``). ``weights``:
    None or "uniform" (1/N), "halving" (1/2^n, non-standard) or N numbers >= 0.
    ``tokenize`` applies to strings only; ``lowercase`` to strings and tokens, as in
    sacrebleu; see ``bleu_from_stats`` for smoothing, ``BleuSignature`` for the signature.

    >>> hyps = ["我 是 一位 老师".split(), "跟我 学 深度学习".split()]
    >>> refs = [[["我", "是", "一个", "学生"], ["我", "是", "一位", "学生", "。"]],
    ...         [["跟我", "一起", "学", "机器学习"]]]
    >>> round(corpus_bleu(hyps, refs, max_order=2).score, 5)
    0.46337
    """
    return BLEU(max_order=max_order, weights=weights, smooth_method=smooth_method, smooth_value=smooth_value,
                effective_order=effective_order, tokenize=tokenize, lowercase=lowercase,
                nltk_totals=nltk_totals).corpus_score(hypotheses, references)


def sentence_bleu(hypothesis: str | Sequence[str], references: Sequence[str | Sequence[str]], *,
                  max_order: int = 4, weights: Sequence[float] | str | None = None, smooth_method: str = "none",
                  smooth_value: float | None = None, effective_order: bool = False, tokenize: str = "13a",
                  lowercase: bool = False, nltk_totals: bool = False) -> BleuResult:
    """BLEU of one hypothesis in one call: ``BLEU(**settings).sentence_score(hypothesis, references)``,
    which is exactly ``corpus_bleu([hypothesis], [references])``.

    Same defaults as ``corpus_bleu``; sacrebleu's ``sentence_bleu`` defaults to
    smooth_method="exp" and effective_order=True instead.

    >>> round(sentence_bleu("我 是 一位 老师", ["我 是 一个 学生"], max_order=2).score, 4)
    0.4082
    """
    return BLEU(max_order=max_order, weights=weights, smooth_method=smooth_method, smooth_value=smooth_value,
                effective_order=effective_order, tokenize=tokenize, lowercase=lowercase,
                nltk_totals=nltk_totals).sentence_score(hypothesis, references)


def paired_bootstrap(stats_a: np.ndarray | Sequence[BleuStats], stats_b: np.ndarray | Sequence[BleuStats], *,
                     n_resamples: int = 1000, seed: int | None = SACREBLEU_SEED, confidence: float = 0.95,
                     weights: Sequence[float] | str | None = None, smooth_method: str = "none",
                     smooth_value: float | None = None, effective_order: bool = False) -> PairedBootstrap:
    """Paired bootstrap resampling of corpus BLEU for two systems on the same sentences, in one call:
    ``BLEU(max_order=N, **settings).paired_bootstrap(stats_a, stats_b, ...)``, N read from the statistics.

    ``stats_a``, ``stats_b``: each system's sentence statistics, a ``stats_matrix`` (or a list
    of ``BleuStats``), row i for sentence i of the same test set. Both systems are scored on the
    same ``n_resamples`` resamples (seeded: the same seed gives the same result, and sacrebleu's
    draws by default); BLEU's settings are ``bleu_from_stats``'s.

    Introduced in notebooks/06_bleu.ipynb, section "Going further: Is A better than B?".

    >>> a = [BleuStats((3, 1), (4, 3), 4, 4), BleuStats((2, 0), (3, 2), 3, 4)]
    >>> b = [BleuStats((4, 2), (4, 3), 4, 4), BleuStats((2, 1), (3, 2), 3, 4)]
    >>> result = paired_bootstrap(a, b, n_resamples=200, seed=0)
    >>> f"{result.score_a:.4f} {result.score_b:.4f} {result.wins_b:.2f}"
    '0.3276 0.6217 1.00'
    """
    a, b = _statistics_pair(stats_a, stats_b)
    metric = BLEU(max_order=(a.shape[1] - 2) // 2, weights=weights, smooth_method=smooth_method,
                  smooth_value=smooth_value, effective_order=effective_order)
    return metric.paired_bootstrap(a, b, n_resamples=n_resamples, seed=seed, confidence=confidence)
