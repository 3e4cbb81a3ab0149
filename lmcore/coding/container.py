"""The coded bytes: a header that lets :func:`lmcore.coding.decode` know it is done and that the
data is intact, then the range coder's code.

- the number of sentences, a LEB128 varint (1 byte up to 127 sentences, 2 up to 16,383);
- the length of the code in 32-bit words, a LEB128 varint (1 byte up to 508 bytes of code,
  2 up to 65,532);
- a CRC-32 (``zlib.crc32``), 4 bytes little-endian, of the text, then the two counts' bytes,
  then the code. The text, for the checksum: each token in UTF-8 followed by the byte 0xFF,
  each sentence followed by 0xFE (bytes UTF-8 never uses, so no two texts read the same);
- the code: the range coder's 32-bit words, little-endian. Each sentence ends with the
  model's ``</s>``.

So the header is 6 bytes for a short text or none, 7 for chapter 3's hundred test sentences.
With it :func:`decode` knows that it is done and that the data is intact; it raises a
``ValueError`` that says what is wrong for data that ends early ("data ends before the 3 coded
sentences do"), goes on past the code ("2 bytes after the end of the coded text") or was altered
("checksum mismatch"). A changed code length makes the code too short or too long; any other
changed byte that leaves the decoded text as it was (a spare bit of the coder's last word) is one
changed byte under the CRC-32, which it always detects; a change that alters the decoded text as
well, or decoding with another model, speller or method, goes unnoticed only if two CRC-32s
coincide, a chance of 1 in 2^32.
"""

from __future__ import annotations

import zlib

__all__ = []  # the format's helpers serve this package's coder only


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        out.append((n & 0x7F) | (0x80 if n > 0x7F else 0))
        n >>= 7
        if not n:
            return bytes(out)


def _read_varint(data: bytes, start: int = 0) -> tuple[int, int] | None:
    """The LEB128 number at ``data[start:]`` and the index after it; ``None`` if the data ends inside it."""
    n = shift = 0
    for i, byte in enumerate(data[start : start + 10]):  # 10 bytes: below 2^70, more than any text
        n |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return n, start + i + 1
        shift += 7
    if len(data) - start >= 10:
        raise ValueError("data does not start with a sentence count and a code length: these are not bytes from "
                         "lmcore.coding.encode")
    return None


def _checksum(sentences: list[list[str]], counts: bytes, code: bytes) -> bytes:
    """CRC-32 of the text, the header's counts and the code, 4 bytes little-endian. The text: each token in UTF-8
    and 0xFF, each sentence ended by 0xFE, bytes UTF-8 never uses (``surrogatepass``: a lone surrogate, which a
    str may hold and the coder sends as a code point, as UTF-8 would write it)."""
    text = b"".join(b"".join(token.encode("utf-8", "surrogatepass") + b"\xff" for token in sentence) + b"\xfe"
                    for sentence in sentences)
    return zlib.crc32(code, zlib.crc32(counts, zlib.crc32(text))).to_bytes(4, "little")


def _pack(sentences: list[list[str]], code: bytes) -> bytes:
    """Header and code (the module's "Format of the bytes")."""
    counts = _varint(len(sentences)) + _varint(len(code) // 4)
    return counts + _checksum(sentences, counts, code) + code


def _many(n: int, noun: str) -> str:
    """``n`` and ``noun``, plural unless ``n`` is 1: "1 byte", "3 bytes"."""
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def _unpack(data: bytes) -> tuple[int, bytes, bytes, bytes]:
    """(number of sentences, the counts' bytes, the stored checksum, the code) of ``data``; a ``ValueError``
    that says what is wrong if the header is cut short or the code is not as long as the header says."""
    if not data:
        raise ValueError("data is empty: encode writes at least 6 bytes, even for no sentences")
    first = _read_varint(data)
    if first is None:
        raise ValueError(f"data ends inside its header, in the sentence count ({_many(len(data), 'byte')}): "
                         "it was cut short")
    n_sentences, at = first
    second = _read_varint(data, at)
    sentences = f"{_many(n_sentences, 'coded sentence')} {'does' if n_sentences == 1 else 'do'}"
    if second is None or len(data) < second[1] + 4:
        raise ValueError(f"data ends before the {sentences}: it stops inside its header, after "
                         f"{_many(len(data), 'byte')}")
    n_words, at = second
    counts, checksum, code = data[:at], data[at : at + 4], data[at + 4 :]
    expected, missing = 4 * n_words, 4 * n_words - len(code)
    counted = f"the header counts {_many(expected, 'byte')} of code, {len(code):,} {'is' if len(code) == 1 else 'are'}"
    if missing > 0:
        raise ValueError(f"data ends before the {sentences}: {_many(missing, 'byte')} of its code "
                         f"{'is' if missing == 1 else 'are'} missing ({counted} there)")
    if missing < 0:
        raise ValueError(f"{_many(-missing, 'byte')} after the end of the coded text ({counted} there)")
    return n_sentences, counts, checksum, code
