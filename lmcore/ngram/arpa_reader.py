"""ARPA files: write an lmcore n-gram model in backoff form, and read one back.

An ARPA file lists, for each order k, n-grams with their log10 probability and,
for those that are histories of longer n-grams, a log10 backoff weight α. A reader
scores w after a history h of the model's order - 1 words by

    log10 P(w | h) = log10 p(h w)                       if "h w" is listed,
                   = log10 α(h) + log10 P(w | h')       otherwise (α = 1 if h is not listed),

with h' = h without its first word. Sentences start with one ``<s>`` (context only:
listed with probability -99, the format's "log10 0") and end with ``</s>`` (predicted);
a word missing from the 1-grams is scored as ``<unk>``. This is lmcore's standard
convention, and KenLM's ``Model.score(sentence, bos=True, eos=True)``.

An interpolated model is a backoff model in disguise when, for every n-gram (h, w)
never seen in training, P(w | h) = α(h) Q(w | h') for one lower-order distribution Q
shared by all h with the same h'. Then the file lists every seen n-gram with its
probability (the model's P at the top order, Q below), and every seen history with

    α(h) = (1 - Σ_{w seen after h} P(w | h)) / (1 - Σ_{w seen after h} Q(w | h'))

(:func:`write_arpa` takes α from each model's own formula instead: these sums lose
digits when they are close to 1). ``<s>`` padding: lmcore pads a model of order n
with n - 1 ``<s>``, an ARPA reader with one, so an n-gram of k words starting with
``<s>`` holds the model's probability after the whole padded history, and n-grams
starting with ``<s> <s>`` are not written.

KneserNey and AddK are written exactly, Interpolated exactly up to order 2 (and as the
standard conversion above that, on request), MLE not at all: :func:`write_arpa` says why.

>>> import os, tempfile
>>> from lmcore.ngram import KneserNey, write_arpa
>>> model = KneserNey(2, discounts=[0.5, 1.0, 1.5]).fit([["a", "b"], ["a", "c"]])
>>> path = os.path.join(tempfile.mkdtemp(), "toy.arpa")
>>> write_arpa(model, path)   # 1-grams: a b c <unk> </s> <s>; 2-grams: <s> a, a b, a c, b </s>, c </s>
(6, 5)
>>> round(read_arpa(path).prob("b", ["a"]), 6)   # 0.35, as the model itself
0.35
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from operator import itemgetter
from pathlib import Path

import numpy as np

from lmcore.checks import check_path, gc_paused
from lmcore.lm import check_id_rows
from lmcore.ngram.counting import NgramIndex, lookup
from lmcore.ngram.model import Convention, NgramModel
from lmcore.text import BOS, BOS_ID, MARKERS, UNK_ID, Vocabulary

__all__ = ["ArpaModel", "read_arpa"]


class ArpaModel(NgramModel):
    """A backoff n-gram model read from an ARPA file (:func:`read_arpa`), queryable like lmcore's models.

    ``prob``/``logprob`` (natural log) with a context, ``next_word_distribution``,
    ``token_logprobs``/``score_tokens`` over sentences and ``generate`` work as for the
    fitted models, and :func:`lmcore.evaluate.evaluate` scores it. The convention is
    the format's: one ``<s>`` before each sentence (context only), one ``</s>`` after
    it (predicted), unknown words scored as ``<unk>`` (probability 0 if the file has no
    ``<unk>``; KenLM substitutes 10**-100 there). ``log10_probs[k - 1]`` and
    ``log10_backoffs[k - 1]`` hold the file's numbers, aligned with ``keys[k - 1]``
    (the n-grams' keys in ``index``, an :class:`lmcore.ngram.NgramIndex` of the file's n-grams).
    """

    def __init__(self, vocab: Vocabulary, index: NgramIndex, keys: Sequence[np.ndarray],
                 log10_probs: Sequence[np.ndarray], log10_backoffs: Sequence[np.ndarray]):
        order = len(keys)
        has_unk = bool((keys[0] == UNK_ID).any())
        super().__init__(order, convention=Convention(start_padding=1, end_markers=1, open_vocabulary=has_unk))
        self.vocab, self.index = vocab, index
        self.keys, self.log10_probs, self.log10_backoffs = tuple(keys), tuple(log10_probs), tuple(log10_backoffs)
        is_outcome = np.zeros(len(vocab), dtype=bool)
        is_outcome[keys[0]] = True
        is_outcome[BOS_ID] = False
        self._is_outcome, self.outcome_ids = is_outcome, np.flatnonzero(is_outcome)

    NO_BACKOFF_FORM = "an ArpaModel is already an ARPA file: copy the file instead of writing it again"

    def id_probs(self, grams: np.ndarray, context_len: np.ndarray) -> np.ndarray:
        grams, context_len = check_id_rows(self, grams, context_len)
        log10_p = np.full(grams.shape[0], -np.inf)
        longest = np.zeros(grams.shape[0], dtype=np.int64)  # order of the longest listed n-gram ending at w
        for k in range(1, self.order + 1):
            found = lookup(self.keys[k - 1], self.log10_probs[k - 1], self.index.keys(grams, k), default=np.nan)
            hit = (context_len >= k - 1) & ~np.isnan(found)
            log10_p[hit], longest[hit] = found[hit], k
        # every history longer than the one matched was backed off from: add its α
        for j in range(1, self.order):
            backed_off = (context_len >= j) & (longest <= j)
            if backed_off.any():
                alpha = lookup(self.keys[j - 1], self.log10_backoffs[j - 1], self.index.keys(grams[:, :-1], j))
                log10_p += np.where(backed_off, alpha, 0.0)
        return 10.0**log10_p


def _parse_error(path, line_number: int, message: str) -> ValueError:
    return ValueError(f"{os.fspath(path)}, line {line_number}: {message}")


def read_arpa(path: str | Path) -> ArpaModel:
    """Read an ARPA file into an :class:`ArpaModel`.

    The file has a ``\\data\\`` header with ``ngram k=M`` lines, then for each k a
    ``\\k-grams:`` section of M lines ``log10_prob  w_1 .. w_k  [log10_backoff]``
    (fields separated by whitespace), and ``\\end\\``. Anything before ``\\data\\``
    is ignored. Every word must be listed as a 1-gram. A malformed file raises a
    ``ValueError`` naming the line.

    The numbers are read as KenLM reads them, and refused where KenLM refuses them: a number
    is ``-0.5``, ``-.5``, ``-5.``, ``-1.2e-05``, ``-99`` or ``-inf`` (an optional sign, digits, a
    point, an exponent; infinity spelled ``inf``); ``nan``, ``-Infinity``, ``-INF``, ``1_0``
    are not numbers. A log10 probability may not be positive (a probability above 1), but may
    be ``-inf`` or ``-99`` (the format's log10 0; ``-99`` is read as 10**-99, as KenLM does);
    a log10 backoff may be positive (a weight above 1) but not infinite. KenLM holds single
    precision: a probability too close to 0 to be positive there (``1e-50``) passes, a backoff
    beyond its range (``-1e39``) does not.

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "bad.arpa")
    >>> with open(path, "w", encoding="utf-8") as f:
    ...     _ = f.write("\\\\data\\\\\\nngram 1=2\\n\\n\\\\1-grams:\\n-99\\t<s>\\n2.0\\ta\\n\\n\\\\end\\\\\\n")
    >>> read_arpa(path)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: ...bad.arpa, line 6: the log10 probability 2.0 is positive, a probability above 1 ...
    """
    with open(check_path(path), encoding="utf-8") as f, gc_paused():
        lines = [line.strip() for line in f]
        content = [i for i, line in enumerate(lines) if line]  # blank lines separate sections
        sections = _split_sections(path, lines, content)
        vocab = _vocabulary(path, lines, sections[0])
        ids = {token: i for i, token in enumerate(vocab.tokens)}
        parsed = [_parse_section(path, lines, rows, k, ids) for k, rows in enumerate(sections, start=1)]
    index = NgramIndex.from_rows([grams for grams, _, _ in parsed], len(vocab))
    keys, probs, backoffs = [], [], []
    for k, (grams, log10_probs, log10_backoffs) in enumerate(parsed, start=1):
        k_keys = index.keys(grams, k)
        by_key = np.argsort(k_keys, kind="stable")
        if (np.diff(k_keys[by_key]) == 0).any():
            raise ValueError(f"{os.fspath(path)}: a {k}-gram is listed twice")
        keys.append(k_keys[by_key])
        probs.append(log10_probs[by_key])
        backoffs.append(log10_backoffs[by_key])
    return ArpaModel(vocab, index, keys, probs, backoffs)


def _split_sections(path, lines: list[str], content: list[int]) -> list[list[int]]:
    """Check the layout; return, for each order, the indices of its n-gram lines."""

    def at(position: int) -> str:
        if position >= len(content):
            raise _parse_error(path, len(lines), "the file ends early (no \\end\\)")
        return lines[content[position]]

    def error(position: int, message: str) -> ValueError:
        return _parse_error(path, content[min(position, len(content) - 1)] + 1, message)

    if "\\data\\" not in lines:
        raise ValueError(f"{os.fspath(path)}: no \\data\\ line: not an ARPA file")
    cursor = content.index(lines.index("\\data\\")) + 1
    sizes = []
    while at(cursor).startswith("ngram "):
        k, _, count = at(cursor)[len("ngram ") :].partition("=")
        if not (k.strip().isdigit() and count.strip().isdigit() and int(k) == len(sizes) + 1):
            raise error(cursor, f"expected 'ngram {len(sizes) + 1}=<count>', got {at(cursor)!r}")
        sizes.append(int(count))
        cursor += 1
    if not sizes:
        raise error(cursor, "the \\data\\ header lists no 'ngram k=count' line")
    markers = [p for p in range(cursor, len(content)) if lines[content[p]].startswith("\\")] + [len(content)]
    sections = []
    for k, size in enumerate(sizes, start=1):
        if at(cursor) != f"\\{k}-grams:":
            raise error(cursor, f"expected the section \\{k}-grams:, got {at(cursor)!r}")
        found = markers[markers.index(cursor) + 1] - cursor - 1
        if found != size:
            raise error(cursor, f"the header says {size} {k}-grams, the section has {found}")
        sections.append(content[cursor + 1 : cursor + 1 + size])
        cursor += 1 + size
    if at(cursor) != "\\end\\":
        raise error(cursor, f"expected \\end\\ after {sizes[-1]} {len(sizes)}-grams (as the header says), "
                            f"got {at(cursor)!r}")
    return sections


def _vocabulary(path, lines: list[str], unigram_lines: list[int]) -> Vocabulary:
    unigrams = [lines[i].split()[1] if len(lines[i].split()) > 1 else "" for i in unigram_lines]
    if BOS not in unigrams:
        raise ValueError(f"{os.fspath(path)}: <s> is not among the 1-grams")
    try:
        return Vocabulary([w for w in unigrams if w not in MARKERS])
    except ValueError:
        raise ValueError(f"{os.fspath(path)}: a 1-gram is listed twice") from None


def _parse_section(path, lines: list[str], indices: list[int], k: int, ids: dict[str, int]):
    """``(ids as an (M, k) array, log10 probs, log10 backoffs)`` of one section's lines."""
    rows = [lines[i].split() for i in indices]
    lengths = np.fromiter(map(len, rows), dtype=np.int64, count=len(rows))
    for i in np.flatnonzero((lengths != k + 1) & (lengths != k + 2)):
        raise _parse_error(path, indices[i] + 1, f"expected a log10 probability, {k} words and maybe a backoff, "
                                                 f"got {lines[indices[i]]!r}")
    grams = np.empty((len(rows), k), dtype=np.int64)
    try:
        for j in range(k):
            grams[:, j] = np.fromiter(map(ids.__getitem__, map(itemgetter(j + 1), rows)), np.int64, len(rows))
    except KeyError as missing:
        raise ValueError(f"{os.fspath(path)}: the {k}-grams use {missing}, which is not a 1-gram") from None
    with_backoff = np.flatnonzero(lengths == k + 2)
    probs = _numbers(path, lines, [indices[i] for i in range(len(rows))], list(map(itemgetter(0), rows)))
    backoffs = np.zeros(len(rows))
    backoffs[with_backoff] = _numbers(path, lines, [indices[i] for i in with_backoff],
                                      [rows[i][k + 1] for i in with_backoff])
    _check_values(path, lines, indices, probs, backoffs, with_backoff)
    return grams, probs, backoffs


# A number as KenLM reads one (double-conversion's StringToFloat, infinity spelled "inf"): an
# optional sign, digits with an optional point (or a point and digits), an optional exponent.
# Python's float() reads more, which KenLM refuses: "nan", "-Infinity", "-INF", "1_0", "١".
_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|[+-]?inf")
_PLAIN = b"0123456789.-\n"  # numbers written with these characters only need no regular expression


def _numbers(path, lines: list[str], line_indices: list[int], fields: list[str]) -> np.ndarray:
    """``fields`` (the text of one column) as floats, each a number as KenLM reads it, else a
    ``ValueError`` naming the first line that holds something else."""
    text = "\n".join(fields)
    plain = text.isascii() and not text.encode("ascii").translate(None, _PLAIN)
    if plain:  # "-0.5", "-99", "0": float() reads these characters as KenLM does, or refuses them
        try:
            return np.array(fields, dtype=float)
        except ValueError:
            pass
    for i, value in zip(line_indices, fields):
        if not _NUMBER.fullmatch(value):
            raise _parse_error(path, i + 1, f"{value!r} is not a number (as ARPA files write them: "
                                            f"'-0.5', '-1.2e-05', '-99', '-inf') in {lines[i]!r}")
    return np.array(fields, dtype=float)


def _check_values(path, lines: list[str], indices: list[int], probs: np.ndarray, backoffs: np.ndarray,
                  with_backoff: np.ndarray) -> None:
    """Refuse what KenLM refuses: a positive log10 probability (a probability above 1) and an
    infinite log10 backoff. KenLM keeps single precision, so a probability such as 1e-50 is 0
    there and passes, and a backoff such as -1e39 is infinite there and does not. A log10
    probability of -inf (probability 0) is accepted, as KenLM accepts it; so is a positive
    backoff (a weight above 1)."""
    with np.errstate(over="ignore"):
        positive = probs.astype(np.float32) > 0
        infinite = np.zeros(len(probs), dtype=bool)
        infinite[with_backoff] = np.isinf(backoffs[with_backoff].astype(np.float32))
    bad = np.flatnonzero(positive | infinite)
    if bad.size:
        i = indices[bad[0]]
        if positive[bad[0]]:
            raise _parse_error(path, i + 1, f"the log10 probability {lines[i].split()[0]} is positive, a probability "
                                            f"above 1 (KenLM refuses it too), in {lines[i]!r}")
        raise _parse_error(path, i + 1, f"the log10 backoff {lines[i].split()[-1]} is infinite (a backoff weight "
                                        f"must be finite; KenLM refuses it too), in {lines[i]!r}")
