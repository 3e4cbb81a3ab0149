"""Compression is prediction: arithmetic (range) coding driven by a language model.

- ``interval``: arithmetic coding by hand, exactly, on a short message (``narrow_interval``).
- ``coder``: ``encode``/``decode`` with any model and a speller for unknown words.
- ``container``: the coded bytes' header (the counts and a CRC-32), so that damaged data is refused.
- ``baselines``: the text the bits per character refer to, and gzip's, bz2's and lzma's sizes of it.
- ``levels``: a model's next-token probabilities as the rows a coder needs, level by level.
"""

from __future__ import annotations

from lmcore.coding.baselines import compressed_sizes, join_text
from lmcore.coding.coder import CodedText, Coder, decode, encode, fit_speller, surprisal_bits
from lmcore.coding.interval import Narrowing, narrow_interval
from lmcore.coding.levels import CODE_POINTS, METHODS, Predictor, check_coding_model

__all__ = [
    "Narrowing", "narrow_interval", "CodedText", "fit_speller", "Coder", "encode", "decode", "surprisal_bits",
    "CODE_POINTS", "METHODS", "Predictor", "check_coding_model", "join_text", "compressed_sizes",
]
