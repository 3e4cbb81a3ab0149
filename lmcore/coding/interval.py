"""Arithmetic coding by hand, exactly, on a short message: each symbol keeps its share of the
current interval, and the message is sent as the shortest binary fraction inside the last one.
Its length is within two bits of the message's surprisal; the range coder of ``coder`` does the
same in finite precision, for real text.

Exact means whole numbers over a power of 2 (a float probability is a binary fraction), which
grow with every symbol: a message of thousands of symbols takes a fraction of a second, and one
whose numbers could pass :data:`MAX_BITS` bits, or longer than :data:`MAX_SYMBOLS` symbols, is
refused before any work.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from lmcore.checks import check_distribution

__all__ = ["Narrowing", "narrow_interval"]

MAX_SYMBOLS = 20_000  # the longest message narrow_interval takes, in symbols
MAX_BITS = 1_000_000  # the longest exact numbers it may need, in bits: about 18,000 symbols of 53 bits


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
    interval the symbols take their shares in the dict's order. Exact arithmetic (each
    probability is the binary fraction its float is, and so are the interval's ends), so the
    code word is exact too; its length is at most ``ceil(surprisal) + 1`` bits.

    Long messages work: the surprisal is computed from the exact width's numerator and
    denominator (in log space: a width below the smallest float, past about 1,074 bits, is
    no problem). ``lows`` and ``highs`` are floats, so past about 1,074 bits they no longer
    tell the interval's ends apart. The exact numbers grow by the bits of each symbol's
    probability, about 53 for a float such as 0.8, 1 for 0.5; a message is refused, before
    any work, if they could grow past :data:`MAX_BITS` bits (about 18,000 symbols of 53
    bits), or if it is longer than :data:`MAX_SYMBOLS` symbols. So each symbol's work stays
    bounded (a few operations on numbers of at most a million bits), and a message takes
    at most a few seconds.

    Introduced in notebooks/03_cross_entropy.ipynb, section "Compression is prediction".

    >>> n = narrow_interval("AAB", {"A": 0.8, "B": 0.2})
    >>> [round(x, 4) for x in n.highs], f"{n.surprisal:.4f}", n.code
    ([1.0, 0.8, 0.64, 0.64], '2.9658', '1001')
    >>> f"{narrow_interval('AB' * 1000, {'A': 0.5, 'B': 0.5}).surprisal:,.1f} bits"   # 2,000 symbols of 1 bit
    '2,000.0 bits'
    """
    if isinstance(message, (str, bytes)):
        message = list(message)
    if not isinstance(message, Sequence):
        raise TypeError(f"message must be a sequence of symbols, got {type(message).__name__}")
    if len(message) > MAX_SYMBOLS:
        raise ValueError(f"message has {len(message):,} symbols, more than the {MAX_SYMBOLS:,} this exact, by-hand "
                         "coder takes (each symbol costs work on ever longer exact numbers): code a long text with "
                         "lmcore.coding.encode")
    if isinstance(distributions, Mapping):
        distributions = [distributions] * len(message)
    elif not isinstance(distributions, Sequence) or len(distributions) != len(message):
        raise ValueError("distributions must be one dict {symbol: probability} or one dict per symbol of message")

    # First every step's share as whole numbers, checked, and a bound on the exact numbers' bits: before any work.
    tables: dict[int, tuple[Mapping, dict, int]] = {}  # id of a dict: (the dict, {symbol: share}, exponent)
    steps, most_bits = [], 0
    for i, (symbol, distribution) in enumerate(zip(message, distributions)):
        if not isinstance(distribution, Mapping) or symbol not in distribution:
            raise ValueError(f"distributions[{i}] must be a dict that gives symbol {symbol!r} a probability")
        found = tables.get(id(distribution))
        if found is None:  # each dict is checked and turned into whole numbers once, however often it is used
            check_distribution(distribution, f"distributions[{i}]")
            found = tables[id(distribution)] = (distribution, *_whole_shares(distribution))
        _, table, bits = found
        below, p, growth = table[symbol]
        if p == 0:
            raise ValueError(f"symbol {i} ({symbol!r}) has probability 0: no interval is left to code it")
        steps.append((below, p, bits))
        most_bits += growth
    if most_bits > MAX_BITS:
        raise ValueError(f"message would need exact numbers of up to {most_bits:,} bits, more than the {MAX_BITS:,} "
                         "this by-hand coder takes (each symbol adds the bits of its probability: about 53 for a "
                         "float such as 0.8): code a long text with lmcore.coding.encode")

    # The interval is [low, low + width) / 2^exponent, in whole numbers: no fraction to reduce by a gcd.
    low, width, exponent = 0, 1, 0
    lows, highs = [0.0], [1.0]
    for below, p, bits in steps:
        low, width, exponent = (low << bits) + width * below, width * p, exponent + bits
        if not (low & 1 or width & 1):  # both even (an O(1) test): as small as a reduced fraction would be
            common = _trailing_zeros(low | width)
            low, width, exponent = low >> common, width >> common, exponent - common
        lows.append(_to_float(low, exponent))
        highs.append(_to_float(low + width, exponent))
    probabilities = tuple(float(distribution[symbol]) for symbol, distribution in zip(message, distributions))
    return Narrowing(tuple(message), tuple(lows), tuple(highs), probabilities,
                     exponent - math.log2(width) + 0.0, _shortest_code(low, low + width, exponent))


def _whole_shares(distribution: Mapping) -> tuple[dict, int]:
    """({symbol: (below, p, growth)}, e): the probability of the symbols before it and its own as whole numbers of
    2^-e, and at most how many bits coding it adds to the interval's exact numbers."""
    ratios = [float(p).as_integer_ratio() for p in distribution.values()]  # (n, 2^k): a float is a binary fraction
    bits = max(d.bit_length() - 1 for _, d in ratios)
    table, below = {}, 0
    for symbol, (n, d) in zip(distribution, ratios):
        p = n << (bits - (d.bit_length() - 1))
        # low · 2^e + width · below and width · p share at least this many factors 2, which are divided out
        shared = min(bits, _trailing_zeros(below) if below else bits, _trailing_zeros(p) if p else bits)
        table[symbol] = (below, p, bits - shared)
        below += p
    return table, bits


def _to_float(n: int, exponent: int) -> float:
    """``n / 2^exponent`` (``n >= 0``) rounded to the nearest float, from the leading 64 bits of ``n``: a few
    operations however long ``n`` is."""
    if not n:
        return 0.0
    size = n.bit_length()
    if size - exponent < -1020:  # near or below the smallest normal float (or 0): divide exactly
        return n / (1 << exponent)
    drop = max(size - 64, 0)
    top = n >> drop
    # float() rounds the 64 bits to 53; when the 11 bits it drops are exactly half way, the bits dropped here
    # decide: any 1 among them means above half way
    if drop and top & 0x7FF == 0x400 and n & ((1 << drop) - 1):
        top |= 1
    return math.ldexp(float(top), drop - exponent)


def _trailing_zeros(n: int) -> int:
    """How many times 2 divides ``n`` (0 for 0)."""
    return (n & -n).bit_length() - 1 if n else 0


def _shortest_code(low: int, high: int, exponent: int) -> str:
    """The shortest bits b with [0.b, 0.b + 2^-len(b)) inside [low, high) / 2^exponent.

    No interval of 2^-length fits in a narrower width, so the search starts at the first length that
    could: a few steps, not one per bit."""
    if low == 0 and high == 1 << exponent:
        return ""
    length = max(1, exponent - (high - low).bit_length() + 1)  # the first with 2^-length <= the width
    while True:
        if length <= exponent:
            shift = exponent - length
            start = -((-low) >> shift)  # ceil(low · 2^length)
            fits = (start + 1) << shift <= high
        else:
            start = low << (length - exponent)
            fits = start + 1 <= high << (length - exponent)
        if fits:
            return format(start, f"0{length}b")
        length += 1
