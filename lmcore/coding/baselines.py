"""The same bytes for everyone: the text the coder's bits per character refer to, and what the
general-purpose compressors (gzip, bz2, lzma) make of it.
"""

from __future__ import annotations

import bz2
import gzip
import lzma

from lmcore.lm import Sentences
from lmcore.text import join_tokens

__all__ = ["join_text", "compressed_sizes"]


def join_text(sentences: Sentences, separator: str = " ") -> str:
    """The text of tokenized ``sentences``: tokens joined by ``separator``, one sentence per line.

    This is the text the coder's bits per character refer to, and the bytes (UTF-8) the
    general-purpose compressors get: every character counts, spaces and line breaks too.

    >>> join_text([["in", "the"], ["beginning"]])
    'in the\\nbeginning'
    >>> join_text([["迈", "向"]], separator="")
    '迈向'
    """
    return "\n".join(join_tokens(sentences, separator))


def compressed_sizes(data: bytes) -> dict[str, int]:
    """Bytes that gzip, bz2 and lzma need for ``data``, each at its strongest standard setting (9).

    >>> sizes = compressed_sizes(b"abracadabra " * 100)
    >>> list(sizes), sizes["gzip"] < 1200
    (['gzip', 'bz2', 'lzma'], True)
    """
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError(f"data must be bytes (text.encode('utf-8')), got {type(data).__name__}")
    return {
        "gzip": len(gzip.compress(data, compresslevel=9, mtime=0)),
        "bz2": len(bz2.compress(data, 9)),
        "lzma": len(lzma.compress(data, preset=9)),
    }
