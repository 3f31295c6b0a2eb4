"""Castle pieces and seal values: docs/rules/arkadia.md §7.1, §7.2, §12.3 (worked example), §13 #14, #15."""

from __future__ import annotations

from games.arkadia import GAME
from games.arkadia.commands import PlaceCastlePiece
from games.arkadia.events import BuildingCompleted, CastlePiecePlaced, FloorCompleted
from games.arkadia.scoring import values

from .table import Table


def two_at_once() -> Table:
    """The position of test_completion's double completion: seat 2's worker on 10,5 will
    close both houses (two castle pieces owed)."""
    t = Table(players=3, hands={0: ["residential_house red", "residential_house olive"]})
    t.do(0, "build residential_house red 10,4 r0")
    t.do(0, "build residential_house olive 10,6 r0")
    t.do(0, "workers 0 own 10,3 11,3 12,4")
    t.do(1, "workers 1 own 10,7 11,7 12,6")
    t.do(2, "workers 0 own 11,5")
    t.turn_to(2)
    return t


def test_12_3_values_follow_the_top_of_each_square() -> None:
    t = Table(players=2)
    assert values(t.state.castle) == (2, 2, 2, 2)  # two printed squares each; 4 and 9 unmarked
    steps = [("olive", 9, (2, 3, 2, 2)), ("olive", 0, (1, 4, 2, 2)), ("black", 1, (1, 3, 3, 2)),
             ("silver", 4, (1, 3, 3, 3))]
    for colour, square, want in steps:
        t.castle((colour, square))
        assert values(t.state.castle) == want
        assert GAME.view(t.state, None).values == want
    shown = [s[-1] if s else p for s, p in zip(t.state.castle, GAME.view(t.state, None).printed)]
    assert shown == ["olive", "black", "black", "silver", "silver", "red", "olive", "black", "silver", "olive"]


def test_12_3_a_floor_2_piece_covers_the_piece_below() -> None:
    t = Table(players=2)
    t.castle(("olive", 9), ("olive", 0), ("black", 1), ("silver", 4))
    t.fill_floor(1)
    before = values(t.state.castle)
    assert t.state.castle[0] == ("olive",)
    t.castle(("red", 0))
    after = values(t.state.castle)
    assert (after[0] - before[0], after[1] - before[1]) == (1, -1)


def test_one_piece_per_completed_building_from_the_floor_1_pool() -> None:
    t = two_at_once()
    t.ok(2, "workers 1 own 10,5")
    assert t.state.owed == 2
    cmds = GAME.legal_commands(t.state, 2)
    assert len(cmds) == 4 * 10 and all(isinstance(c, PlaceCastlePiece) for c in cmds)
    out = t.ok(2, "castle silver 4")
    assert t.of(CastlePiecePlaced, out)[0].floor == 1
    assert t.state.pools[0] == (3, 3, 3, 2) and t.state.owed == 1
    assert t.act(2, "castle black 4").code == "square_not_free"
    t.ok(2, "castle black 9")
    assert values(t.state.castle) == (2, 2, 3, 3)


def test_castle_piece_rejections() -> None:
    t = two_at_once()
    assert t.act(2, "castle red 0").code == "no_castle_piece_owed"
    t.ok(2, "workers 1 own 10,5")
    assert t.act(2, "castle gold 0").code == "unknown_colour"
    assert t.act(2, "castle red 10").code == "unknown_square"
    assert t.act(2, "draw").code == "castle_piece_owed"
    assert t.act(2, "banner").code == "castle_piece_owed"
    assert t.act(2, "workers 0 own 12,5").code == "action_taken"


def test_an_empty_colour_in_the_pool_is_refused() -> None:
    t = two_at_once()
    t.castle(("red", 0), ("red", 1), ("red", 2))
    t.ok(2, "workers 1 own 10,5")
    assert t.act(2, "castle red 3").code == "piece_not_in_pool"


def test_a_full_floor_moves_its_leftovers_and_the_next_piece_goes_one_floor_up() -> None:
    """§7.1 steps 2, 3 and 6: the 10th floor-1 piece moves the 2 pieces left to the floor-3
    pool; the second piece of the same turn goes on top of a floor-1 piece."""
    t = two_at_once()
    t.castle(*[(c, sq) for c, sq in zip(["red", "red", "red", "olive", "olive", "olive", "black", "black", "black"],
                                        range(9))])
    t.ok(2, "workers 1 own 10,5")
    out = t.ok(2, "castle silver 9")
    (moved,) = t.of(FloorCompleted, out)
    assert moved.floor == 1 and moved.leftovers == ("silver", "silver")
    assert t.state.pools == ((0, 0, 0, 0), (3, 3, 3, 3), (1, 1, 1, 3))
    cmds = GAME.legal_commands(t.state, 2)
    assert {c.square for c in cmds} == set(range(10))
    out = t.ok(2, "castle red 9")
    assert t.of(CastlePiecePlaced, out)[0].floor == 2
    assert t.state.castle[9] == ("silver", "red")


def test_no_piece_is_owed_when_every_piece_is_placed() -> None:
    """§13 #14 [R]: the payout happens, no piece is placed."""
    t = two_at_once()
    t.fill_floor(1)
    t.fill_floor(2)
    t.fill_floor(3, 8)
    assert sum(len(s) for s in t.state.castle) == 28
    out = t.ok(2, "workers 1 own 10,5")
    assert [d.piece for d in t.of(BuildingCompleted, out)] == [False, False]
    assert t.state.owed == 0


def test_placing_owed_pieces_is_mandatory() -> None:
    """§13 #15 [R]: the turn cannot end while a piece is owed."""
    t = two_at_once()
    t.ok(2, "workers 1 own 10,5")
    assert t.act(2, "end").code == "castle_piece_owed"
    assert t.state.active == 2
