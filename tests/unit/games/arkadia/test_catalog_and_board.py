"""The data and the board model: docs/rules/arkadia.md §2, §2.1, §3, §4, §15 (placeholders marked)."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from games.arkadia.board import (
    ALL,
    TENTS,
    cells_of,
    footprint,
    lot_cells,
    lot_problem,
    placements,
    random_lots,
    ring,
    square_cells,
)
from games.arkadia.catalog import CATALOG, CATALOG_HASH, SEALS

PINNED_HASH = "3c5ad7ced7b447723591cbe30e87e53872e59b3167f76e7130364a78715d7c04"


def _raw(name: str) -> dict:
    return json.loads(resources.files("seeds").joinpath("arkadia").joinpath(name).read_text())


def test_forty_cards_one_per_tile_ten_per_family() -> None:
    """§2: 40 cards, one card per tile, 7 forms; [P] 10 cards per family."""
    assert len(CATALOG.cards) == 40 and len(CATALOG.forms) == 7
    for f in CATALOG.forms.values():
        assert sum(1 for c in CATALOG.cards.values() if c.form == f.id) == f.tiles
    for s in SEALS:
        assert sum(1 for c in CATALOG.cards.values() if c.seal == s) == 10


def test_placeholders_keep_their_marks_next_to_the_data() -> None:
    """§15: shapes and counts, card colours, tent camps and the printed-seal order are [P]."""
    board, buildings = _raw("board.json"), _raw("buildings.json")
    assert buildings["status"].startswith("placeholder")
    assert all(f["status"].startswith("placeholder") for f in buildings["forms"])
    assert all(c["status"].startswith("placeholder") for c in buildings["cards"])
    assert board["tent_camps"]["status"] == "placeholder"
    assert board["castle_squares"]["status"].startswith("placeholder")
    assert board["castle_lot"]["random_area"]["status"] == "placeholder"
    assert buildings["mirror_status"].startswith("recommended")


def test_castle_data() -> None:
    """§2, §7: 10 squares, two printed seals per family and two unmarked; 28 pieces, 7 per family."""
    assert len(CATALOG.printed) == 10
    assert all(CATALOG.printed.count(s) == 2 for s in SEALS) and CATALOG.printed.count(None) == 2
    assert CATALOG.pieces_total == 28
    assert [sum(p[i] for p in CATALOG.pools) for i in range(4)] == [7, 7, 7, 7]
    assert CATALOG.pools == ((3, 3, 3, 3), (3, 3, 3, 3), (1, 1, 1, 1))


def test_supplies() -> None:
    """§2, §4, §5.3: 3 start workers + 4 banners x 2 = 11 per colour; 24 neutral; hand 4, display 3."""
    assert CATALOG.start_workers + CATALOG.banners * CATALOG.banner_workers == CATALOG.workers_per_colour == 11
    assert (CATALOG.neutral_workers, CATALOG.hand_size, CATALOG.display_size) == (24, 4, 3)


def test_catalog_hash_is_pinned() -> None:
    """A data edit is a visible, deliberate change: update this hash with the data."""
    assert CATALOG_HASH == PINNED_HASH


@pytest.mark.parametrize("form,distinct,mirrored", [
    ("residential_house", 2, 2), ("farm", 4, 4), ("tavern", 2, 2), ("mill", 1, 1),
    ("smithy", 4, 4), ("trade_centre", 4, 8), ("monastery", 2, 4),
])
def test_rotations_are_precomputed_and_deduplicated(form: str, distinct: int, mirrored: int) -> None:
    """§2.1, §3: equal footprints are one; only the L and S tetrominoes gain by mirroring."""
    assert len(CATALOG.rotations(form, False)) == distinct
    assert len(CATALOG.rotations(form, True)) == mirrored
    assert CATALOG.rotations(form, False)[0] == 0


def test_coordinates_and_the_anchor() -> None:
    """§3: x is the column from the left, y the row from the top; the anchor is the first
    covered cell in reading order; a quarter turn clockwise maps (dx, dy) to (-dy, dx)."""
    assert footprint("farm", 0, 10, 6) == ((10, 6), (10, 7), (11, 7))  # #. / ##
    assert footprint("farm", 1, 10, 6) == ((10, 6), (11, 6), (10, 7))  # ## / #.
    assert footprint("farm", 2, 10, 6) == ((10, 6), (11, 6), (11, 7))  # ## / .#
    assert footprint("farm", 3, 10, 6) == ((10, 6), (9, 7), (10, 7))  # .# / ##
    assert footprint("monastery", 0, 5, 5) == ((5, 5), (6, 5), (4, 6), (5, 6))  # anchor not the box corner
    assert footprint("tavern", 0, 14, 0) is None


def test_rings_hold_only_on_grid_neighbours() -> None:
    """§3: a neighbour off the grid counts as occupied, so it never needs filling."""
    assert cells_of(ring(((0, 0),))) == ((1, 0), (0, 1))
    assert cells_of(ring(((10, 5), (11, 5)))) == ((10, 4), (11, 4), (9, 5), (12, 5), (10, 6), (11, 6))


def test_castle_lot_positions() -> None:
    """§3, §4: the lot lies fully on the grid and covers no tent camp; the default is [6,4]
    landscape (x 6-9, y 4-6); seeded setups draw among the central positions [P]."""
    assert lot_cells(6, 4, "landscape")[0] == (6, 4) and lot_cells(6, 4, "landscape")[-1] == (9, 6)
    assert lot_cells(6, 4, "portrait")[-1] == (8, 7)
    assert lot_problem(6, 4, "landscape") is None
    assert "leaves the grid" in lot_problem(13, 4, "landscape")
    assert "tent camp" in lot_problem(7, 0, "landscape")
    assert "orientation" in lot_problem(6, 4, "sideways")
    spots = random_lots()
    assert len(spots) == 38 and (6, 4, "landscape") in spots
    assert all(lot_problem(*s) is None for s in spots)


def test_castle_squares_are_drawn_on_the_lot_perimeter() -> None:
    """§3 [P] display only: squares 0-9 clockwise from the top-left; a portrait lot turned."""
    cells = square_cells(6, 4, "landscape")
    assert cells[0] == (6, 4) and cells[3] == (9, 4) and cells[5] == (9, 6) and cells[9] == (6, 5)
    assert set(square_cells(6, 4, "portrait")) <= set(lot_cells(6, 4, "portrait"))
    assert len(set(square_cells(6, 4, "portrait"))) == 10


def test_placements_list_every_distinct_footprint_once() -> None:
    every = placements("residential_house", False)
    assert len(every) == 15 * 12 + 16 * 11
    assert len({p.mask for p in every}) == len(every)
    assert all(p.mask & ALL == p.mask for p in every)
    assert TENTS.bit_count() == 20
