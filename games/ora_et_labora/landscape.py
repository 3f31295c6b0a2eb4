"""A player's landscape (§3): spaces with terrain, forest and moor cards, what stands on
them, buying districts and plots, and orthogonal adjacency.

Coordinates of §3.1: rows grow downwards (the heartland is rows 0 and 1; districts add rows
above or below), columns are -2 water, -1 coast (coast plots), 0..4 the central column
(heartland and districts), 5 hillside and 6 mountain (mountain plots). A mountain plot's
mountain is one space spanning both of its rows; it is stored at the plot's top row and is
adjacent only to its plot's two hillsides (§3.4).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

import msgspec

from games.ora_et_labora.catalog import CATALOG

Cell = tuple[int, int]
Card = Literal["", "forest", "moor"]
DistrictSide = Literal["hills", "plains"]
PlotSide = Literal["coast", "mountain"]

WATER_COL, COAST_COL, HILL_COL, MOUNTAIN_COL = -2, -1, 5, 6
DEFAULT_TERRAINS = ("coast", "plains", "hillside")  # §3: where most buildings may stand


class Space(msgspec.Struct, frozen=True, array_like=True):
    """One space: its place, terrain, forest or moor card, and the building or settlement
    on it (a catalog id, "" if none)."""

    row: int
    col: int
    terrain: str
    card: Card = ""
    built: str = ""

    @property
    def cell(self) -> Cell:
        return (self.row, self.col)

    @property
    def empty(self) -> bool:
        """Nothing on it: no card, no building, no settlement (§7.3)."""
        return not self.card and not self.built


class Landscape(msgspec.Struct, frozen=True, kw_only=True):
    """Every space of one player's landscape, sorted by (row, col), and the landscape cards
    bought: district rows, and the top rows of coast and mountain plots."""

    spaces: tuple[Space, ...]
    districts: tuple[int, ...] = ()
    coast_plots: tuple[int, ...] = ()
    mountain_plots: tuple[int, ...] = ()

    def space(self, cell: Cell) -> Space | None:
        for s in self.spaces:
            if s.row == cell[0] and s.col == cell[1]:
                return s
        return None

    @property
    def central_rows(self) -> tuple[int, int]:
        """The top and bottom rows of the central column (heartland and districts)."""
        rows = (0, 1, *self.districts)
        return min(rows), max(rows)


def _card(text: str | None) -> tuple[Card, str]:
    """A catalog cell's card: ("forest"|"moor", "") or ("", building id)."""
    if not text:
        return "", ""
    if text in ("forest", "moor"):
        return text, ""  # type: ignore[return-value]
    return "", text.split(" ")[0]


def heartland(*, short: bool = False, neutral: bool = False) -> Landscape:
    """A player's heartland at setup (§3.1): 3 forests, 2 moors, the three start buildings.

    `short`: the short 3-4 player game removes the moor at (0,0) and the forest at (0,1).
    `neutral`: the solo game's neutral player has no forest or moor cards at all, and the
    Builders' Market (G13) stands at (0,0) (§13.4)."""
    removed = {(c.row, c.col) for c in CATALOG.game.heartland.short_game_removed} if short else set()
    spaces = []
    for c in CATALOG.game.heartland.cells:
        card, built = _card(c.card)
        if neutral or (c.row, c.col) in removed:
            card = ""
        if neutral and (c.row, c.col) == (0, 0):
            built = "G13"
        spaces.append(Space(c.row, c.col, c.terrain, card, built))
    return Landscape(spaces=tuple(sorted(spaces, key=lambda s: (s.row, s.col))))


# -- buying landscapes (§3.2, §3.3) --------------------------------------------------------

def district_rows(land: Landscape) -> tuple[int, int]:
    """The two rows a new district may take: directly above or below the central column (§3.2)."""
    top, bottom = land.central_rows
    return top - 1, bottom + 1


def district_spaces(row: int, side: DistrictSide) -> list[Space]:
    """The five spaces of a district placed at `row` with `side` up (§3.2)."""
    out = []
    for c in CATALOG.game.landscapes.districts.sides[side]:
        card, _ = _card(c.card)
        out.append(Space(row, c.col, c.terrain, card))
    return out


def plot_rows(land: Landscape, side: PlotSide) -> list[int]:
    """The top rows where a plot of `side` may be placed (§3.3): its two rows free on that
    side, and connected — a coast (hillside) space next to a central-column space, or to the
    coast (hillside) space of another plot of that side directly above or below."""
    taken = land.coast_plots if side == "coast" else land.mountain_plots
    occupied = {r for t in taken for r in (t, t + 1)}
    top, bottom = land.central_rows
    lo = min([top, *taken]) - 2
    hi = max([bottom, *(t + 1 for t in taken)]) + 1
    out = []
    for r in range(lo, hi + 1):
        if r in occupied or r + 1 in occupied:
            continue
        beside_central = top <= r <= bottom or top <= r + 1 <= bottom
        beside_plot = (r - 1) in occupied or (r + 2) in occupied
        if beside_central or beside_plot:
            out.append(r)
    return out


def plot_spaces(row: int, side: PlotSide) -> list[Space]:
    """The spaces of a plot with top row `row` (§3.3): coast side two water and two coast
    spaces; mountain side two hillsides and one mountain (stored at the top row)."""
    out = []
    for c in CATALOG.game.landscapes.plots.sides[side].cells:
        rows = [row] if c.single_space else [row + r for r in c.rows]
        out += [Space(r, c.col, c.terrain) for r in rows]
    return out


def with_district(land: Landscape, row: int, side: DistrictSide) -> Landscape:
    spaces = tuple(sorted((*land.spaces, *district_spaces(row, side)), key=lambda s: (s.row, s.col)))
    return msgspec.structs.replace(land, spaces=spaces, districts=(*land.districts, row))


def with_plot(land: Landscape, row: int, side: PlotSide) -> Landscape:
    spaces = tuple(sorted((*land.spaces, *plot_spaces(row, side)), key=lambda s: (s.row, s.col)))
    if side == "coast":
        return msgspec.structs.replace(land, spaces=spaces, coast_plots=(*land.coast_plots, row))
    return msgspec.structs.replace(land, spaces=spaces, mountain_plots=(*land.mountain_plots, row))


def with_space(land: Landscape, space: Space) -> Landscape:
    """`land` with the space at `space`'s cell replaced."""
    return msgspec.structs.replace(land, spaces=tuple(space if s.cell == space.cell else s for s in land.spaces))


# -- adjacency (§3.4) -------------------------------------------------------------------------

def _mountain_top(land: Landscape, row: int) -> int | None:
    """The top row of the mountain plot covering `row`, if any."""
    for t in land.mountain_plots:
        if t <= row <= t + 1:
            return t
    return None


def neighbours(land: Landscape, cell: Cell) -> Iterator[Space]:
    """The spaces orthogonally adjacent to `cell` (§3.4), each once."""
    r, c = cell
    if c == MOUNTAIN_COL:  # a mountain touches only its own plot's two hillsides
        for rr in (r, r + 1):
            s = land.space((rr, HILL_COL))
            if s is not None:
                yield s
        return
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        rr, cc = r + dr, c + dc
        if cc == MOUNTAIN_COL:
            continue  # reached from a hillside below
        s = land.space((rr, cc))
        if s is not None:
            yield s
    if c == HILL_COL:
        t = _mountain_top(land, r)
        if t is not None:
            s = land.space((t, MOUNTAIN_COL))
            if s is not None:
                yield s


def spaces_with(land: Landscape, card: Card) -> list[Space]:
    return [s for s in land.spaces if s.card == card]
