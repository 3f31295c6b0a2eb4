"""The Arkadia catalog: grid, tent camps, castle lot and squares, castle pools, supplies,
the 7 building forms (with every rotation precomputed) and the 40 building cards.

Loaded once, at import, from `seeds/arkadia/board.json` and `buildings.json` (the one
permitted read under `games/`: immutable, versioned data whose hash goes into every log).
Every block of the data keeps the status mark of docs/rules/arkadia.md (§0); the building
shapes and counts, the seal colour of each card, the tent-camp cells and the printed-seal
order of the castle squares are placeholders [P] that can be replaced without code changes.
A malformed file fails loudly, naming the file and the row.
"""

from __future__ import annotations

import msgspec

from games import seed_files
from games.seed_files import CatalogError

SEALS = ("red", "olive", "black", "silver")
"""The four families in their fixed order (§2): vectors of seals and pools follow it."""
LETTER = {"red": "r", "olive": "o", "black": "b", "silver": "s"}
ORIENTATIONS = ("landscape", "portrait")

Cell = tuple[int, int]
Shape = tuple[Cell, ...]


class _Row(msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True):
    pass


class Family(_Row):
    id: str
    family: str
    de: str


class _Families(_Row):
    status: str
    rows: tuple[Family, ...]


class _Colours(_Row):
    status: str
    seat_order: tuple[str, ...]


class _Grid(_Row):
    width: int
    height: int
    status: str


class _Tents(_Row):
    status: str
    note: str
    cells: tuple[Cell, ...]


class LotPosition(_Row):
    x: int
    y: int
    orientation: str
    status: str = ""


class _Area(_Row):
    x_min: int
    x_max: int
    y_min: int
    y_max: int
    status: str
    note: str


class _Lot(_Row):
    width: int
    height: int
    status: str
    default: LotPosition
    random_area: _Area


class Square(_Row):
    """One of the 10 castle squares: its printed seal (None: unmarked) and where it is drawn."""

    index: int
    offset: Cell
    printed: str | None


class _Squares(_Row):
    status: str
    courtyard: tuple[Cell, ...]
    squares: tuple[Square, ...]


class _Pieces(_Row):
    status: str
    pools: dict[str, dict[str, int]]
    floors: int


class _Supplies(_Row):
    status: str
    workers_per_colour: int
    start_workers: int
    neutral_workers: int
    banners: int
    banner_workers: int
    hand_size: int
    display_size: int


class _BoardFile(_Row):
    source: str
    schema: str
    families: _Families
    colours: _Colours
    grid: _Grid
    tent_camps: _Tents
    castle_lot: _Lot
    castle_squares: _Squares
    castle_pieces: _Pieces
    supplies: _Supplies


class Form(_Row):
    """A building form (§2.1): its shape in the data's orientation and its tile count [P]."""

    id: str
    name: str
    de: str
    cells: tuple[Cell, ...]
    tiles: int
    status: str


class Card(_Row):
    """A building card: a form and a family seal (§2) [P colour]."""

    id: str
    form: str
    seal: str
    status: str


class _BuildingFile(_Row):
    source: str
    schema: str
    status: str
    mirror_allowed: bool
    mirror_status: str
    forms: tuple[Form, ...]
    cards: tuple[Card, ...]




def normalise(cells) -> Shape:
    """Shift cells so the smallest x and y are 0, sorted in reading order (row, then column)."""
    mx = min(x for x, _ in cells)
    my = min(y for _, y in cells)
    return tuple(sorted(((x - mx, y - my) for x, y in cells), key=lambda c: (c[1], c[0])))


def rotate(cells) -> Shape:
    """90 degrees clockwise in screen coordinates: (dx, dy) -> (-dy, dx), then normalise (§3)."""
    return normalise([(-y, x) for x, y in cells])


def mirror(cells) -> Shape:
    """Mirror left-right: (dx, dy) -> (-dx, dy), then normalise (only if mirroring is allowed)."""
    return normalise([(-x, y) for x, y in cells])


def relative(shape: Shape) -> Shape:
    """The shape relative to its anchor, the first covered cell in reading order: the
    anchor is (0, 0); every other cell lies below it or to its right on the same row."""
    ax, ay = shape[0]
    return tuple((x - ax, y - ay) for x, y in shape)


def orientations(cells) -> tuple[Shape, ...]:
    """The 8 orientations of a form, indexed by rotation number: r = 0..3 are r quarter
    turns clockwise of the data shape; r = 4..7 mirror it first, then turn r - 4 times.
    Each is given relative to its anchor (see `relative`)."""
    out = []
    for start in (normalise(cells), mirror(cells)):
        s = start
        for _ in range(4):
            out.append(relative(s))
            s = rotate(s)
    return tuple(out)


class Catalog:
    """The validated catalog with the lookups the rules need."""

    def __init__(self, board: _BoardFile, buildings: _BuildingFile, digest: str) -> None:
        self.hash = digest
        self.families = board.families.rows
        self.colours = board.colours.seat_order
        self.width = board.grid.width
        self.height = board.grid.height
        self.tents: tuple[Cell, ...] = tuple(sorted(board.tent_camps.cells, key=lambda c: (c[1], c[0])))
        self.lot_size = (board.castle_lot.width, board.castle_lot.height)
        self.default_lot = board.castle_lot.default
        self.random_area = board.castle_lot.random_area
        self.squares = tuple(sorted(board.castle_squares.squares, key=lambda s: s.index))
        self.printed: tuple[str | None, ...] = tuple(s.printed for s in self.squares)
        self.courtyard = board.castle_squares.courtyard
        self.floors = board.castle_pieces.floors
        self.pools: tuple[tuple[int, ...], ...] = tuple(
            tuple(board.castle_pieces.pools[f"floor{k}"][c] for c in SEALS) for k in range(1, self.floors + 1)
        )
        sup = board.supplies
        self.workers_per_colour = sup.workers_per_colour
        self.start_workers = sup.start_workers
        self.neutral_workers = sup.neutral_workers
        self.banners = sup.banners
        self.banner_workers = sup.banner_workers
        self.hand_size = sup.hand_size
        self.display_size = sup.display_size
        self.mirror_allowed = buildings.mirror_allowed
        self.forms: dict[str, Form] = {f.id: f for f in buildings.forms}
        self.cards: dict[str, Card] = {c.id: c for c in buildings.cards}
        self.shapes: dict[str, tuple[Shape, ...]] = {f.id: orientations(f.cells) for f in buildings.forms}
        """form -> its 8 orientations relative to the anchor, by rotation number (precomputed)."""
        self.canonical: dict[str, tuple[int, ...]] = {
            fid: tuple(shapes.index(s) for s in shapes) for fid, shapes in self.shapes.items()
        }
        """form -> for each rotation number, the smallest one with the same footprint."""
        self.pieces_total = sum(sum(p) for p in self.pools)

    def rotations(self, form: str, mirror_allowed: bool) -> tuple[int, ...]:
        """The rotation numbers that give distinct footprints, canonical (smallest) first."""
        allowed = range(8 if mirror_allowed else 4)
        return tuple(r for r in allowed if self.canonical[form][r] == r)

    def key(self, card: str) -> tuple[str, str]:
        """How commands name a card: (form, seal). Cards with the same key are interchangeable."""
        c = self.cards[card]
        return c.form, c.seal


def _check(board: _BoardFile, b: _BuildingFile) -> None:
    bf, kf = "seeds/arkadia/board.json", "seeds/arkadia/buildings.json"
    if tuple(f.id for f in board.families.rows) != SEALS:
        raise CatalogError(f"{bf}: families must be {SEALS} in this order (§2)")
    if len(board.colours.seat_order) != 4 or len(set(board.colours.seat_order)) != 4:
        raise CatalogError(f"{bf}: colours: four distinct player colours (§2)")
    w, h = board.grid.width, board.grid.height
    if not (4 <= w <= 64 and 4 <= h <= 64):
        raise CatalogError(f"{bf}: grid: implausible size {w} x {h}")
    seen: set[Cell] = set()
    for i, (x, y) in enumerate(board.tent_camps.cells):
        if not (0 <= x < w and 0 <= y < h) or (x, y) in seen:
            raise CatalogError(f"{bf}: tent_camps.cells[{i}] {[x, y]} is off the grid or repeated")
        seen.add((x, y))
    lot = board.castle_lot
    if (lot.width, lot.height) != (4, 3):
        raise CatalogError(f"{bf}: castle_lot: the footprint is 4 x 3 (§3 [C])")
    d = lot.default
    if d.orientation not in ORIENTATIONS:
        raise CatalogError(f"{bf}: castle_lot.default: orientation must be one of {ORIENTATIONS}")
    sq = board.castle_squares.squares
    if sorted(s.index for s in sq) != list(range(10)):
        raise CatalogError(f"{bf}: castle_squares: indices 0..9 (§3: 10 castle squares)")
    for s in sq:
        if s.printed is not None and s.printed not in SEALS:
            raise CatalogError(f"{bf}: castle_squares[{s.index}]: unknown seal {s.printed!r}")
        if not (0 <= s.offset[0] < 4 and 0 <= s.offset[1] < 3):
            raise CatalogError(f"{bf}: castle_squares[{s.index}]: offset outside the 4 x 3 footprint")
    for c in SEALS:
        if sum(1 for s in sq if s.printed == c) != 2:
            raise CatalogError(f"{bf}: castle_squares: two printed {c} seals (§2 [C])")
    offsets = [s.offset for s in sq] + list(board.castle_squares.courtyard)
    if len(set(offsets)) != 12:
        raise CatalogError(f"{bf}: castle_squares: the squares and the courtyard tile the 12 lot cells")
    pools = board.castle_pieces.pools
    if sorted(pools) != ["floor1", "floor2", "floor3"] or board.castle_pieces.floors != 3:
        raise CatalogError(f"{bf}: castle_pieces: pools floor1..floor3 (§2)")
    for fl, pool in pools.items():
        if sorted(pool) != sorted(SEALS) or any(v < 0 for v in pool.values()):
            raise CatalogError(f"{bf}: castle_pieces.pools.{fl}: a count per family")
    if sum(pools["floor1"].values()) < 10 or sum(pools["floor2"].values()) < 10:
        raise CatalogError(f"{bf}: castle_pieces: floors 1 and 2 need at least 10 pieces each (§7.1)")
    sup = board.supplies
    if sup.start_workers + sup.banners * sup.banner_workers > sup.workers_per_colour:
        raise CatalogError(f"{bf}: supplies: start workers + banners x 2 exceed the workers of a colour (§5.3)")
    forms = {f.id for f in b.forms}
    if len(forms) != len(b.forms):
        raise CatalogError(f"{kf}: duplicate form id")
    for i, f in enumerate(b.forms):
        cells = set(f.cells)
        if not cells or len(cells) != len(f.cells) or any(x < 0 or y < 0 for x, y in cells):
            raise CatalogError(f"{kf}: forms[{i}] ({f.id}): cells must be distinct, non-negative and non-empty")
        if not _connected(cells):
            raise CatalogError(f"{kf}: forms[{i}] ({f.id}): a polyomino is orthogonally connected")
    ids: set[str] = set()
    for i, c in enumerate(b.cards):
        if c.id in ids:
            raise CatalogError(f"{kf}: cards[{i}]: duplicate id {c.id!r}")
        ids.add(c.id)
        if c.form not in forms:
            raise CatalogError(f"{kf}: cards[{i}] ({c.id}): unknown form {c.form!r}")
        if c.seal not in SEALS:
            raise CatalogError(f"{kf}: cards[{i}] ({c.id}): unknown seal {c.seal!r}")
    for f in b.forms:
        n = sum(1 for c in b.cards if c.form == f.id)
        if n != f.tiles:
            raise CatalogError(f"{kf}: form {f.id}: {f.tiles} tiles but {n} cards (one card per tile, §2)")


def _connected(cells: set[Cell]) -> bool:
    start = next(iter(cells))
    todo, seen = [start], {start}
    while todo:
        x, y = todo.pop()
        for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == cells


def load() -> Catalog:
    """Read and validate the seed files shipped in the `seeds` package."""
    raw = seed_files.read("arkadia", ("board.json", "buildings.json"))
    board = seed_files.decode("seeds/arkadia/board.json", raw["board.json"], _BoardFile)
    buildings = seed_files.decode("seeds/arkadia/buildings.json", raw["buildings.json"], _BuildingFile)
    _check(board, buildings)
    return Catalog(board, buildings, seed_files.digest(raw))


CATALOG = load()
CATALOG_HASH = CATALOG.hash
# Hashes of earlier seed files with today's rules data (only documentation fields changed;
# 2026-12-02: the `source` fields point to docs/rules/), for `verify` of older games.
EARLIER_HASHES: dict[str, str] = {
    "ae807b0ca62ece49e0394d8dd9f630bebb56edbd87b7fc53a5d05b2971b22d24": CATALOG_HASH,
}
