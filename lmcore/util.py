"""Helpers shared by several lmcore modules; knows nothing of language or probability."""

from __future__ import annotations

import contextlib
import gc

__all__ = ["gc_paused"]


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
