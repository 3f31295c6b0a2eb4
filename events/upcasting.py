"""The upcaster chain: old payloads, as raw dicts, brought up to the current schema.

A game's table maps `(tag, from_version)` to a plain function turning a v-dict into a
(v+1)-dict; `upcast` walks the chain. No registry and no magic: the tables are data the
games own (`games/<id>/upcasters.py`), and the log itself is never rewritten.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]


class UpcastError(LookupError):
    """A stored payload cannot be brought to the current version (a bug, not a rejection)."""


def upcast(
    raw: dict[str, Any],
    type: str,
    v: int,
    upcasters: Mapping[tuple[str, int], Upcaster],
    current: int,
) -> dict[str, Any]:
    """`raw` (a `type` payload at version `v`) after applying v -> v+1 -> ... -> `current`."""
    if v > current:
        raise UpcastError(
            f"{type!r} v{v} is newer than this code's v{current}: upgrade before reading this log"
        )
    if v < 1:
        raise UpcastError(f"{type!r} has invalid stored version v{v}")
    for step in range(v, current):
        fn = upcasters.get((type, step))
        if fn is None:
            raise UpcastError(
                f"no upcaster for {type!r} v{step} -> v{step + 1} "
                f"(needed to read v{v} as v{current}); add ({type!r}, {step}) to the game's table"
            )
        raw = fn(raw)
    return raw
