"""BLEU configured once, in the manner of sacrebleu's ``BLEU(...)``: the settings checked when the
metric is made, then ``corpus_score``, ``sentence_score`` and ``paired_bootstrap`` with them.

    BLEU = BP * exp(sum_n w_n log p_n),   n = 1..N (``max_order``)
    p_n  = clipped matches_n / totals_n,   BP = 1 if c > r else exp(1 - r/c) (0 when c = 0)

``BLEU`` is a ``BleuSettings`` (``signature``: the eight settings, checked once, when it is made)
with the methods that score: each passes the metric itself, as the settings, to the function
that does the work (``corpus_bleu`` and ``sentence_bleu`` in ``score``, ``paired_bootstrap`` in
``bootstrap``), so the numbers are those functions' and nothing is checked again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from lmcore.bleu.bootstrap import SACREBLEU_SEED, PairedBootstrap, paired_bootstrap
from lmcore.bleu.score import BleuResult, BleuStats, corpus_bleu, sentence_bleu
from lmcore.bleu.signature import BleuSettings

__all__ = ["BLEU"]


@dataclass(frozen=True)  # no fields of its own: BleuSettings's, keyword-only
class BLEU(BleuSettings):
    """One set of BLEU settings, checked on construction; score with ``corpus_score`` and
    ``sentence_score``, compare two systems with ``paired_bootstrap``.

        BLEU = BP * exp(sum_n w_n log p_n),  p_n = clipped matches_n / totals_n,  BP = min(1, exp(1 - r/c))

    A ``BLEU`` is a ``BleuSettings``: the same eight settings, defaults and checks (``max_order``,
    ``weights``, ``smooth_method``, ``smooth_value``, ``effective_order``, ``tokenize``,
    ``lowercase``, ``nltk_totals``; a bad one raises ValueError or TypeError naming it), with the
    methods that score. A sequence of weights is kept as a tuple of floats, so a metric is hashable.

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
    ValueError: smooth_value must be at least 0, got -1
    """

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
        return corpus_bleu(hypotheses, references, self)

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
        return sentence_bleu(hypothesis, references, self)

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
        for sentence i, of order ``max_order``). It is ``paired_bootstrap(system_a, system_b,
        references, self, ...)``.

        >>> refs = [["a b c d"], ["e f g"], ["h i j k"]]
        >>> result = BLEU(max_order=2).paired_bootstrap(["a b c x", "e f", "h i j k"],
        ...                                             ["a b c d", "e f g", "h x j k"], refs, n_resamples=200, seed=0)
        >>> f"A = {result.score_a:.4f}, B = {result.score_b:.4f}, B wins in {result.wins_b:.0%}"
        'A = 0.7947, B = 0.8257, B wins in 70%'
        """
        return paired_bootstrap(system_a, system_b, references, self, n_resamples=n_resamples, seed=seed,
                                confidence=confidence)
