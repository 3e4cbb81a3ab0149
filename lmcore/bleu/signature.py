"""The settings of a BLEU computation, checked once, and the signature that states them.

``lmcore.bleu`` builds one ``BleuSignature`` per score from the arguments it was given and keeps
it on the result; its ``str`` is what to print next to a BLEU score so that others can reproduce
it. Everything here is exported by ``lmcore.bleu``.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field

from lmcore import __version__
from lmcore.checks import check_int

__all__ = ["SMOOTHING_DEFAULTS", "TOKENIZERS", "BleuSignature", "check_max_order", "check_flag"]

# sacrebleu's defaults, from Chen & Cherry (2014).
SMOOTHING_DEFAULTS: dict[str, float | None] = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}
TOKENIZERS = ("13a", "intl", "zh", "char", "none")
PRETOKENIZED = "pretokenized"  # the tokenizer named in the signature when token lists are given


# The largest max order BLEU takes: each score lists a weight and a precision per order, so a
# max order of a billion would be a billion of each (4 is the standard; no sentence has n-grams
# of an order longer than itself).
_MAX_ORDER_LIMIT = 1000


def check_max_order(max_order: object) -> None:
    """Raise TypeError unless ``max_order`` is an int, ValueError unless it is between 1 and 1000
    (a score lists a weight and a precision per order; 4 is the standard).

    >>> check_max_order(4)
    """
    if isinstance(max_order, bool) or not isinstance(max_order, int):
        raise TypeError(f"max_order must be an int, got {type(max_order).__name__}")
    if max_order < 1:
        raise ValueError(f"max_order must be >= 1, got {max_order}")
    if max_order > _MAX_ORDER_LIMIT:
        raise ValueError(f"max_order must be at most {_MAX_ORDER_LIMIT} (BLEU's standard is 4), got {max_order}")


def check_flag(name: str, value: object) -> bool:
    """``value`` as a bool; TypeError naming ``name`` unless it is True or False (numpy's too).

    >>> check_flag("lowercase", True)
    True
    """
    if value not in (True, False):  # "no" or None would otherwise count as a setting silently
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def _resolve_weights(weights, max_order: int) -> tuple[float, ...]:
    """The weights as floats: None or "uniform" give 1/N each, "halving" 1/2^n."""
    if weights is None or isinstance(weights, str):
        if weights in (None, "uniform"):
            return (1.0 / max_order,) * max_order
        if weights == "halving":
            return tuple(0.5 ** n for n in range(1, max_order + 1))
        raise ValueError(f"weights must be 'uniform', 'halving' or numbers, got {weights!r}")
    if isinstance(weights, numbers.Number) or not hasattr(weights, "__len__"):
        raise TypeError(f"weights must be 'uniform', 'halving' or a sequence of numbers, got {weights!r}")
    if len(weights) != max_order:
        raise ValueError(f"weights has {len(weights)} entries but max_order is {max_order}")
    for n, weight in enumerate(weights):
        if isinstance(weight, bool) or not isinstance(weight, numbers.Real):
            raise TypeError(f"weights[{n}] must be a number, got {type(weight).__name__}")
        if not 0 <= _float(weight) < math.inf:
            raise ValueError(f"weights[{n}] is {weight}; weights must be finite and >= 0")
    if not any(weights):
        raise ValueError("weights are all zero")
    return tuple(map(float, weights))


def _float(value: numbers.Real) -> float:
    """``value`` as a float; an int beyond a float's range is ±inf (then refused as infinite)."""
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def _check_settings(*, tokenize: str, lowercase: bool, smooth_method: str, smooth_value: float | None,
                    effective_order: bool, max_order: int, weights, nltk_totals: bool,
                    tokenizers: tuple[str, ...] = TOKENIZERS) -> dict:
    """BLEU's settings checked, as a dict of the values to use: flags as bools, ``weights`` as
    floats, ``smooth_value`` with its default filled in. ValueError or TypeError naming the
    setting otherwise. The one place where the settings are checked: ``BleuSignature`` and
    ``BLEU`` both call it.

    >>> _check_settings(tokenize="13a", lowercase=False, smooth_method="floor", smooth_value=None,
    ...                 effective_order=False, max_order=2, weights="halving", nltk_totals=False)["weights"]
    (0.5, 0.25)
    """
    if tokenize not in tokenizers:
        raise ValueError(f"tokenize must be one of {tokenizers}, got {tokenize!r}")
    flags = {name: check_flag(name, value) for name, value in
             (("lowercase", lowercase), ("effective_order", effective_order), ("nltk_totals", nltk_totals))}
    check_max_order(max_order)
    resolved_weights = _resolve_weights(weights, max_order)
    if not isinstance(smooth_method, str) or smooth_method not in SMOOTHING_DEFAULTS:
        raise ValueError(f"smooth_method must be one of {tuple(SMOOTHING_DEFAULTS)}, got {smooth_method!r}")
    default, value = SMOOTHING_DEFAULTS[smooth_method], smooth_value
    if value is not None and default is None:
        raise ValueError(f"smooth_value is only used by 'floor' and 'add-k', not {smooth_method!r}")
    if value is not None and (isinstance(value, bool) or not isinstance(value, numbers.Real)
                              or not 0 <= _float(value) < math.inf):
        raise ValueError(f"smooth_value must be a finite number >= 0, got {value!r}")
    return {**flags, "weights": resolved_weights,
            "smooth_value": None if default is None else float(default if value is None else value)}


def _number(value: float) -> str:
    """The shortest text that reads back as ``value`` ("0.1", "1"); ``:g`` would round to 6 digits."""
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


# (full, short) keys: sacrebleu's fields in its order, then the ones it lacks; the version stays last.
_KEYS = (("nrefs", "#"), ("case", "c"), ("eff", "e"), ("tok", "tok"), ("smooth", "s"),
         ("max_order", "N"), ("weights", "w"), ("totals", "tot"), ("version", "v"))


@dataclass(frozen=True, kw_only=True)
class BleuSignature:
    """Every setting that changes a BLEU score, as ``key:value`` fields joined by "|".

    ``str(signature)`` is the full form, ``signature.format(short=True)`` the short one. The
    fields are sacrebleu's, with its names, short names and order: nrefs (``#``; "var" when
    hypotheses have different numbers of references), case (``c``: "mixed" or "lc"), eff (``e``:
    effective order), tok, smooth (``s``, with its value in brackets). Then come the two that
    sacrebleu leaves out, max_order (``N``) and weights (``w``: "uniform", "halving" or the
    numbers), then "totals:nltk" only with ``nltk_totals``, and last the version, written
    "lmcore-<version>" so that the string is never taken for sacrebleu's. Numbers are written
    in full: "floor[0.1]" where sacrebleu rounds to "floor[0.10]".

    The arguments are ``corpus_bleu``'s, checked as there (``tokenize`` may also be
    "pretokenized", for token lists); ``weights`` and ``smooth_value`` are kept as the numbers
    used, so the same settings spelled differently give equal signatures with equal hashes.

    >>> signature = BleuSignature(nrefs=2, smooth_method="floor")
    >>> print(signature)  # doctest: +ELLIPSIS
    nrefs:2|case:mixed|eff:no|tok:13a|smooth:floor[0.1]|max_order:4|weights:uniform|version:lmcore-...
    >>> print(signature.format(short=True))  # doctest: +ELLIPSIS
    #:2|c:mixed|e:no|tok:13a|s:floor[0.1]|N:4|w:uniform|v:lmcore-...
    """

    nrefs: int | str = 1
    tokenize: str = "13a"
    lowercase: bool = False
    smooth_method: str = "none"
    smooth_value: float | None = None
    effective_order: bool = False
    max_order: int = 4
    weights: tuple[float, ...] | str | None = None
    nltk_totals: bool = False
    version: str = field(default=__version__, init=False)

    def __post_init__(self):
        if self.nrefs != "var":
            object.__setattr__(self, "nrefs", check_int(self.nrefs, "nrefs"))
        checked = _check_settings(tokenize=self.tokenize, lowercase=self.lowercase, smooth_method=self.smooth_method,
                                  smooth_value=self.smooth_value, effective_order=self.effective_order,
                                  max_order=self.max_order, weights=self.weights, nltk_totals=self.nltk_totals,
                                  tokenizers=TOKENIZERS + (PRETOKENIZED,))
        for name, value in checked.items():
            object.__setattr__(self, name, value)  # frozen: fields are normalized here and only here

    def format(self, short: bool = False) -> str:
        """The fields as ``key:value`` joined by "|"; the short keys if ``short``."""
        weights = next((name for name in ("uniform", "halving")
                        if self.weights == _resolve_weights(name, self.max_order)),
                       ",".join(map(_number, self.weights)))
        smooth_value = "" if self.smooth_value is None else f"[{_number(self.smooth_value)}]"
        values = {"nrefs": self.nrefs, "case": "lc" if self.lowercase else "mixed",
                  "eff": "yes" if self.effective_order else "no", "tok": self.tokenize,
                  "smooth": self.smooth_method + smooth_value, "max_order": self.max_order, "weights": weights,
                  "totals": "nltk" if self.nltk_totals else None, "version": f"lmcore-{self.version}"}
        return "|".join(f"{short_key if short else key}:{values[key]}"
                        for key, short_key in _KEYS if values[key] is not None)

    def __str__(self) -> str:
        return self.format()
