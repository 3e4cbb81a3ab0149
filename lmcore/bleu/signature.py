"""BLEU's settings in one object, checked once, the tokenizers they name, and the signature that states them.

``BleuSettings`` holds the eight settings that change a BLEU score and checks them when it is
made, with ``lmcore.checks``: ``BLEU`` is a ``BleuSettings`` with the methods that score, and
the one-call functions (``corpus_bleu``, ``sentence_bleu``, ``bleu_from_stats``, ...) take one
or build one from their keyword arguments; nothing checks the settings again. ``TOKENIZERS``
names sacrebleu's tokenizers, and ``_tokenizer`` loads their classes (sacrebleu is needed only
to tokenize strings). ``settings.signature(nrefs)`` is the ``BleuSignature`` that a result
keeps; its ``str`` is what to print next to a BLEU score so that others can reproduce it.
Everything here is exported by ``lmcore.bleu``.
"""

from __future__ import annotations

import dataclasses
import os
import re
import sys
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from lmcore import __version__
from lmcore.checks import check_bool, check_int, check_number, check_weights

__all__ = ["SMOOTHING_DEFAULTS", "TOKENIZERS", "bleu_tokens", "BleuSettings", "BleuSignature"]

# sacrebleu's defaults, from Chen & Cherry (2014).
SMOOTHING_DEFAULTS: dict[str, float | None] = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}
# sacrebleu's tokenizers, whose classes _tokenizer loads, then "none": whitespace only.
TOKENIZERS = ("13a", "intl", "zh", "char", "none")
PRETOKENIZED = "pretokenized"  # the tokenizer named in the signature when token lists are given

# The largest max order BLEU takes: each score lists a weight and a precision per order, so a
# max order of a billion would be a billion of each (4 is the standard; no sentence has n-grams
# of an order longer than itself).
_MAX_ORDER_LIMIT = 1000


@cache
def _tokenizer(tokenize: str):
    """sacrebleu's tokenizer ``tokenize`` (one of ``TOKENIZERS``), made once; None for "none"."""
    if tokenize not in TOKENIZERS:
        raise ValueError(f"tokenize must be one of {TOKENIZERS}, got {tokenize!r}")
    if tokenize == "none":
        return None  # splitting on whitespace needs no sacrebleu
    try:
        from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
        from sacrebleu.tokenizers.tokenizer_char import TokenizerChar
        from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International
        from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh
    except ImportError as error:
        raise ImportError(f"tokenize={tokenize!r} uses sacrebleu's tokenizer: pip install sacrebleu "
                          "(or pass pre-tokenized lists of strings)") from error
    classes = {"13a": Tokenizer13a, "intl": TokenizerV14International, "zh": TokenizerZh, "char": TokenizerChar}
    return classes[tokenize]()


_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]{3,}")
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # lmcore/: a warning skips its frames


def _tokenize_text(text: str, tokenize: str) -> tuple[list[str], bool]:
    """The tokens of ``text``, and whether it looks like unspaced Chinese read as one token."""
    tokenizer = _tokenizer(tokenize)
    line = text.rstrip()
    tokens = (tokenizer(line) if tokenizer else line).split()
    unspaced = tokenize not in ("zh", "char") and len(line.split()) == 1 and _CJK_RUN.search(line) is not None
    return tokens, unspaced


def _warn_unspaced(example: str, tokenize: str) -> None:
    # the warning points at the first caller outside lmcore, however deep inside lmcore we are
    frame, level = sys._getframe(0), 1
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR + os.sep):
        frame, level = frame.f_back, level + 1
    warnings.warn(f"{example!r} has Chinese characters but no spaces, so tokenize={tokenize!r} "
                  "reads it as a single token; use tokenize='zh' or 'char', or pass token lists",
                  stacklevel=level)


def bleu_tokens(text: str, tokenize: str = "13a") -> list[str]:
    """Split ``text`` into tokens exactly as sacrebleu does before counting n-grams.

    ``tokenize``: sacrebleu's "13a" (its default), "intl", "zh", "char", or "none"
    (whitespace only). The text is right-stripped first, as in sacrebleu.

    >>> bleu_tokens("Hello, world!")
    ['Hello', ',', 'world', '!']
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    tokens, unspaced = _tokenize_text(text, tokenize)
    if unspaced:
        _warn_unspaced(text, tokenize)
    return tokens


def _weight_values(weights: Sequence[float] | str | None, max_order: int) -> tuple[float, ...]:
    """Checked weights as floats: None or "uniform" give 1/N each, "halving" 1/2^n."""
    if weights is None or weights == "uniform":
        return (1.0 / max_order,) * max_order
    if weights == "halving":
        return tuple(0.5 ** n for n in range(1, max_order + 1))
    return weights


def _checked_weights(weights: object, max_order: int) -> Sequence[float] | str | None:
    """``weights`` if None, "uniform" or "halving", else as a tuple of ``max_order`` floats >= 0, not all 0."""
    if weights is None or isinstance(weights, str):
        if weights not in (None, "uniform", "halving"):
            raise ValueError(f"weights must be 'uniform', 'halving' or numbers, got {weights!r}")
        return weights
    if not isinstance(weights, (Sequence, np.ndarray)):  # not a number, a dict or a set
        raise TypeError(f"weights must be 'uniform', 'halving' or a sequence of numbers, got {weights!r}")
    if len(weights) != max_order:
        raise ValueError(f"weights has {len(weights)} entries but max_order is {max_order}")
    values = check_weights(weights, "weights")
    if not values.any():
        raise ValueError("weights are all zero")
    return tuple(values.tolist())


@dataclass(frozen=True, kw_only=True)
class BleuSettings:
    """The eight settings that change a BLEU score, checked once, when the object is made.

        BLEU = BP * exp(sum_n w_n log p_n),  n = 1..N,  p_n = clipped matches_n / totals_n

    ``max_order`` (N, 1 to 1000), ``weights`` (w_n: None or "uniform": 1/N each; "halving":
    1/2^n; or N numbers >= 0, kept as a tuple of floats), ``smooth_method`` ("none", "floor",
    "add-k", "exp") and ``smooth_value`` (for "floor" and "add-k"; None: 0.1 and 1),
    ``effective_order``, ``tokenize`` ("13a", "intl", "zh", "char", "none"; strings only),
    ``lowercase`` and ``nltk_totals``. A bad one raises ValueError or TypeError naming it; the
    flags must be True or False (numpy's too), not 1 or "yes". ``weight_values`` and
    ``smooth_value_used`` are the numbers the score uses.

    >>> settings = BleuSettings(max_order=2, weights="halving", smooth_method="floor")
    >>> settings.weight_values, settings.smooth_value_used
    ((0.5, 0.25), 0.1)
    >>> BleuSettings(smooth_method="floor", smooth_value=-1)
    Traceback (most recent call last):
    ...
    ValueError: smooth_value must be at least 0, got -1
    """

    max_order: int = 4
    weights: Sequence[float] | str | None = None
    smooth_method: str = "none"
    smooth_value: float | None = None
    effective_order: bool = False
    tokenize: str = "13a"
    lowercase: bool = False
    nltk_totals: bool = False

    def __post_init__(self) -> None:
        checked = {"max_order": check_int(self.max_order, "max_order", maximum=_MAX_ORDER_LIMIT,
                                          maximum_label=f"{_MAX_ORDER_LIMIT} (BLEU's standard is 4)")}
        checked["weights"] = _checked_weights(self.weights, checked["max_order"])
        if not isinstance(self.smooth_method, str) or self.smooth_method not in SMOOTHING_DEFAULTS:
            raise ValueError(f"smooth_method must be one of {tuple(SMOOTHING_DEFAULTS)}, got {self.smooth_method!r}")
        if self.smooth_value is not None:
            if SMOOTHING_DEFAULTS[self.smooth_method] is None:
                raise ValueError(f"smooth_value is only used by 'floor' and 'add-k', not {self.smooth_method!r}")
            check_number(self.smooth_value, "smooth_value", low=0)
        if self.tokenize not in TOKENIZERS:  # "pretokenized" is what a signature says of token lists
            raise ValueError(f"tokenize must be one of {TOKENIZERS}, got {self.tokenize!r}")
        for name in ("effective_order", "lowercase", "nltk_totals"):
            checked[name] = check_bool(getattr(self, name), name)
        for name, value in checked.items():
            object.__setattr__(self, name, value)  # frozen: fields are normalized here and only here

    @classmethod
    def of(cls, settings: BleuSettings | None = None, **options: object) -> BleuSettings:
        """``settings`` (checked when it was made; a ``BLEU`` is one) with ``options`` changed, or
        ``BleuSettings(**options)``: what a one-call function scores with.

        >>> BleuSettings.of(BleuSettings(max_order=2), lowercase=True) == BleuSettings(max_order=2, lowercase=True)
        True
        """
        if settings is None:
            return cls(**options)
        if not isinstance(settings, BleuSettings):
            raise TypeError(f"settings must be a BleuSettings (a BLEU is one), got {type(settings).__name__}")
        return dataclasses.replace(settings, **options) if options else settings

    @property
    def weight_values(self) -> tuple[float, ...]:
        """The weights w_1..w_N as floats."""
        return _weight_values(self.weights, self.max_order)

    @property
    def smooth_value_used(self) -> float | None:
        """The smoothing constant of "floor" or "add-k" (its default if ``smooth_value`` is None), else None."""
        default = SMOOTHING_DEFAULTS[self.smooth_method]
        return None if default is None else float(default if self.smooth_value is None else self.smooth_value)

    def signature(self, nrefs: int | str = 1, *, pretokenized: bool = False) -> BleuSignature:
        """The ``BleuSignature`` of a score with these settings on ``nrefs`` references per
        hypothesis ("var" if that varies), of token lists if ``pretokenized``.

        >>> print(BleuSettings(tokenize="zh").signature(2).format(short=True))  # doctest: +ELLIPSIS
        #:2|c:mixed|e:no|tok:zh|s:none|N:4|w:uniform|v:lmcore-...
        """
        return BleuSignature(settings=self, nrefs=nrefs, pretokenized=pretokenized)


def _number(value: float) -> str:
    """The shortest text that reads back as ``value`` ("0.1", "1"); ``:g`` would round to 6 digits."""
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


# (full, short) keys: sacrebleu's fields in its order, then the ones it lacks; the version stays last.
_KEYS = (("nrefs", "#"), ("case", "c"), ("eff", "e"), ("tok", "tok"), ("smooth", "s"),
         ("max_order", "N"), ("weights", "w"), ("totals", "tot"), ("version", "v"))


@dataclass(frozen=True, kw_only=True)  # __eq__ and __hash__ are its own, below
class BleuSignature:
    """Every setting that changes a BLEU score, as ``key:value`` fields joined by "|": the
    ``settings`` (a ``BleuSettings``), on ``nrefs`` references per hypothesis, of token lists if
    ``pretokenized``, by this version of lmcore. ``settings.signature(nrefs)`` makes one.

    ``str(signature)`` is the full form, ``signature.format(short=True)`` the short one. The
    fields are sacrebleu's, with its names, short names and order: nrefs (``#``; "var" when
    hypotheses have different numbers of references), case (``c``: "mixed" or "lc"), eff (``e``:
    effective order), tok ("pretokenized" for token lists), smooth (``s``, with its value in
    brackets). Then come the two that sacrebleu leaves out, max_order (``N``) and weights
    (``w``: "uniform", "halving" or the numbers), then "totals:nltk" only with ``nltk_totals``,
    and last the version, written "lmcore-<version>" so that the string is never taken for
    sacrebleu's. Numbers are written in full: "floor[0.1]" where sacrebleu rounds to
    "floor[0.10]". Two signatures are equal when they read the same, so the same settings
    spelled differently (weights=None or "uniform") give equal signatures with equal hashes.

    >>> signature = BleuSettings(smooth_method="floor").signature(2)
    >>> print(signature)  # doctest: +ELLIPSIS
    nrefs:2|case:mixed|eff:no|tok:13a|smooth:floor[0.1]|max_order:4|weights:uniform|version:lmcore-...
    >>> print(signature.format(short=True))  # doctest: +ELLIPSIS
    #:2|c:mixed|e:no|tok:13a|s:floor[0.1]|N:4|w:uniform|v:lmcore-...
    """

    settings: BleuSettings = field(default_factory=BleuSettings)
    nrefs: int | str = 1
    pretokenized: bool = False
    version: str = field(default=__version__, init=False)

    def __post_init__(self) -> None:
        if not isinstance(self.settings, BleuSettings):
            raise TypeError(f"settings must be a BleuSettings, got {type(self.settings).__name__}")
        if self.nrefs != "var":
            object.__setattr__(self, "nrefs", check_int(self.nrefs, "nrefs"))
        object.__setattr__(self, "pretokenized", check_bool(self.pretokenized, "pretokenized"))

    def format(self, short: bool = False) -> str:
        """The fields as ``key:value`` joined by "|"; the short keys if ``short``."""
        settings = self.settings
        weights = settings.weight_values
        named = next((name for name in ("uniform", "halving") if weights == _weight_values(name, settings.max_order)),
                     ",".join(map(_number, weights)))
        smooth_value = settings.smooth_value_used
        values = {"nrefs": self.nrefs, "case": "lc" if settings.lowercase else "mixed",
                  "eff": "yes" if settings.effective_order else "no",
                  "tok": PRETOKENIZED if self.pretokenized else settings.tokenize,
                  "smooth": settings.smooth_method + ("" if smooth_value is None else f"[{_number(smooth_value)}]"),
                  "max_order": settings.max_order, "weights": named,
                  "totals": "nltk" if settings.nltk_totals else None, "version": f"lmcore-{self.version}"}
        return "|".join(f"{short_key if short else key}:{values[key]}"
                        for key, short_key in _KEYS if values[key] is not None)

    def __str__(self) -> str:
        return self.format()

    def __eq__(self, other: object) -> bool:
        return str(self) == str(other) if isinstance(other, BleuSignature) else NotImplemented

    def __hash__(self) -> int:
        return hash(str(self))
