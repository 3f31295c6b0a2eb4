"""A named, versioned, deterministic random generator (no global random state).

`sha256-ctr/1`: the n-th 64-bit draw of stream `name` under seed `seed` is the first
8 bytes (big-endian) of SHA-256(seed || 0x00 || name || 0x00 || n as 8 bytes). Integers
in [0, k) use rejection sampling, so they are unbiased; shuffles are Fisher-Yates from
the last index down. The results are always written into events, so a log replays
without this code; the name and version are logged so anyone can re-derive a deal.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

RNG_NAME = "sha256-ctr/1"

T = TypeVar("T")
_LIMIT = 1 << 64


class Rng:
    """One named stream of draws derived from a seed."""

    __slots__ = ("_prefix", "_n")

    def __init__(self, seed: bytes, name: str) -> None:
        self._prefix = bytes(seed) + b"\x00" + name.encode() + b"\x00"
        self._n = 0

    def _next64(self) -> int:
        digest = hashlib.sha256(self._prefix + self._n.to_bytes(8, "big")).digest()
        self._n += 1
        return int.from_bytes(digest[:8], "big")

    def below(self, k: int) -> int:
        """A uniform integer in [0, k)."""
        if k <= 0:
            raise ValueError("below() needs k >= 1")
        cap = _LIMIT - (_LIMIT % k)
        while True:
            x = self._next64()
            if x < cap:
                return x % k

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A shuffled copy of `items` (Fisher-Yates)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """`k` distinct items, in draw order."""
        return self.shuffled(items)[:k]


def seed_commitment(seed: bytes) -> str:
    """The public commitment to a seed: hex SHA-256 of its bytes."""
    return hashlib.sha256(bytes(seed)).hexdigest()
