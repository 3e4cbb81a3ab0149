"""The course's language: one switch that the explorers, figures, self-checks and printed tables read.

Every chapter starts with ``set_language("en")``; the Chinese edition's copy of that line is
``set_language("zh")``. The two editions' code differs in nothing else but its string literals
and comments, which the Chinese edition writes in Chinese (``tests/notebooks/test_zh_edition.py``).
Text a reader sees goes through :func:`tr`: the English text is the key, its translation is
looked up in the catalog of the language set, and its ``{fields}`` are filled in after the
look-up, so that numbers are formatted by the code, never by the translator.

The catalogs are JSON files, ``lmcore/locale/<language>/<part>.json``, one per part of the
course (a widget module, the self-checks of a chapter, a chapter's figures), each an object
{English: translation}. A text missing from the catalog shows in English rather than fail in
class; ``tests/notebooks/test_i18n.py`` makes sure none is missing, none is stale and every translation
keeps its fields.

Text defined before it is shown (a preset's story, a table's headings) is marked with
:func:`translatable`, which returns it unchanged, and translated with :func:`tr` where it is shown.
A result's printed form (a table's ``format()``, a bootstrap's ``str``) is shown in the language
set, its columns lined up by :func:`pad`. A sentence that a result or an error holds, with values
filled in, is a :class:`Message`: an English ``str`` that compares and raises the same in both
editions, and that :func:`localised` shows in the course's language.

>>> set_language("zh"); tr("Correct: {value}.", value="6.64")
'正确：6.64。'
>>> set_language("en"); tr("Correct: {value}.", value="6.64")
'Correct: 6.64.'
"""

from __future__ import annotations

import functools
import json
import string
import unicodedata
from importlib import resources

from lmcore.checks import check_str

__all__ = ["LANGUAGES", "set_language", "language", "tr", "translatable", "Message", "localised", "catalog",
           "fields", "display_width", "pad"]

LANGUAGES = ("en", "zh")
"""The course's languages: English, the language of the code and the catalogs' keys, and Chinese."""

_current = "en"


def set_language(code: str) -> None:
    """Show the explorers, figures and self-checks from now on in ``code``'s language ("en" or "zh")."""
    global _current
    if code not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(map(repr, LANGUAGES))}, got {code!r}")
    _current = code


def language() -> str:
    """The language set by :func:`set_language` ("en" until it is called)."""
    return _current


def translatable(text: str) -> str:
    """Mark ``text`` for translation where it is shown (with :func:`tr`); returns it unchanged."""
    return text


def tr(text: str, /, **fields: object) -> str:
    """``text`` in the current language, with its ``{fields}`` filled in (``str.format``).

    English returns ``text`` itself; a text without a translation, too.
    """
    check_str(text, "text")
    if _current != "en":
        text = catalog(_current).get(text, text)
    return text.format(**fields) if fields else text


class Message(str):
    """A sentence of a result, in English, that remembers how it was made, so that an
    explorer can show it in the course's language (:func:`localised`): lmcore's modules build
    the messages of their results and errors with it.

    It is the English ``template`` with its ``fields`` filled in, and is a ``str`` in every
    way: what a result holds, compares and raises stays English in both editions of the
    course. Mark the template for translation where it is written, as
    ``Message(translatable("..."), field=value)``; a field that is a ``Message`` itself (a
    name, a part of the sentence) is shown in the course's language too.

    >>> note = Message(translatable("{n} of {total:,} tokens"), n=3, total=1200)
    >>> note, note == "3 of 1,200 tokens", localised(note)
    ('3 of 1,200 tokens', True, '3 of 1,200 tokens')
    """

    template: str
    fields: dict

    def __new__(cls, template: str, /, **fields: object) -> Message:
        message = super().__new__(cls, template.format(**fields) if fields else template)
        message.template, message.fields = template, fields
        return message


def localised(text: str) -> str:
    """``text`` as the course's language shows it: a :class:`Message` from its template's
    translation and its fields (each localised in turn), other text by :func:`~lmcore.i18n.tr`.

    >>> localised(Message("{outcome} happens", outcome=Message("rain")))
    'rain happens'
    """
    if isinstance(text, Message):
        return tr(text.template, **{name: localised(value) if isinstance(value, Message) else value
                                    for name, value in text.fields.items()})
    return tr(text)


@functools.cache
def catalog(code: str) -> dict[str, str]:
    """Every translation into ``code``'s language: all of ``lmcore/locale/<code>/*.json`` merged.

    Two files that translate one text differently are an error, so that a text reads the same
    everywhere in the course.
    """
    check_str(code, "code")
    merged: dict[str, str] = {}
    folder = resources.files("lmcore") / "locale" / code
    if not folder.is_dir():
        return merged
    for part in sorted(folder.iterdir(), key=lambda entry: entry.name):
        if not part.name.endswith(".json"):
            continue
        for english, translated in json.loads(part.read_text(encoding="utf-8")).items():
            if merged.get(english, translated) != translated:
                raise ValueError(f"{part.name} translates {english!r} as {translated!r}, "
                                 f"another catalog as {merged[english]!r}")
            merged[english] = translated
    return merged


def fields(text: str) -> list[str]:
    """``text``'s ``{fields}`` with their format specs, sorted: what a translation must keep.

    >>> fields("{n} of {total:,} ({share:.1%})")
    ['n', 'share:.1%', 'total:,']
    """
    return sorted(f"{name}:{spec}" if spec else name
                  for _, name, spec, _ in string.Formatter().parse(text) if name is not None)


def display_width(text: str) -> int:
    """The columns ``text`` takes in a monospace font: two for a Chinese character (East Asian
    wide or full-width), one for any other.

    >>> display_width("bigram"), display_width("二元模型")
    (6, 8)
    """
    check_str(text, "text")
    return sum(2 if unicodedata.east_asian_width(character) in "WF" else 1 for character in text)


def pad(text: str, width: int, align: str = "<") -> str:
    """``text`` padded with spaces to ``width`` columns of a monospace font, where a Chinese
    character (East Asian wide or full-width) takes two: ``f"{text:<width}"`` for any script,
    so that a table's columns line up in both languages. ``align`` is ``"<"`` or ``">"``.

    >>> pad("bigram", 8, ">"), pad("二元模型", 10) + "|"
    ('  bigram', '二元模型  |')
    """
    if align not in ("<", ">"):
        raise ValueError(f"align must be '<' or '>', got {align!r}")
    space = " " * max(width - display_width(text), 0)
    return text + space if align == "<" else space + text

