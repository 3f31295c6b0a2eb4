"""The card structure of 7 Wonders Duel: which positions are accessible (§4).

A card is accessible when no card still present overlaps it; every `present` mask play can
reach is precomputed per Age (a few hundred), so the hot paths look the answer up.
"""

from __future__ import annotations

from functools import lru_cache

from games.seven_wonders_duel.catalog import CATALOG


COVER = tuple(tuple(sum(1 << q for q in p.covered_by) for p in layout) for layout in CATALOG.layouts)
"""COVER[age-1][p]: bitmask of the positions that overlap position p (§4)."""
COVERS_MASK = tuple(tuple(sum(1 << q for q in p.covers) for p in layout) for layout in CATALOG.layouts)
"""COVERS_MASK[age-1][p]: bitmask of the positions that position p overlaps (§4)."""
FULL = (1 << 20) - 1


def accessible_mask(age: int, present: int) -> int:
    """Bitmask of the positions still holding a card with no card overlapping them (§4)."""
    cover = COVER[age - 1]
    mask = 0
    for p in range(20):
        if present >> p & 1 and not present & cover[p]:
            mask |= 1 << p
    return mask


@lru_cache(maxsize=1 << 12)


def bits(mask: int) -> tuple[int, ...]:
    """The positions of a bitmask, in increasing order."""
    return tuple(p for p in range(20) if mask >> p & 1)


def _reachable(age: int) -> dict[int, tuple[int, tuple[int, ...]]]:
    """Every `present` mask that play can reach in this age's structure (a few hundred:
    cards leave only once uncovered), with its accessible positions as a mask and a tuple."""
    table: dict[int, tuple[int, tuple[int, ...]]] = {}
    todo = [FULL]
    while todo:
        present = todo.pop()
        if present in table:
            continue
        mask = accessible_mask(age, present)
        table[present] = (mask, bits(mask))
        todo.extend(present & ~(1 << p) for p in table[present][1])
    return table


REACHABLE = tuple(_reachable(age) for age in (1, 2, 3))
"""REACHABLE[age-1][present]: (accessible mask, accessible positions), precomputed (§4)."""


def _access(age: int, present: int) -> tuple[int, tuple[int, ...]]:
    got = REACHABLE[age - 1].get(present)
    if got is None:  # a state built by hand (tests): compute it
        mask = accessible_mask(age, present)
        return mask, bits(mask)
    return got


def accessible(age: int, present: int) -> tuple[int, ...]:
    """Positions still holding a card with no card overlapping them (§4)."""
    return _access(age, present)[1]
