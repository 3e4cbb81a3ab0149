"""Arithmetic coding by hand, exactly, on a short message: each symbol keeps its share of the
current interval, and the message is sent as the shortest binary fraction inside the last one.
Its length is within two bits of the message's surprisal; the range coder of ``coder`` does the
same in finite precision, for real text.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from lmcore.checks import check_distribution

__all__ = ["Narrowing", "narrow_interval"]



@dataclass(frozen=True)
class Narrowing:
    """The intervals of arithmetic coding for a short message (:func:`narrow_interval`).

    ``lows[i]``, ``highs[i]``: the interval after ``i`` symbols (``[0, 1)`` first);
    ``probabilities[i]``: the probability of symbol ``i``; ``surprisal``: ``-log2`` of the
    final width, the message's information in bits; ``code``: the shortest binary fraction
    ``0.b1 b2 ...`` whose whole dyadic interval ``[0.b, 0.b + 2^-len)`` lies inside the final
    interval, so that any continuation of the bits still decodes to this message.
    """

    message: tuple
    lows: tuple[float, ...]
    highs: tuple[float, ...]
    probabilities: tuple[float, ...]
    surprisal: float
    code: str


def narrow_interval(message: Sequence, distributions: Mapping | Sequence[Mapping]) -> Narrowing:
    """Arithmetic coding by hand: each symbol keeps its share of the current interval.

    ``distributions`` is one dict ``{symbol: probability}`` used at every step, or one such
    dict per symbol of ``message`` (a model that changes with the context). Within an
    interval the symbols take their shares in the dict's order. Exact arithmetic
    (fractions), so the code word is exact too; its length is at most
    ``ceil(surprisal) + 1`` bits.

    Introduced in notebooks/03_cross_entropy.ipynb, section "Compression is prediction".

    >>> n = narrow_interval("AAB", {"A": 0.8, "B": 0.2})
    >>> [round(x, 4) for x in n.highs], f"{n.surprisal:.4f}", n.code
    ([1.0, 0.8, 0.64, 0.64], '2.9658', '1001')
    """
    if isinstance(message, (str, bytes)):
        message = list(message)
    if not isinstance(message, Sequence):
        raise TypeError(f"message must be a sequence of symbols, got {type(message).__name__}")
    if isinstance(distributions, Mapping):
        distributions = [distributions] * len(message)
    elif not isinstance(distributions, Sequence) or len(distributions) != len(message):
        raise ValueError("distributions must be one dict {symbol: probability} or one dict per symbol of message")
    low, width = Fraction(0), Fraction(1)
    lows, highs, probabilities = [0.0], [1.0], []
    for i, (symbol, distribution) in enumerate(zip(message, distributions)):
        if not isinstance(distribution, Mapping) or symbol not in distribution:
            raise ValueError(f"distributions[{i}] must be a dict that gives symbol {symbol!r} a probability")
        check_distribution(distribution, f"distributions[{i}]")
        values = [Fraction(float(p)) for p in distribution.values()]
        below = sum((p for s, p in zip(distribution, values) if s != symbol and _before(distribution, s, symbol)),
                    Fraction(0))
        p = Fraction(float(distribution[symbol]))
        if p == 0:
            raise ValueError(f"symbol {i} ({symbol!r}) has probability 0: no interval is left to code it")
        low, width = low + width * below, width * p
        lows.append(float(low))
        highs.append(float(low + width))
        probabilities.append(float(p))
    return Narrowing(tuple(message), tuple(lows), tuple(highs), tuple(probabilities),
                     -math.log2(width) + 0.0, _shortest_code(low, low + width))


def _before(distribution: Mapping, other, symbol) -> bool:
    keys = list(distribution)
    return keys.index(other) < keys.index(symbol)


def _shortest_code(low: Fraction, high: Fraction) -> str:
    """The shortest bits b with [0.b, 0.b + 2^-len(b)) inside [low, high)."""
    if low == 0 and high == 1:
        return ""
    length = 1
    while True:
        scale = 2**length
        start = math.ceil(low * scale)
        if Fraction(start + 1, scale) <= high:
            return format(start, f"0{length}b")
        length += 1
