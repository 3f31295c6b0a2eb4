"""The board model (§3): the grid, its coordinates, the castle lot, tent camps and the
footprints of building tiles, as integer bit masks so placement and completion tests are
a few AND operations.

Coordinates: a cell is `(x, y)`, `x` the column 0..15 from left to right, `y` the row
0..11 from top to bottom (README.md has a diagram). Bit `y * WIDTH + x` of a mask stands
for cell (x, y). Adjacency is orthogonal only; a neighbour off the grid counts as
occupied (§3, §6), so a building's `ring` holds only its on-grid neighbours.

A placement is named by form, rotation and anchor: the anchor is the building's first
covered cell in reading order (topmost row, then leftmost), see `catalog.relative`.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from games.arkadia.catalog import CATALOG, Cell

WIDTH = CATALOG.width
HEIGHT = CATALOG.height
ALL = (1 << (WIDTH * HEIGHT)) - 1


def on_grid(x: int, y: int) -> bool:
    return 0 <= x < WIDTH and 0 <= y < HEIGHT


def bit(x: int, y: int) -> int:
    """The mask of the single cell (x, y) (on the grid)."""
    return 1 << (y * WIDTH + x)


def neighbours(x: int, y: int) -> tuple[Cell, ...]:
    """The orthogonal neighbours of (x, y) that lie on the grid (§3)."""
    return tuple((a, b) for a, b in ((x, y - 1), (x - 1, y), (x + 1, y), (x, y + 1)) if on_grid(a, b))


@cache
def mask(cells: tuple[Cell, ...]) -> int:
    """The mask of on-grid cells."""
    m = 0
    for x, y in cells:
        m |= bit(x, y)
    return m


@cache
def ring(cells: tuple[Cell, ...]) -> int:
    """The on-grid cells orthogonally adjacent to `cells`, excluding `cells` themselves."""
    inside = mask(cells)
    m = 0
    for x, y in cells:
        for n in neighbours(x, y):
            m |= bit(*n)
    return m & ~inside


def cells_of(m: int) -> tuple[Cell, ...]:
    """The cells of a mask, in reading order."""
    out = []
    while m:
        low = m & -m
        i = low.bit_length() - 1
        out.append((i % WIDTH, i // WIDTH))
        m ^= low
    return tuple(out)


TENTS = mask(CATALOG.tents)
"""The printed tent camps [P: data]."""


def lot_size(orientation: str) -> tuple[int, int]:
    """(width, height) of the lot: landscape 4 x 3, portrait 3 x 4 (§3)."""
    w, h = CATALOG.lot_size
    return (w, h) if orientation == "landscape" else (h, w)


def lot_cells(x: int, y: int, orientation: str) -> tuple[Cell, ...]:
    """The 12 cells the castle lot covers, anchored at its top-left cell (§3)."""
    w, h = lot_size(orientation)
    return tuple((x + dx, y + dy) for dy in range(h) for dx in range(w))


def lot_problem(x: int, y: int, orientation: str) -> str | None:
    """Why a lot position is invalid (§3, §4: fully on the grid, covering no tent camp), or None."""
    if orientation not in ("landscape", "portrait"):
        return f"orientation must be landscape or portrait, not {orientation!r}"
    cells = lot_cells(x, y, orientation)
    if not all(on_grid(a, b) for a, b in cells):
        return f"the lot at ({x}, {y}) {orientation} leaves the grid"
    if mask(cells) & TENTS:
        return f"the lot at ({x}, {y}) {orientation} covers a tent camp"
    return None


def random_lots() -> tuple[tuple[int, int, str], ...]:
    """The positions a seeded setup draws from: valid, and inside the data's central area [P]."""
    a = CATALOG.random_area
    out = []
    for o in ("landscape", "portrait"):
        w, h = lot_size(o)
        for y in range(a.y_min, a.y_max - h + 2):
            for x in range(a.x_min, a.x_max - w + 2):
                if lot_problem(x, y, o) is None:
                    out.append((x, y, o))
    return tuple(out)


def square_cells(x: int, y: int, orientation: str) -> tuple[Cell, ...]:
    """Where each castle square 0..9 is drawn [P: display only]. A portrait lot shows the
    landscape layout turned a quarter clockwise."""
    out = []
    for s in CATALOG.squares:
        dx, dy = s.offset
        if orientation == "portrait":
            dx, dy = CATALOG.lot_size[1] - 1 - dy, dx
        out.append((x + dx, y + dy))
    return tuple(out)


def footprint(form: str, rotation: int, x: int, y: int) -> tuple[Cell, ...] | None:
    """The cells a tile covers with its anchor at (x, y), in reading order; None when a cell
    would leave the grid. `rotation` must be 0..7 (the caller checks it is allowed)."""
    cells = tuple((x + dx, y + dy) for dx, dy in CATALOG.shapes[form][rotation])
    if not all(on_grid(a, b) for a, b in cells):
        return None
    return cells


class Placement(NamedTuple):
    """One footprint of a form on the grid: rotation, anchor, cells and their masks."""

    rotation: int
    anchor: Cell
    cells: tuple[Cell, ...]
    mask: int
    ring: int


@cache
def placements(form: str, mirror_allowed: bool) -> tuple[Placement, ...]:
    """Every distinct on-grid footprint of `form`: canonical rotations in increasing order,
    then anchors in reading order. Identical footprints are listed once (§3)."""
    out = []
    for r in CATALOG.rotations(form, mirror_allowed):
        for y in range(HEIGHT):
            for x in range(WIDTH):
                cells = footprint(form, r, x, y)
                if cells is not None:
                    out.append(Placement(r, (x, y), cells, mask(cells), ring(cells)))
    return tuple(out)
