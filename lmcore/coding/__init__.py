"""Compression is prediction: arithmetic (range) coding driven by a language model.

- ``interval``: arithmetic coding by hand, exactly, on a short message (``narrow_interval``).
- ``coder``: ``encode``/``decode`` with any model and a speller for unknown words, sizes against gzip, bz2, xz.
- ``levels``: a model's next-token probabilities as the rows a coder needs, level by level.
"""

from __future__ import annotations

from lmcore.coding.coder import (
    CodedText,
    Coder,
    compressed_sizes,
    decode,
    encode,
    fit_speller,
    join_text,
    surprisal_bits,
)
from lmcore.coding.interval import Narrowing, narrow_interval
from lmcore.coding.levels import CODE_POINTS, METHODS, Predictor, check_coding_model

__all__ = [
    "Narrowing", "narrow_interval", "CodedText", "fit_speller", "Coder", "encode", "decode", "surprisal_bits",
    "join_text", "compressed_sizes", "CODE_POINTS", "METHODS", "Predictor", "check_coding_model",
]
