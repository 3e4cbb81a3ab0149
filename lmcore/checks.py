"""The argument checks every lmcore package uses, so that one mistake gets one error everywhere.

Each check takes the value and the name of the argument it came in as, and returns the value
checked (and converted: an ``int``, a ``float``, a float array). A value of the wrong *type*
raises ``TypeError``, a value of the right type but outside what is allowed ``ValueError``;
both messages begin with the argument's name and say what was wrong and what was given.

- :func:`check_int`, :func:`check_number`, :func:`check_bool`, :func:`check_str`: one value;
- :func:`check_base`: the base of a logarithm (2: bits, e: nats, 10: bans);
- :func:`check_weights`, :func:`check_probabilities`, :func:`check_distribution`: arrays of
  non-negative numbers, of probabilities, of probabilities that sum to 1
  (within :func:`sum_tolerance`, see :data:`PROBABILITY_SUM_TOLERANCE`);
- :func:`check_tokens`, :func:`check_sentences`: a token list, a list of token lists;
- :func:`check_finite`: numbers none of which is NaN or infinite (parameters, statistics);
- :func:`check_no_missing`: a sample of symbols with no missing value (NaN or None) in it;
- :func:`check_path`: a file name.

This module sits on the lowest floor: it imports only numpy and the standard library, and
knows nothing of language models. (:func:`gc_paused` is here too, a helper of the same kind.)

>>> check_int(3, "order"), check_number(0.5, "skew", low=0, high=1), check_base(2)
(3, 0.5, 2.0)
>>> check_distribution([0.5, 0.4])
Traceback (most recent call last):
...
ValueError: p: probabilities sum to 0.9, expected 1 (tolerance 1e-06)
"""

from __future__ import annotations

import contextlib
import gc
import math
import numbers
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from itertools import chain

import numpy as np

__all__ = [
    "gc_paused", "check_int", "check_number", "check_bool", "check_str", "check_base",
    "PROBABILITY_SUM_TOLERANCE", "sum_tolerance", "check_weights", "check_probabilities", "check_distribution",
    "check_tokens", "check_sentences", "check_finite", "check_no_missing", "check_path",
]


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector inside a ``with`` block.

    Building a corpus or reading an ARPA file creates hundreds of thousands of small
    tuples and lists, which wake the cyclic collector again and again (half the
    parsing time); lists of strings and numbers form no reference cycles, so there is
    nothing for it to find. The collector is re-enabled afterwards only if it was on.

    >>> import gc
    >>> with gc_paused():
    ...     gc.isenabled()
    False
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


# --- one value ------------------------------------------------------------------------------


def check_int(value: object, name: str, *, minimum: int | None = 1, maximum: int | None = None,
              maximum_label: str | None = None) -> int:
    """``value`` as an ``int``: a whole-number type (``int``, a numpy integer; not a bool, not
    ``2.0``) from ``minimum`` (``None``: no lower bound) to ``maximum`` (``None``: no upper bound).

    ``maximum_label`` says what the maximum is, in the message (``"max_k=30"``,
    ``"the sequence's length 4"``); by default its value.

    >>> check_int(3, "order"), check_int(0, "stride", minimum=0)
    (3, 0)
    >>> check_int(2.0, "order")
    Traceback (most recent call last):
    ...
    TypeError: order must be an int, got float
    >>> check_int(0, "order")
    Traceback (most recent call last):
    ...
    ValueError: order must be at least 1, got 0
    >>> check_int(31, "k", minimum=2, maximum=30, maximum_label="max_k=30")
    Traceback (most recent call last):
    ...
    ValueError: k must be between 2 and max_k=30, got 31
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    value = int(value)
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        top = maximum if maximum_label is None else maximum_label
        if maximum is None:
            allowed = f"at least {minimum}"
        elif minimum is None:
            allowed = f"at most {top}"
        else:
            allowed = f"between {minimum} and {top}"
        raise ValueError(f"{name} must be {allowed}, got {value}")
    return value


def _real(value: object, name: str) -> float:
    """``value`` as a float if it is a real number type (not a bool), else a ``TypeError``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, got {type(value).__name__}")
    try:
        return float(value)
    except OverflowError:  # an int beyond a float's range
        return math.inf if value > 0 else -math.inf


def _interval(low: float | None, high: float | None, low_open: bool, high_open: bool) -> str:
    """How a message says the allowed range: "between 0 and 1", "in [0, 1)", "at least 0", ..."""
    if low is not None and high is not None:
        if low_open == high_open:
            return f"{'strictly ' if low_open else ''}between {low:g} and {high:g}"
        return f"in {'(' if low_open else '['}{low:g}, {high:g}{')' if high_open else ']'}"
    if low is not None:
        return f"greater than {low:g}" if low_open else f"at least {low:g}"
    return f"less than {high:g}" if high_open else f"at most {high:g}"


def check_number(value: object, name: str, *, low: float | None = None, high: float | None = None,
                 low_open: bool = False, high_open: bool = False) -> float:
    """``value`` as a ``float``: a finite real number (``int``, ``float``, a numpy number;
    not a bool, not a str) within ``[low, high]``; ``low_open``/``high_open`` leave an end out
    (``low=0, low_open=True``: above 0). ``None``: no bound on that side.

    >>> check_number(0.25, "skew", low=0, high=1), check_number(3, "k", low=0, low_open=True)
    (0.25, 3.0)
    >>> check_number(1.0, "p_a", low=0, high=1, low_open=True, high_open=True)
    Traceback (most recent call last):
    ...
    ValueError: p_a must be strictly between 0 and 1, got 1.0
    >>> check_number("0.5", "heldout", low=0, high=1, high_open=True)
    Traceback (most recent call last):
    ...
    TypeError: heldout must be a number, got str
    """
    number = _real(value, name)
    if not math.isfinite(number):
        raise ValueError(f"{name} must be a finite number, got {value}")
    too_low = low is not None and (number <= low if low_open else number < low)
    too_high = high is not None and (number >= high if high_open else number > high)
    if too_low or too_high:
        raise ValueError(f"{name} must be {_interval(low, high, low_open, high_open)}, got {value}")
    return number


def check_bool(value: object, name: str) -> bool:
    """``value`` if it is ``True`` or ``False`` (a numpy bool too); not 0, 1 or ``"yes"``.

    >>> check_bool(True, "shuffle")
    True
    >>> check_bool(1, "shuffle")
    Traceback (most recent call last):
    ...
    TypeError: shuffle must be True or False, got 1
    """
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def check_str(value: object, name: str) -> str:
    """``value`` if it is a ``str``.

    >>> check_str(["a"], "text")
    Traceback (most recent call last):
    ...
    TypeError: text must be a str, got list
    """
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, got {type(value).__name__}")
    return value


def check_base(base: object, name: str = "base") -> float:
    """``base`` of a logarithm as a ``float``: a finite real number above 1 (2: bits, ``math.e``:
    nats, 10: bans). A base of 1 or less would make information zero, infinite or negative.

    >>> import math
    >>> check_base(2), check_base(math.e) == math.e, check_base(10)
    (2.0, True, 10.0)
    >>> check_base(0.5)
    Traceback (most recent call last):
    ...
    ValueError: base must be a finite number > 1 (2: bits, e: nats, 10: bans), got 0.5
    """
    number = _real(base, name)
    if not (number > 1 and math.isfinite(number)):
        raise ValueError(f"{name} must be a finite number > 1 (2: bits, e: nats, 10: bans), got {base}")
    return number


# --- arrays of probabilities --------------------------------------------------------------------

PROBABILITY_SUM_TOLERANCE = 1e-6
"""How far from 1 the sum of a distribution of one or two outcomes may be; more outcomes
are allowed their rounding (:func:`sum_tolerance`): ``max(1e-6, n · 5e-7 + 1e-12)`` for ``n``
outcomes. A probability above 1 by at most this much is a rounding error, and accepted."""

_ROUNDING = 5e-7  # the largest error of a probability rounded to six decimals
_SLACK = 1e-12  # the float error of summing (numpy sums in pairs: ~1e-16 · log2 n)


def sum_tolerance(n: int) -> float:
    """How far from 1 the sum of ``n`` probabilities may be: ``max(1e-6, n · 5e-7 + 1e-12)``.

    The rule: every probability may have been rounded to six decimals (``0.333333``,
    ``0.166667``), an error of at most ``5e-7`` each, so ``n`` of them may sum to anything
    within ``n · 5e-7`` of 1 (``1e-12`` more for the float arithmetic). Never less than
    :data:`PROBABILITY_SUM_TOLERANCE`, so two rounded numbers pass too. Numbers rounded to
    fewer decimals (``0.3333``), or a forgotten outcome of more than the tolerance, do not pass.

    >>> sum_tolerance(1), f"{sum_tolerance(6):.3g}", f"{sum_tolerance(1000):.3g}"
    (1e-06, '3e-06', '0.0005')
    """
    return max(PROBABILITY_SUM_TOLERANCE, check_int(n, "n", minimum=0) * _ROUNDING + _SLACK)


_DIMENSIONS = {1: "one-dimensional", 2: "two-dimensional"}


def _some(values: np.ndarray) -> str:
    """The first few of ``values`` for a message: ``[-0.5, -0.1]``, or ``[-1.0, -2.0, -3.0, ...]``."""
    shown = values[:3].tolist()
    return str(shown) if values.size <= 3 else str(shown)[:-1] + ", ...]"


def _float_array(values: object, name: str, what: str, ndim: int) -> np.ndarray:
    """``values`` (a sequence, an array, or a dict: its values) as a float array of ``ndim``
    dimensions: not empty, no NaN, no negative value, no infinity; errors say ``what`` they hold."""
    if isinstance(values, Mapping):
        values = list(values.values())
    if isinstance(values, (str, bytes)):
        raise TypeError(f"{name} must be a sequence, array or dict of {what}, got {type(values).__name__}")
    try:
        array = np.asarray(values)
    except (TypeError, ValueError):  # ragged lists
        raise TypeError(f"{name} must contain only numbers") from None
    if array.dtype == object and all(isinstance(x, numbers.Real) and not isinstance(x, bool) for x in array.flat):
        # Fractions, or Python ints too big for int64 (and, beyond a float's range, infinite)
        array = np.array([_real(x, name) for x in array.flat], dtype=float).reshape(array.shape)
    if array.dtype.kind not in "iuf":  # str, bool, complex, None, lists inside ...
        raise TypeError(f"{name} must contain only numbers")
    array = array.astype(float, copy=False)
    if array.ndim != ndim:
        dimensions = _DIMENSIONS.get(ndim, f"{ndim}-dimensional")
        raise ValueError(f"{name} must be {dimensions}, got shape {array.shape}")
    if array.size == 0:
        raise ValueError(f"{name} is empty")
    if np.isnan(array).any():
        raise ValueError(f"{name} contains NaN")
    if (array < 0).any():
        raise ValueError(f"{name} has negative {what}: {_some(array[array < 0])}")
    if np.isinf(array).any():
        raise ValueError(f"{name} contains an infinite value")
    return array


def check_weights(values: object, name: str = "weights", *, ndim: int = 1) -> np.ndarray:
    """Non-negative weights (a sequence, an array, or a dict: its values) as a float array of
    ``ndim`` dimensions, checked for type, shape, emptiness, NaN, sign and infinity. Weights
    need not sum to 1 nor stay below 1 (slider positions, counts); all 0 is the caller's to refuse.

    >>> check_weights([2, 1]).tolist()
    [2.0, 1.0]
    >>> check_weights([1, -1], "p")
    Traceback (most recent call last):
    ...
    ValueError: p has negative weights: [-1.0]
    """
    return _float_array(values, name, "weights", ndim)


def check_probabilities(values: object, name: str = "p", *, ndim: int = 1) -> np.ndarray:
    """Probabilities (a sequence, an array, or a dict: its values) as a float array of ``ndim``
    dimensions, each in [0, 1] (a rounding error up to :data:`PROBABILITY_SUM_TOLERANCE`
    above 1 passes); their sum is not checked (:func:`check_distribution` does).

    >>> check_probabilities([0.5, 1.0, 0.0]).tolist()
    [0.5, 1.0, 0.0]
    >>> check_probabilities([0.5, -0.1])
    Traceback (most recent call last):
    ...
    ValueError: p has negative probabilities: [-0.1]
    >>> check_probabilities([[0.2, 1.5]], "order_probs", ndim=2)
    Traceback (most recent call last):
    ...
    ValueError: order_probs has probabilities above 1: [1.5]
    """
    array = _float_array(values, name, "probabilities", ndim)
    above = array > 1 + PROBABILITY_SUM_TOLERANCE
    if above.any():
        raise ValueError(f"{name} has probabilities above 1: {_some(array[above])}")
    return array


def check_distribution(values: object, name: str = "p") -> np.ndarray:
    """A probability distribution (a sequence, an array, or a dict: its values) as a 1-d float
    array: :func:`check_probabilities`, and the sum within :func:`sum_tolerance` of 1 (six-decimal
    textbook numbers such as ``[0.333333] * 3`` pass). The values are returned as given, not rescaled.

    >>> check_distribution([0.25, 0.75]).tolist(), len(check_distribution([0.166667] * 6))
    ([0.25, 0.75], 6)
    >>> check_distribution({"rain": 0.25, "dry": 0.7})
    Traceback (most recent call last):
    ...
    ValueError: p: probabilities sum to 0.95, expected 1 (tolerance 1e-06)
    """
    array = check_probabilities(values, name)
    total, tolerance = float(array.sum()), sum_tolerance(array.size)
    if not abs(total - 1.0) <= tolerance:
        raise ValueError(f"{name}: probabilities sum to {total:.6g}, expected 1 (tolerance {tolerance:.2g})")
    return array


# --- tokens and sentences --------------------------------------------------------------------------


def _is_list(value: object) -> bool:
    """A sequence (a list, a tuple, ...) that is not a str or bytes."""
    return type(value) in (list, tuple) or (isinstance(value, Sequence) and not isinstance(value, (str, bytes)))


def _check_str_tokens(tokens: Iterable, name: str) -> None:
    if set(map(type, tokens)) <= {str}:  # one pass in C; the loop below only names the culprit
        return
    for token in tokens:
        if not isinstance(token, str):
            raise TypeError(f"{name} must contain only str tokens, got {type(token).__name__} {token!r}")


def check_tokens(tokens: object, name: str = "tokens") -> Sequence[str]:
    """``tokens`` if it is a sequence (a list, a tuple) of ``str``: one sentence or context, split.

    >>> check_tokens(["the", "cat"], "context")
    ['the', 'cat']
    >>> check_tokens("the cat", "context")
    Traceback (most recent call last):
    ...
    TypeError: context must be a sequence of tokens (e.g. a list of str), got str
    >>> check_tokens(["the", 3], "sentence")
    Traceback (most recent call last):
    ...
    TypeError: sentence must contain only str tokens, got int 3
    """
    if not _is_list(tokens):
        raise TypeError(f"{name} must be a sequence of tokens (e.g. a list of str), got {type(tokens).__name__}")
    _check_str_tokens(tokens, name)
    return tokens


def check_sentences(sentences: object, name: str = "sentences", *, allow_empty: bool = False,
                    tokens: bool = True) -> Sequence[Sequence[str]]:
    """``sentences`` if it is a sequence of token lists (each a list or tuple of ``str``), not
    empty unless ``allow_empty``. ``tokens=False`` leaves the tokens unchecked (for a caller that
    checks them anyway, as a vocabulary does while encoding: one pass instead of two).

    >>> check_sentences([["i", "spent"], ["money"]])
    [['i', 'spent'], ['money']]
    >>> check_sentences(["i spent money"])
    Traceback (most recent call last):
    ...
    TypeError: sentences must be a list of token lists (split each sentence into tokens), got a str
    >>> check_sentences([["i"], ["spent", 3]])
    Traceback (most recent call last):
    ...
    TypeError: sentences[1] must contain only str tokens, got int 3
    """
    if not _is_list(sentences):
        raise TypeError(f"{name} must be a list of token lists, got {type(sentences).__name__}")
    if len(sentences) == 0 and not allow_empty:
        raise ValueError(f"{name} is empty")
    for sentence in sentences:
        if not _is_list(sentence):
            kind = type(sentence).__name__
            raise TypeError(f"{name} must be a list of token lists (split each sentence into tokens), got a {kind}")
    if tokens and not set(map(type, chain.from_iterable(sentences))) <= {str}:  # one pass over every token
        for i, sentence in enumerate(sentences):
            _check_str_tokens(sentence, f"{name}[{i}]")
    return sentences


# --- finite numbers, samples without missing values, file names -----------------------------------


def check_finite(values: object, name: str) -> np.ndarray:
    """``values`` (a number, a sequence or an array of numbers, of any shape) as a float array, if
    none of them is NaN or infinite; negative numbers pass (log-probabilities, differences).

    >>> check_finite([[0.5, -2.0]], "matrix").tolist()
    [[0.5, -2.0]]
    >>> check_finite([0.5, float("nan")], "scores_a")
    Traceback (most recent call last):
    ...
    ValueError: scores_a contains NaN
    """
    if isinstance(values, (str, bytes, Mapping)):
        raise TypeError(f"{name} must be numbers (a sequence or an array), got {type(values).__name__}")
    try:
        array = np.asarray(values)
    except (TypeError, ValueError):  # ragged lists
        raise TypeError(f"{name} must contain only numbers") from None
    if array.dtype.kind not in "iuf":  # str, bool, complex, None, lists inside ...
        raise TypeError(f"{name} must contain only numbers")
    array = array.astype(float, copy=False)
    if np.isnan(array).any():
        raise ValueError(f"{name} contains NaN")
    if np.isinf(array).any():
        raise ValueError(f"{name} contains an infinite value")
    return array


def _missing(value: object) -> bool:
    """Whether ``value`` stands for a missing value: None, or a NaN (the one number unequal to itself)."""
    return value is None or (isinstance(value, numbers.Number) and value != value)


def check_no_missing(sample: object, name: str, distinct: Iterable | None = None) -> object:
    """``sample`` (a sequence of symbols, or an array) if none of its values is missing: NaN or None
    is no symbol (NaN is not even equal to itself, so two NaNs would count as two types, or fail a
    lookup), so a sample holding one is refused, with its position.

    The check is cheap on samples of millions of tokens: a float array costs one ``np.isnan``, and
    for other samples ``distinct`` (their distinct values, such as the keys of a dict or ``Counter``
    the caller built from them anyway) is scanned instead of every token.

    >>> check_no_missing([1.0, float("nan"), 2.0], "sequence")
    Traceback (most recent call last):
    ...
    ValueError: sequence contains NaN at position 1: a missing value, not a symbol; drop or fill missing values first
    >>> check_no_missing(["a", "b"], "tokens")
    ['a', 'b']
    """
    if isinstance(sample, np.ndarray) and sample.dtype.kind in "fc":
        nan = np.isnan(sample)
        if nan.any():
            _refuse_missing(name, "NaN", int(np.flatnonzero(nan.ravel())[0]))
        return sample
    if isinstance(sample, np.ndarray) and sample.dtype.kind != "O":
        return sample  # ints, bools, str: nothing can be missing
    missing = next(filter(_missing, sample if distinct is None else distinct), _NOTHING_MISSING)
    if missing is not _NOTHING_MISSING:
        where = None  # a generator, already read: no position to give
        if isinstance(sample, (Sequence, np.ndarray)):
            where = next(i for i, value in enumerate(sample) if _missing(value))
            missing = sample[where]
        _refuse_missing(name, "None" if missing is None else "NaN", where)
    return sample


_NOTHING_MISSING = object()


def _refuse_missing(name: str, what: str, where: int | None) -> None:
    position = "" if where is None else f" at position {where}"
    raise ValueError(f"{name} contains {what}{position}: a missing value, not a symbol; "
                     "drop or fill missing values first")


def check_path(path: object, name: str = "path") -> str | bytes | os.PathLike:
    """``path`` if it is a file name: a ``str``, ``bytes`` or a ``pathlib.Path`` (any ``os.PathLike``);
    not an int, which ``open`` would take as an open file descriptor.

    >>> check_path("model.arpa")
    'model.arpa'
    >>> check_path(3)
    Traceback (most recent call last):
    ...
    TypeError: path must be a file name (a str or a pathlib.Path), got int
    """
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise TypeError(f"{name} must be a file name (a str or a pathlib.Path), got {type(path).__name__}")
    if not os.fspath(path):
        raise ValueError(f"{name} is empty: give a file name")
    return path
