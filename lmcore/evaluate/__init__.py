"""Measuring any language model on text: perplexity with explicit conventions, units, windows.

- ``scoring``: ``evaluate`` (corpus perplexity and bits per token, with the conventions of
  KenLM, SRILM and nltk as arguments), per-sentence perplexities.
- ``table``: the classic unigram/bigram/trigram table on several corpora from one interpolated
  fit each (``order_table``), and the perplexity table of several smoothings and orders on one
  test set (``perplexity_table``).
- ``units``: bits per character, one denominator for words, subwords and characters.
- ``windows``: sliding-window scoring for a model that reads at most a window of tokens.
"""

from __future__ import annotations

from lmcore.evaluate.scoring import (
    EOS_MODES,
    UNKNOWN_MODES,
    PerplexityResult,
    bits_per_token,
    evaluate,
    perplexity,
    sentence_perplexities,
)
from lmcore.evaluate.table import (
    SMOOTHING_METHODS,
    OrderTable,
    PerplexityTable,
    order_name,
    order_table,
    perplexity_table,
)
from lmcore.evaluate.units import (
    UNITS,
    UnitScore,
    UnitTable,
    characters,
    count_characters,
    per_character,
    score_text,
    spelling_bits,
    texts,
    unit_table,
)
from lmcore.evaluate.windows import (
    WindowedScore,
    WindowPlan,
    context_in_window,
    window_plan,
    windowed_score,
)

__all__ = [
    "UNKNOWN_MODES", "EOS_MODES", "PerplexityResult", "evaluate", "perplexity", "bits_per_token",
    "sentence_perplexities", "SMOOTHING_METHODS", "PerplexityTable", "perplexity_table", "OrderTable", "order_table",
    "order_name", "UNITS", "texts",
    "characters", "count_characters", "spelling_bits", "UnitScore", "score_text", "per_character", "WindowPlan",
    "window_plan", "context_in_window", "WindowedScore", "windowed_score",
    "UnitTable", "unit_table",
]
