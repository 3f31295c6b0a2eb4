"""The notation's language for one seat now, for completion (games/completion.py).

`legal_commands` lists canonical choices only (README, "legal_commands"); the notation
names more, all of which `decide` accepts when valid:

* a building in any rotation that gives the same footprint (`r2` of a symmetric form);
* any set of workers on a building's vacant neighbours, own and neutral, in reading order;
* any banner exchange of up to the seals held, per family.

Worker sets and exchanges grow combinatorially, so each kind is listed smallest first up to
`CAP` entries (the canonical ones of `legal_commands` always). Reads the seat's own screen
and the public board only.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, islice, product

from msgspec.structs import replace

from games.arkadia.board import cells_of, ring
from games.arkadia.catalog import CATALOG
from games.arkadia.commands import Command_, PlaceBuilding, PlaceWorkers, UseBanner
from games.arkadia.rules import legal_commands, occupancy
from games.arkadia.state import State

CAP = 100
"""At most this many worker sets per building, and exchanges, beyond `legal_commands`."""


def candidates(state: State, seat: int) -> Iterator[Command_]:
    """`legal_commands`, then the other rotations, worker sets and exchanges (unchecked)."""
    base = legal_commands(state, seat)
    yield from base
    limit = 8 if state.options.mirror_allowed else 4
    workers = False
    for c in base:
        if isinstance(c, PlaceBuilding):
            same = CATALOG.canonical[c.form]
            yield from (replace(c, rotation=r) for r in range(limit) if r != c.rotation and same[r] == c.rotation)
        elif isinstance(c, PlaceWorkers):
            workers = True
        elif isinstance(c, UseBanner):
            held = state.screens[seat].seals
            counts = sorted(product(*(range(k + 1) for k in held)), key=sum)
            yield from islice((UseBanner(red=a, olive=b, black=c_, silver=d) for a, b, c_, d in counts), CAP)
            break
    if workers:
        yield from _worker_sets(state, seat)


def _worker_sets(state: State, seat: int) -> Iterator[PlaceWorkers]:
    sc = state.screens[seat]
    occ = occupancy(state).all
    for b in state.buildings:
        if b.completed:
            continue
        cells = cells_of(ring(b.cells) & ~occ)
        yield from islice(_sets(b.id, cells, sc.workers, sc.neutral), CAP)


def _sets(building: int, cells: tuple[tuple[int, int], ...], own: int, neutral: int) -> Iterator[PlaceWorkers]:
    """Every own/neutral split of every set of vacant neighbours, fewest workers first."""
    for size in range(1, min(len(cells), own + neutral) + 1):
        for chosen in combinations(cells, size):
            for n in range(max(0, size - own), min(size, neutral) + 1):
                for mine in combinations(range(size), size - n):
                    yield PlaceWorkers(building=building, own=tuple(chosen[i] for i in mine),
                                       neutral=tuple(chosen[i] for i in range(size) if i not in mine))
