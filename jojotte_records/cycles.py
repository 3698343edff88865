"""Python's cycle collector paused over work that makes many short-lived objects and no reference cycles.

Two users: the double-dummy searches (both solvers, `analyze.solver` and `analyze.jojotte`), whose tables hold
hundreds of thousands of positions that the collector walked again and again as they were made (about 45% of a
four-player solve: 36.7 against 21.2 µs a position on a Baloot deal); and the report, whose views of each stream the
collector walked in the same way (about 9% of a report: 0.22 of 2.5 s on 2,000 hands). Neither makes reference
cycles beyond a few per session (positions hold their moves and the states after them, never the other way; a hand's
views none), so what they free goes by reference counting as before, and the rest at the next collection.
"""

from __future__ import annotations

import functools
import gc
from contextlib import contextmanager


@contextmanager
def cycle_collection_paused():
    """The cycle collector off inside the block, then on again if it was on."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def without_cycle_collection(fn):
    """``fn`` run with the cycle collector paused (`cycle_collection_paused`)."""
    @functools.wraps(fn)
    def run(*args, **kwargs):
        with cycle_collection_paused():
            return fn(*args, **kwargs)
    return run
