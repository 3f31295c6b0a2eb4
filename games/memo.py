"""A bounded memo that never pauses: the oldest entry leaves as each new one comes in.

A memo emptied whole when it fills frees all of its values inside one command, a pause
the referee's latency p99 shows; here each insertion past the limit frees one entry. A
dictionary with deletions still compacts now and then, at a cost growing with its size,
so memos on a referee's path stay at `MAX_ENTRIES` or fewer (figures: bench/RESULTS.md,
"7 Wonders' production memo emptied whole when full").
"""

from __future__ import annotations

from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")

MAX_ENTRIES = 1 << 14
"""The largest memo (and `functools.lru_cache`) a game keeps on the referee's path: an
lru_cache at capacity also compacts its dictionary now and then."""


class Memo(dict[K, V]):
    """Values by key, at most `limit` of them, the oldest inserted evicted first (FIFO:
    the memos using it look up what was put in recently, e.g. a city's production of
    the turn before).

    A plain dict and a ring of its keys in insertion order: a full memo's `put` drops the
    key in the ring's next slot and takes that slot (a third cheaper than an OrderedDict's
    `popitem(last=False)`, measured; look-ups are a dict's). A key put again while present
    is also in an older slot, and leaves when that slot comes round: earlier than FIFO
    would say, never later, so the bound holds."""

    __slots__ = ("limit", "_ring", "_next")

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit
        self._ring: list[K | None] = [None] * limit
        self._next = 0

    def put(self, key: K, value: V) -> V:
        """Store `value` under `key` (evicting the oldest entry if full) and return it."""
        i = self._next
        old = self._ring[i]
        if old is not None:
            self.pop(old, None)
        self._ring[i] = key
        self[key] = value
        self._next = i + 1 if i + 1 < self.limit else 0
        return value

    def clear(self) -> None:
        super().clear()
        self._ring = [None] * self.limit
        self._next = 0
