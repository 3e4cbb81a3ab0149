"""BLEU that shows its work, sacrebleu's conventions stated in a signature, and the paired bootstrap.

- ``signature``: tokenizers, smoothing defaults, the checks of every setting and the signature string.
- ``score``: clipped n-gram statistics, brevity penalty, BLEU from statistics.
- ``bootstrap``: statistics matrices, vectorized BLEU and the resampling of the paired bootstrap.
- ``metric``: ``BLEU``, one set of settings checked once (as sacrebleu's ``BLEU(...)``), with
  ``corpus_score``, ``sentence_score`` and ``paired_bootstrap``; ``corpus_bleu``,
  ``sentence_bleu`` and ``paired_bootstrap`` are its one-call forms.
"""

from __future__ import annotations

from lmcore.bleu.bootstrap import (
    PairedBootstrap,
    bleu_scores,
    order_statistic_interval,
    resample_indices,
    resampled_sums,
    sentence_stats_matrix,
    stats_matrix,
)
from lmcore.bleu.metric import BLEU, corpus_bleu, paired_bootstrap, sentence_bleu
from lmcore.bleu.score import (
    BleuResult,
    BleuStats,
    NgramRow,
    bleu_from_stats,
    bleu_tokens,
    brevity_penalty,
    corpus_stats,
    ngram_table,
    references_from_streams,
    sentence_stats,
)
from lmcore.bleu.signature import (
    SMOOTHING_DEFAULTS,
    TOKENIZERS,
    BleuSignature,
    check_flag,
    check_max_order,
)

__all__ = [
    "SMOOTHING_DEFAULTS", "TOKENIZERS", "BleuSignature", "check_max_order", "check_flag", "BleuStats",
    "BleuResult", "NgramRow", "bleu_tokens", "references_from_streams", "sentence_stats", "corpus_stats",
    "ngram_table", "brevity_penalty", "bleu_from_stats", "sentence_bleu", "corpus_bleu", "stats_matrix",
    "sentence_stats_matrix", "bleu_scores", "resample_indices", "resampled_sums", "order_statistic_interval",
    "PairedBootstrap", "paired_bootstrap", "BLEU",
]
