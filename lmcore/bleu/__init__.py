"""BLEU that shows its work, sacrebleu's conventions stated in a signature, and the paired bootstrap.

- ``signature``: ``BleuSettings``, BLEU's eight settings in one object, checked once; the
  tokenizers they name (``TOKENIZERS``, ``bleu_tokens``); smoothing defaults; ``BleuSignature``.
- ``score``: clipped n-gram statistics, brevity penalty, BLEU from statistics, and
  ``corpus_bleu`` and ``sentence_bleu``, which count and combine in one call.
- ``bootstrap``: statistics matrices, vectorized BLEU, the resampling and ``paired_bootstrap``.
- ``metric``: ``BLEU``, a ``BleuSettings`` with ``corpus_score``, ``sentence_score`` and
  ``paired_bootstrap`` (as sacrebleu's ``BLEU(...)``).

Every function that takes BLEU's settings takes one ``BleuSettings`` (a ``BLEU`` is one) or its
keyword arguments, after its data: ``corpus_bleu(hypotheses, references, max_order=2)``.
"""

from __future__ import annotations

from lmcore.bleu.bootstrap import (
    PairedBootstrap,
    bleu_scores,
    order_statistic_interval,
    paired_bootstrap,
    resample_indices,
    resampled_sums,
    stats_matrix,
)
from lmcore.bleu.metric import BLEU
from lmcore.bleu.score import (
    BleuResult,
    BleuStats,
    NgramRow,
    bleu_from_stats,
    brevity_penalty,
    corpus_bleu,
    corpus_stats,
    ngram_matches,
    references_from_streams,
    sentence_bleu,
    sentence_stats,
    sentence_stats_matrix,
)
from lmcore.bleu.signature import SMOOTHING_DEFAULTS, TOKENIZERS, BleuSettings, BleuSignature, bleu_tokens

__all__ = [
    "SMOOTHING_DEFAULTS", "TOKENIZERS", "BleuSettings", "BleuSignature", "BleuStats",
    "BleuResult", "NgramRow", "bleu_tokens", "references_from_streams", "sentence_stats", "corpus_stats",
    "ngram_matches", "brevity_penalty", "bleu_from_stats", "sentence_bleu", "corpus_bleu", "stats_matrix",
    "sentence_stats_matrix", "bleu_scores", "resample_indices", "resampled_sums", "order_statistic_interval",
    "PairedBootstrap", "paired_bootstrap", "BLEU",
]
