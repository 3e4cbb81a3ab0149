"""Sentences from a text file or any iterable of lines, one sentence a line, straight to vocabulary ids.

A corpus of millions of tokens held as Python lists of str takes about 63 bytes a token
before a model sees it; :func:`encode_lines` reads the lines in chunks, splits them and
numbers each token on the way, so that what remains is one int32 id per token (4 bytes),
the length of each line and the vocabulary. :meth:`lmcore.ngram.CountedNgramModel.fit_text`
fits a model on it; :func:`read_sentences` reads a (small) test file as the token lists
that ``evaluate`` takes.

Lines are read as KenLM's ``lmplz`` and ``query`` read them: one line is one sentence (an
empty line too: it is scored as ``</s>`` alone), and tokens are split at ASCII whitespace
(space, tab, ``\\r``, ``\\v``, ``\\f``; never at other Unicode spaces, unlike ``str.split()``).
A ``tokenizer`` (a function from a line, str, to its list of str tokens, e.g.
:func:`lmcore.text.english_words`) replaces that split. Files are read as UTF-8.

The vocabulary is the one ``Vocabulary.build`` makes of the same sentences (most frequent
first, ties alphabetical; words seen fewer than ``min_count`` times become ``<unk>``), so
fitting from a file gives the model ``fit`` gives on the same sentences as lists, exactly.

>>> ids, lengths, vocab = encode_lines(["a b a", "", "b c"])
>>> ids.tolist(), lengths.tolist(), vocab.words
([3, 4, 3, 4, 5], [3, 0, 2], ('a', 'b', 'c'))
>>> read_sentences(["a b\\ta", " "])
[['a', 'b', 'a'], []]
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Callable, Iterable
from itertools import chain, islice
from pathlib import Path
from typing import NamedTuple

import numpy as np

from lmcore.checks import check_int
from lmcore.text.vocab import BOS, BOS_ID, EOS_ID, MARKERS, Vocabulary

__all__ = ["EncodedLines", "encode_lines", "read_sentences"]

CHUNK_BYTES = 1 << 22  # a file is read about this many bytes of whole lines at a time
CHUNK_LINES = 1 << 15  # lines taken at a time from an iterable


class EncodedLines(NamedTuple):
    """Every line's vocabulary ids in a row (int32), the number of tokens of each line, the vocabulary:
    the arguments of :meth:`lmcore.ngram.CountedNgramModel.fit_encoded`."""

    ids: np.ndarray
    lengths: np.ndarray
    vocab: Vocabulary


def _is_file(source) -> bool:
    return isinstance(source, (str, os.PathLike))


def _blocks(path) -> Iterable[bytes]:
    """The file in blocks of about CHUNK_BYTES, each ending with a line's ``\\n`` (one is added at the end)."""
    rest = b""
    with open(path, "rb") as f:
        while block := f.read(CHUNK_BYTES):
            cut = block.rfind(b"\n") + 1
            if cut:
                yield rest + block[:cut]
                rest = block[cut:]
            else:
                rest += block
    if rest:
        yield rest + b"\n"


# what bytes.split() splits at, and lmplz (KenLM's kSpaces): space, \t, \n, \r, \v, \f
_SPACE = np.array([bytes([byte]).isspace() for byte in range(256)])


def _line_lengths(block: bytes) -> np.ndarray:
    """The number of tokens of each line of ``block`` (lines ending with ``\\n``), in numpy: where a
    token starts (a byte after whitespace that is not whitespace) and how many ``\\n`` come before.

    >>> _line_lengths(b"a bc\\n\\n d\\te \\n").tolist()
    [2, 0, 2]
    """
    data = np.frombuffer(block, dtype=np.uint8)
    space = _SPACE[data]
    starts = ~space & np.concatenate([[True], space])[:-1]  # not whitespace, after whitespace or the start
    newlines = data == ord("\n")
    return np.bincount(np.cumsum(newlines, dtype=np.int32)[starts], minlength=np.count_nonzero(newlines))


def _chunks(source) -> Iterable[list]:
    """Lists of lines (bytes from a file, str or bytes from an iterable)."""
    if _is_file(source):
        with open(source, "rb") as f:
            while chunk := f.readlines(CHUNK_BYTES):
                yield chunk
        return
    if isinstance(source, bytes) or not isinstance(source, Iterable):
        kind = type(source).__name__
        raise TypeError(f"source must be a file name (str or Path) or an iterable of lines, got {kind}")
    lines = iter(source)
    while chunk := list(islice(lines, CHUNK_LINES)):
        yield chunk


def _tokenized(lines: list, tokenizer: Callable | None) -> list:
    """Each line's tokens: bytes split at ASCII whitespace, or the tokenizer's str."""
    if tokenizer is None:
        try:
            return list(map(bytes.split, lines))
        except TypeError:
            pass
        try:
            return list(map(bytes.split, map(str.encode, lines)))
        except TypeError:
            kinds = sorted({type(line).__name__ for line in lines} - {"str"})
            raise TypeError(f"lines must all be str or all bytes, got {', '.join(kinds)}") from None
    sentences = []
    for line in lines:
        if isinstance(line, bytes):
            line = line.decode("utf-8")
        elif not isinstance(line, str):
            raise TypeError(f"lines must be str or bytes, got {type(line).__name__}")
        tokens = tokenizer(line)
        if not isinstance(tokens, (list, tuple)) or not all(isinstance(t, str) for t in tokens):
            raise TypeError(f"tokenizer must return a list of str tokens, got {tokens!r} for the line {line!r}")
        sentences.append(tokens)
    return sentences


def _flat(sentences: list) -> tuple[Iterable, np.ndarray]:
    """All tokens of ``sentences`` in a row, and the number of each's."""
    return chain.from_iterable(sentences), np.fromiter(map(len, sentences), dtype=np.int64, count=len(sentences))


def _read(source, tokenizer: Callable | None) -> tuple[np.ndarray, np.ndarray, list]:
    """The provisional ids (each type numbered where first seen), the line lengths, the types in that order."""
    numbers: defaultdict = defaultdict()
    numbers.default_factory = numbers.__len__  # a new type gets the next number
    ids, lengths = [], []
    if _is_file(source) and tokenizer is None:  # a block's tokens in one split: no list per line
        pieces = ((block.split(), _line_lengths(block)) for block in _blocks(source))
    else:
        pieces = (_flat(_tokenized(lines, tokenizer)) for lines in _chunks(source))
    for tokens, sizes in pieces:
        ids.append(np.fromiter(map(numbers.__getitem__, tokens), dtype=np.int32, count=int(sizes.sum())))
        lengths.append(sizes)
        del tokens
    if not lengths:
        raise ValueError("source has no lines")
    types = [t.decode("utf-8") if isinstance(t, bytes) else t for t in numbers]
    return np.concatenate(ids), np.concatenate(lengths), types


def encode_lines(source: str | Path | Iterable[str] | Iterable[bytes], vocab: Vocabulary | None = None,
                 min_count: int = 1, tokenizer: Callable[[str], list[str]] | None = None) -> EncodedLines:
    """The lines of ``source`` (a file name, or any iterable of str or bytes lines) as vocabulary ids,
    one sentence a line, read in chunks: no list of str tokens is ever held (see the module's docstring).

    The vocabulary is built from the lines (words seen ``min_count`` times or more), as
    ``Vocabulary.build`` would build it from them as token lists, unless ``vocab`` is given;
    words outside it are ``<unk>``. ``<s>`` or ``</s>`` inside a line is refused (lmcore adds them).
    """
    if vocab is not None and not isinstance(vocab, Vocabulary):
        raise TypeError(f"vocab must be an lmcore Vocabulary, got {type(vocab).__name__}")
    if vocab is not None and min_count != 1:
        raise ValueError("give either vocab or min_count, not both: min_count is for building a vocabulary")
    min_count = check_int(min_count, "min_count")
    ids, lengths, types = _read(source, tokenizer)
    if vocab is None:
        if not types:
            raise ValueError("source has no tokens: a vocabulary needs training text")
        counts = np.bincount(ids, minlength=len(types)).tolist()
        kept = sorted(((-c, w) for w, c in zip(types, counts) if c >= min_count and w not in MARKERS))
        vocab = Vocabulary([w for _, w in kept], min_count)  # most frequent first, ties alphabetical: as build
    to_id = np.fromiter(map(vocab.id, types), dtype=np.int32, count=len(types))
    step = 1 << 20
    for start in range(0, ids.size, step):  # in place, a piece at a time: no second array of ids
        ids[start : start + step] = to_id[ids[start : start + step]]
    markers = np.flatnonzero((ids == BOS_ID) | (ids == EOS_ID))
    if markers.size:
        first = int(markers[0])
        line = int(np.searchsorted(np.cumsum(lengths), first, side="right"))
        raise ValueError(f"line {line + 1} holds the marker {vocab.tokens[ids[first]]!r}: lmcore adds {BOS} and "
                         "</s> itself (see Convention), so the lines must hold the raw tokens")
    return EncodedLines(ids, lengths, vocab)


def read_sentences(source: str | Path | Iterable[str] | Iterable[bytes],
                   tokenizer: Callable[[str], list[str]] | None = None) -> list[list[str]]:
    """The lines of ``source`` (a file name, or any iterable of lines) as token lists, one sentence a
    line, split as :func:`encode_lines` splits them: for a test set, which ``evaluate`` takes as lists."""
    sentences = []
    for lines in _chunks(source):
        for tokens in _tokenized(lines, tokenizer):
            sentences.append([t.decode("utf-8") if isinstance(t, bytes) else t for t in tokens])
    return sentences
