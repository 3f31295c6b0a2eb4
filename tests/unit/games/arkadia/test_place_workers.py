"""Action B, placing workers: docs/rules/arkadia.md §5.2, §13 #6, #8."""

from __future__ import annotations

from games.arkadia import GAME
from games.arkadia.commands import PlaceWorkers
from games.arkadia.events import BuildingCompleted, CardTaken, WorkersPlaced

from .table import Table


def board() -> Table:
    """Yellow's red house on 10,5-11,5 next to the lot; orange's olive house on 8,2-8,3 (it
    covered the tent camp 8,2, so orange holds a neutral worker); yellow to act."""
    t = Table(players=3, hands={0: ["residential_house red"], 1: ["residential_house olive"]})
    t.do(0, "build residential_house red 10,5 r0")
    t.do(1, "build residential_house olive 8,2 r1")
    assert t.screen(1).neutral == 1
    t.turn_to(0)
    return t


def test_any_number_of_workers_next_to_one_building() -> None:
    t = board()
    out = t.ok(0, "workers 0 own 11,4 10,4")
    placed = t.of(WorkersPlaced, out)[0]
    assert placed.own == ((10, 4), (11, 4)) and placed.neutral == ()
    assert t.screen(0).workers == 1
    assert not t.of(CardTaken, out)  # §13 #21: no refill after action B


def test_own_and_neutral_workers_together() -> None:
    t = board()
    t.turn_to(1)
    out = t.ok(1, "workers 0 own 10,4 neutral 12,5")
    assert t.of(WorkersPlaced, out)[0].neutral == ((12, 5),)
    assert (t.screen(1).workers, t.screen(1).neutral) == (2, 0)


def test_at_least_one_worker() -> None:
    assert board().act(0, "workers 0").code == "no_workers"


def test_every_worker_must_touch_the_chosen_building() -> None:
    t = board()
    assert t.act(0, "workers 0 own 10,4 9,3").code == "not_adjacent_to_building"  # 9,3 touches the olive house only
    assert t.act(0, "workers 1 own 10,4").code == "not_adjacent_to_building"


def test_workers_go_on_vacant_cells_on_the_grid() -> None:
    t = board()
    assert t.act(0, "workers 0 own 9,5").code == "on_castle_lot"
    t.do(0, "workers 0 own 10,4")
    t.turn_to(0)
    assert t.act(0, "workers 0 own 10,4").code == "cell_occupied"
    assert t.act(0, "workers 0 own 10,4 10,4").code == "duplicate_cell"
    assert t.act(0, "workers 0 own 11,5").code == "cell_occupied"  # the building itself
    assert t.act(0, "workers 1 own 8,-1").code == "off_grid"


def test_only_workers_held_behind_the_screen() -> None:
    t = board()
    assert t.act(0, "workers 0 own 10,4 11,4 12,5 10,6").code == "not_enough_workers"
    assert t.act(0, "workers 0 neutral 10,4").code == "not_enough_neutral_workers"


def test_the_castle_lot_and_unknown_buildings_are_no_target() -> None:
    """§13 #6 [R]: action B may not aim at the castle lot (it has no building number)."""
    t = board()
    assert t.act(0, "workers 7 own 10,4").code == "unknown_building"
    assert GAME.decide(t.state, 0, PlaceWorkers(building=-1, own=((10, 4),))).code == "unknown_building"


def test_a_completed_building_is_no_target() -> None:
    t = board()
    t.do(0, "workers 0 own 10,4 11,4 12,5")
    t.turn_to(2)
    out = t.ok(2, "workers 0 own 10,6 11,6")
    assert t.of(BuildingCompleted, out)
    t.ok(2, "castle red 0")
    t.ok(2, "end")
    t.turn_to(2)
    assert t.act(2, "workers 0 own 12,4").code == "building_completed"


def test_a_worker_may_touch_other_buildings_too_and_a_tent_camp_gives_nothing() -> None:
    """§5.2 step 2; §5.2 step 4 / §13 #8: a worker on a tent camp earns nothing and occupies it."""
    t = Table(players=2, hands={0: ["residential_house red", "residential_house olive"]})
    t.do(0, "build residential_house red 10,5 r0")
    t.do(0, "build residential_house olive 10,3 r1")  # 10,3-10,4 touches the red house
    t.turn_to(0)
    out = t.ok(0, "workers 0 own 11,4")  # touches both houses
    assert t.of(WorkersPlaced, out)


def test_legal_worker_commands_are_canonical_and_accepted() -> None:
    t = board()
    cmds = [c for c in GAME.legal_commands(t.state, 0) if isinstance(c, PlaceWorkers)]
    assert PlaceWorkers(building=0, own=((10, 4),)) in cmds
    fills = [c for c in cmds if len(c.own) + len(c.neutral) > 1]
    assert not fills  # 5 vacant neighbours, 3 workers: no fill is possible
    for c in cmds:
        assert isinstance(GAME.decide(t.state, 0, c), list)
