"""Tokenizers and sentence splitters for English and Chinese text.

What a model's score measures depends on what counts as a token, so tokenization
is always an explicit argument here (``lowercase``, ``punctuation``), never a
hidden habit: compare scores only when these arguments agree.

- English: :func:`english_words` (words, optionally punctuation tokens) and
  :func:`english_sentences`.
- Chinese: :func:`chinese_characters`, :func:`chinese_words` (reads a given
  segmentation, does none of its own), :func:`jieba_words` (segments raw text
  with the jieba segmenter, silently) and :func:`chinese_sentences`.
- The building blocks :mod:`lmcore.text` applies to whole corpora at once:
  :func:`normalize_quotes`, :func:`english_token_pattern`, :func:`nfkc`,
  :func:`is_punctuation`; and the way back, :func:`join_tokens` (each sentence's text).

All of these are exported by :mod:`lmcore.text`, the module the chapters import.

>>> english_words("Don't fear, Lord's people!")
["don't", 'fear', "lord's", 'people']
>>> chinese_characters("１９９８年，新年。")
['1', '9', '9', '8', '年', '新', '年']
"""

from __future__ import annotations

import contextlib
import functools
import io
import logging
import re
import unicodedata
import warnings
from collections.abc import Sequence

from lmcore.checks import check_sentences, check_str

__all__ = [
    "join_tokens",
    "english_words",
    "english_sentences",
    "chinese_words",
    "chinese_characters",
    "jieba_words",
    "chinese_sentences",
    "normalize_quotes",
    "english_token_pattern",
    "nfkc",
    "is_punctuation",
]

# ---------------------------------------------------------------------------
# English tokenization
# ---------------------------------------------------------------------------

# A word is a run of letters/digits, possibly joined by apostrophes or hyphens
# ("don't", "Lord's", "turtle-dove"). An apostrophe that does not sit between
# two letters is a quotation mark, so the plural possessive "fathers'" becomes
# "fathers" plus the punctuation token "'".
_WORD = r"[^\W_]+(?:['-][^\W_]+)*"
_PUNCTUATION = r"--+|\.\.\.+|[^\w\s]|_"
_ENGLISH_WORD = re.compile(_WORD)
_ENGLISH_TOKEN = re.compile(f"{_WORD}|{_PUNCTUATION}")
# The same rules spelt out for ASCII text, which the regex engine scans twice as fast.
_ASCII_WORD = r"[A-Za-z0-9]+(?:['-][A-Za-z0-9]+)*"
_ASCII_ENGLISH_WORD = re.compile(_ASCII_WORD)
_ASCII_ENGLISH_TOKEN = re.compile(f"{_ASCII_WORD}|{_PUNCTUATION}")
_QUOTE_FORMS = str.maketrans({"\u2018": "'", "\u2019": "'", "`": "'", "\u201c": '"', "\u201d": '"'})
# A sentence ends at . ! or ? (plus closing quotes/brackets) followed by
# whitespace and a character that is not a lower-case letter: '"Why?" he asked'
# stays one sentence. Abbreviations such as "Mr." are not recognised.
# (Written as a space followed by look-behinds for up to three closers, which the
# regex engine runs several times faster than the equivalent capture group.)
_CLOSER = "['\")\\]]"
_ENGLISH_SENTENCE_END = re.compile(
    rf" (?=[^\sa-z])(?:(?<=[.!?] )|(?<=[.!?]{_CLOSER} )|(?<=[.!?]{_CLOSER}{{2}} )|(?<=[.!?]{_CLOSER}{{3}} ))"
)
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n\s*")


def english_words(text: str, lowercase: bool = True, punctuation: bool = False) -> list[str]:
    """Split English ``text`` into word tokens.

    - Words are runs of letters and digits, joined by apostrophes or hyphens
      inside the word: ``don't``, ``Lord's``, ``turtle-dove`` are one token each.
      An apostrophe not between two letters is a quotation mark
      (``fathers'`` -> ``fathers`` + ``'``).
    - Curly quotes and backticks are read as ``'`` and ``"``.
    - ``lowercase=True`` folds case, so ``The`` and ``the`` are one type.
    - ``punctuation=True`` keeps each punctuation mark as a token of its own
      (``--`` and ``...`` stay whole); ``False`` drops them.

    >>> english_words("Don't go, Lord's servant!", punctuation=True)
    ["don't", 'go', ',', "lord's", 'servant', '!']
    """
    check_str(text, "text")
    text = normalize_quotes(text)
    if lowercase:
        text = text.lower()
    return english_token_pattern(text, punctuation).findall(text)


def normalize_quotes(text: str) -> str:
    """``text`` with curly single quotes and backticks as ``'``, curly double quotes as ``"``.

    >>> print(normalize_quotes("“Don’t,” he said. `Go.`"))
    "Don't," he said. 'Go.'
    """
    return check_str(text, "text").translate(_QUOTE_FORMS)


def english_token_pattern(text: str, punctuation: bool) -> re.Pattern:
    """The compiled pattern whose ``findall`` gives :func:`english_words`' tokens of ``text``.

    ``text`` must already have gone through :func:`normalize_quotes` (and lower-casing,
    if wanted). ASCII-only text gets an equivalent pattern that the regex engine scans
    twice as fast, which is why the text is an argument; a corpus applies the pattern
    line by line instead of calling :func:`english_words` per sentence.

    >>> english_token_pattern("it's late.", punctuation=True).findall("it's late.")
    ["it's", 'late', '.']
    """
    if check_str(text, "text").isascii():
        return _ASCII_ENGLISH_TOKEN if punctuation else _ASCII_ENGLISH_WORD
    return _ENGLISH_TOKEN if punctuation else _ENGLISH_WORD


def english_sentences(text: str) -> list[str]:
    """Split English ``text`` into sentences (whitespace collapsed to single spaces).

    A sentence ends after ``.``, ``!`` or ``?`` (with up to three closing
    quotes or brackets) and a space, when the next character is not a
    lower-case letter; a blank line always ends a sentence. Abbreviations like
    "Mr." are not recognised.

    >>> english_sentences('He said, "Go." They went. "Why?" he asked.')
    ['He said, "Go."', 'They went.', '"Why?" he asked.']
    """
    check_str(text, "text")
    sentences: list[str] = []
    for paragraph in _PARAGRAPH_BREAK.split(text):
        paragraph = " ".join(paragraph.split())
        if paragraph:
            sentences.extend(_ENGLISH_SENTENCE_END.sub("\n", paragraph).split("\n"))
    return sentences


# ---------------------------------------------------------------------------
# Chinese tokenization
# ---------------------------------------------------------------------------

_CHINESE_SENTENCE_END = re.compile(r"([。！？!?]+[”’』」）)》\"']*)")


def is_punctuation(char: str) -> bool:
    """Whether ``char`` (one character) is Unicode punctuation (P*) or a symbol (S*): ，。《》 but
    also ● △ ％ ±.

    >>> is_punctuation("，"), is_punctuation("％"), is_punctuation("好")
    (True, True, False)
    """
    if len(check_str(char, "char")) != 1:
        raise ValueError(f"char must be one character, got {char!r}")
    return _is_punctuation(char)


@functools.cache
def _is_punctuation(char: str) -> bool:
    """:func:`is_punctuation` unchecked, for the tokenizers' own characters. Cached per character:
    a corpus asks about the same few thousand characters millions of times."""
    return unicodedata.category(char)[0] in "PS"


def nfkc(text: str, lowercase: bool) -> str:
    """``text`` in Unicode normal form NFKC (``１９９８`` -> ``1998``, ``，`` -> ``,``), lower-cased if asked.

    >>> nfkc("ＧＤＰ１９９８，", lowercase=True)
    'gdp1998,'
    """
    text = unicodedata.normalize("NFKC", check_str(text, "text"))
    return text.lower() if lowercase else text


def chinese_characters(text: str, lowercase: bool = True, punctuation: bool = False) -> list[str]:
    """Chinese ``text`` as a list of characters, one token per character.

    The text is NFKC-normalised first, which maps full-width forms to their
    plain equivalents (``１`` -> ``1``, ``Ａ`` -> ``A``, ``，`` -> ``,``); every
    character then becomes a token, digits and Latin letters included.
    Whitespace is dropped; ``punctuation=False`` also drops Unicode punctuation
    and symbols (categories P* and S*); ``lowercase`` folds Latin letters.

    >>> chinese_characters("ＧＤＰ增长８％。")
    ['g', 'd', 'p', '增', '长', '8']
    """
    check_str(text, "text")
    chars = [c for c in nfkc(text, lowercase) if not c.isspace()]
    if not punctuation:
        chars = [c for c in chars if not _is_punctuation(c)]
    return chars


def chinese_words(text: str, lowercase: bool = True, punctuation: bool = False) -> list[str]:
    """Words of already segmented Chinese ``text`` (words separated by whitespace).

    Chinese is written without spaces; this function does no segmentation of
    its own, it reads a segmentation someone made (as in the People's Daily
    corpus). NFKC and ``lowercase`` as in :func:`chinese_characters`;
    ``punctuation=False`` drops words made only of punctuation and symbols.

    >>> chinese_words("迈向  充满  希望  的  新  世纪  ——  １９９８年")
    ['迈向', '充满', '希望', '的', '新', '世纪', '1998年']
    """
    check_str(text, "text")
    words = nfkc(text, lowercase).split()
    if not punctuation:
        words = [w for w in words if not all(map(_is_punctuation, w))]
    return words


@functools.cache
def _jieba_segmenter():  # -> jieba.Tokenizer (jieba is imported on first use)
    """A private, initialised ``jieba.Tokenizer`` with the default dictionary, made without a sound.

    jieba logs "Building prefix dict ..." and "Loading model cost ..." to a stderr handler it
    attached at import time, and an import on some setups may warn (old escape sequences in its
    regexes, pkg_resources): a notebook's output must not change with that, so the logger is
    silenced while the dictionary loads, warnings are ignored during the import, and stdout and
    stderr are captured. jieba's own global tokenizer (``jieba.dt``) is left untouched.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            import jieba
        except ImportError as error:  # pragma: no cover - requirements.txt installs it
            raise ImportError("jieba_words needs the jieba package: pip install 'jieba>=0.42.1'") from error
    logger = logging.getLogger("jieba")
    level, disabled = logger.level, logger.disabled
    logger.disabled = True
    try:
        with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()), \
                contextlib.redirect_stderr(io.StringIO()):
            warnings.simplefilter("ignore")
            segmenter = jieba.Tokenizer()
            segmenter.initialize()
    finally:
        logger.setLevel(level)
        logger.disabled = disabled
    return segmenter


def jieba_words(text: str, lowercase: bool = True, punctuation: bool = False) -> list[str]:
    """Segment raw Chinese ``text`` into words with jieba (its default dictionary and HMM).

    Unlike :func:`chinese_words`, which reads a segmentation someone made, this one makes
    its own, with the jieba segmenter (``pip install jieba``; it runs offline). Its words
    are not the People's Daily corpus's (Peking University's rules): jieba keeps 跟我学 as
    one word where the annotators write 跟 我 学. The result is deterministic, and nothing
    is printed or logged, not even when jieba loads its dictionary (once per process,
    about a second). NFKC, ``lowercase`` and ``punctuation`` as in :func:`chinese_words`;
    whitespace never becomes a token.

    >>> jieba_words("跟我学深度学习。")
    ['跟我学', '深度', '学习']
    """
    check_str(text, "text")
    words = [w for w in _jieba_segmenter().lcut(nfkc(text, lowercase)) if not w.isspace()]
    if not punctuation:
        words = [w for w in words if not all(map(_is_punctuation, w))]
    return words


def chinese_sentences(text: str) -> list[str]:
    """Split Chinese ``text`` into sentences, stripped of surrounding whitespace.

    A sentence ends after a run of 。！？ (or ASCII ! ?) together with any
    closing quotes or brackets that follow (”’』」）》), and at every line break.
    Commas and semicolons do not end a sentence. The text is not normalised.

    >>> chinese_sentences("他说：“好！”我们走吧。真的？")
    ['他说：“好！”', '我们走吧。', '真的？']
    """
    check_str(text, "text")
    marked = _CHINESE_SENTENCE_END.sub("\\1\n", text)
    return [s.strip() for s in marked.split("\n") if s.strip()]


def join_tokens(sentences: Sequence[Sequence[str]], separator: str = " ") -> list[str]:
    """The text of each tokenized sentence: its tokens joined by ``separator`` (``" "`` for English
    words, ``""`` for Chinese words and for characters).

    >>> join_tokens([["in", "the"], ["beginning"]]), join_tokens([["迈", "向"]], separator="")
    (['in the', 'beginning'], ['迈向'])
    """
    separator = check_str(separator, "separator")
    return [separator.join(sentence) for sentence in check_sentences(sentences, "sentences", allow_empty=True)]
