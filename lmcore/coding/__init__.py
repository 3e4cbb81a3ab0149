"""Compression is prediction: arithmetic (range) coding driven by a language model.

- ``coder``: interval narrowing by hand, ``encode``/``decode`` with a model, sizes against gzip, bz2, xz.
- ``levels``: a model's next-token probabilities as the rows a coder needs, level by level.
"""

from __future__ import annotations

from lmcore.coding.coder import (
    CodedText,
    Coder,
    Narrowing,
    compressed_sizes,
    decode,
    encode,
    fit_speller,
    join_text,
    narrow_interval,
    surprisal_bits,
)
from lmcore.coding.levels import (
    CODE_POINTS,
    METHODS,
    Predictor,
    check_coding_model,
)

__all__ = [
    "Narrowing", "narrow_interval", "CodedText", "fit_speller", "Coder", "encode", "decode", "surprisal_bits",
    "join_text", "compressed_sizes", "CODE_POINTS", "METHODS", "Predictor", "check_coding_model",
]
