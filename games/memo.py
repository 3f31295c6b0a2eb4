"""A bounded memo that never pauses: the oldest entry leaves as each new one comes in.

A memo emptied whole when it fills frees all of its values inside one command, a pause
the referee's latency p99 shows; here each insertion past the limit frees one entry. A
dictionary with deletions still compacts now and then, at a cost growing with its size,
so memos on a referee's path stay at `MAX_ENTRIES` or fewer (figures: bench/RESULTS.md,
"7 Wonders' production memo emptied whole when full").
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")

MAX_ENTRIES = 1 << 14
"""The largest memo (and `functools.lru_cache`) a game keeps on the referee's path: an
lru_cache at capacity also compacts its dictionary now and then."""


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
