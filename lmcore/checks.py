"""Helpers shared by several lmcore modules; knows nothing of language or probability."""

from __future__ import annotations

import contextlib
import gc
import numbers

__all__ = ["gc_paused", "check_int"]


@contextlib.contextmanager
def gc_paused():
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


def check_int(value, name: str, low: int = 1) -> int:
    """``value`` as an ``int`` if it is a whole number type (not a bool) of at least ``low``; else
    a ``TypeError`` or ``ValueError`` that names ``name``.

    >>> check_int(3, "order"), check_int(0, "stride", low=0)
    (3, 0)
    >>> check_int(2.0, "order")
    Traceback (most recent call last):
    ...
    TypeError: order must be an int, got float
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if value < low:
        raise ValueError(f"{name} must be at least {low}, got {value}")
    return int(value)
