"""A bounded memo that never pauses: the oldest entry leaves as each new one comes in.

A rules memo that is emptied whole when it fills (`dict.clear()` at a limit) frees all of
its values at once: 7 Wonders' 8,192 city productions took 4.9 ms to free, a pause in the
middle of one command every 1.6 s at 13k commands/s (the latency p99 of `tablestream
bench` counted them). Here each insertion past the limit frees one entry. The dictionary
under it still compacts now and then, as every dict with deletions does, at a cost that
grows with its size (about 0.7 ms at 16,384 entries, 2.5 ms at 65,536, measured), so
memos on a referee's path are kept at 16,384 entries or fewer (`MAX_ENTRIES`).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")

MAX_ENTRIES = 1 << 14
"""The largest memo (and `functools.lru_cache`) a game keeps on the referee's path: an
lru_cache at capacity also compacts its dictionary now and then (0.7 ms at this size)."""


class Memo(OrderedDict[K, V]):
    """Values by key, at most `limit` of them, the oldest inserted evicted first (FIFO:
    the memos using it look up what was put in recently, e.g. a city's production of
    the turn before)."""

    __slots__ = ("limit",)

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def put(self, key: K, value: V) -> V:
        """Store `value` under `key` (evicting the oldest entry if full) and return it."""
        if len(self) >= self.limit:
            self.popitem(last=False)
        self[key] = value
        return value
