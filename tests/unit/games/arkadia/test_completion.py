"""Completion and payout: docs/rules/arkadia.md §6, §12.2 (worked example), §13 #1-#5."""

from __future__ import annotations

from games.arkadia import GAME
from games.arkadia.events import BuildingCompleted, TurnEnded

from .table import Table


def example_12_2() -> Table:
    """§12.2 with yellow = seat 0, orange = seat 1, green = seat 2: a red house on
    10,5-11,5; yellow workers on 10,4 and 11,4, a neutral worker on 12,5 (orange's, from
    the tent camp under its house at 8,2), a green worker on 10,6; green to act."""
    t = Table(players=3, hands={0: ["residential_house red"], 1: ["residential_house olive"]})
    t.do(0, "build residential_house red 10,5 r0")
    t.do(1, "build residential_house olive 8,2 r1")
    t.do(2, "workers 0 own 10,6")
    t.do(0, "workers 0 own 10,4 11,4")
    t.do(1, "workers 0 neutral 12,5")
    t.turn_to(2)
    return t


def test_12_2_the_last_neighbour_completes_the_house() -> None:
    t = example_12_2()
    before = [t.screen(s).seals for s in range(3)]
    out = t.ok(2, "workers 0 own 11,6")
    done = t.of(BuildingCompleted, out)
    assert len(done) == 1
    assert done[0].payouts == (2, 0, 2) and done[0].token == 2 and done[0].piece
    assert before == [(0, 0, 0, 0)] * 3
    assert t.screen(0).seals == (2, 0, 0, 0)  # yellow: 2 workers -> 2 red
    assert t.screen(2).seals == (3, 0, 0, 0)  # green: 2 workers + the token -> 3 red
    assert t.screen(1).seals == (0, 0, 0, 0)  # the neutral worker earns nothing
    assert t.state.buildings[0].completed
    # green places 1 castle piece, then may use a banner
    assert GAME.legal_commands(t.state, 2)[0] == GAME.parse_command("castle red 0")
    t.ok(2, "castle red 0")
    assert GAME.parse_command("banner") in GAME.legal_commands(t.state, 2)


def test_several_buildings_complete_at_once_each_paid_separately() -> None:
    """§6, §13 #1: one worker closes two houses; it earns from both; the active seat takes
    both tokens and owes two castle pieces."""
    t = Table(players=3, hands={0: ["residential_house red", "residential_house olive"]})
    t.do(0, "build residential_house red 10,4 r0")  # A: 10,4-11,4
    t.do(0, "build residential_house olive 10,6 r0")  # B: 10,6-11,6
    t.do(0, "workers 0 own 10,3 11,3 12,4")
    t.do(1, "workers 1 own 10,7 11,7 12,6")
    t.do(2, "workers 0 own 11,5")  # touches A and B
    t.turn_to(2)
    out = t.ok(2, "workers 1 own 10,5")
    a, b = t.of(BuildingCompleted, out)
    assert (a.building, a.seal, a.payouts, a.token) == (0, "red", (3, 0, 2), 2)
    assert (b.building, b.seal, b.payouts, b.token) == (1, "olive", (0, 3, 2), 2)
    assert t.screen(2).seals == (3, 3, 0, 0)
    assert t.state.owed == 2
    assert t.act(2, "end").code == "castle_piece_owed"


def test_a_building_enclosed_as_it_is_laid_completes_at_once() -> None:
    """§6, §13 #2: the new house fills a gap whose every neighbour is occupied."""
    t = Table(players=2, hands={0: ["residential_house red", "residential_house olive",
                                    "residential_house black", "residential_house silver"]})
    t.do(0, "build residential_house red 10,4 r0")
    t.do(0, "build residential_house olive 10,6 r0")
    t.do(0, "build residential_house black 12,4 r1")  # 12,4-12,5
    t.turn_to(1)
    t.given(TurnEnded(seat=1, next=0))
    out = t.ok(0, "build residential_house silver 10,5 r0")
    done = t.of(BuildingCompleted, out)
    assert [(d.building, d.seal, d.payouts, d.token) for d in done] == [(3, "silver", (0, 0), 0)]
    assert t.screen(0).seals == (0, 0, 0, 1)


def test_the_board_edge_counts_as_occupied() -> None:
    """§3, §13 #3: a house in the top-right corner needs only its three on-grid neighbours."""
    t = Table(players=2, hands={0: ["residential_house red"]})
    t.worker(1, 15, 2)
    t.turn_to(0)
    t.do(0, "build residential_house red 15,0 r1")
    t.turn_to(1)
    out = t.ok(1, "workers 0 own 14,0 14,1")
    (done,) = t.of(BuildingCompleted, out)
    assert done.payouts == (0, 3) and done.token == 1  # 15,2 and the two new workers
    assert t.screen(1).seals == (4, 0, 0, 0)


def test_the_castle_lot_counts_as_occupied_for_completion() -> None:
    """§13 #4: the lot is an occupied neighbour (§12.2 counts 9,5)."""
    t = example_12_2()
    out = t.ok(2, "workers 0 own 11,6")
    assert t.of(BuildingCompleted, out)


def test_a_worker_touching_two_squares_of_a_building_earns_once() -> None:
    """§13 #5 [R]: a worker in the inner corner of a farm touches two of its squares."""
    t = Table(players=2, hands={0: ["farm red"]})
    t.do(0, "build farm red 10,6 r0")  # 10,6 10,7 11,7
    t.do(1, "workers 0 own 11,6 10,8 11,8")  # 11,6 touches 10,6 and 11,7
    t.turn_to(0)
    out = t.ok(0, "workers 0 own 12,7 10,5 9,7")
    (done,) = t.of(BuildingCompleted, out)
    assert done.payouts == (3, 3)  # seat 1: three workers, three seals (11,6 counts once)


def test_a_completed_building_never_completes_again() -> None:
    t = example_12_2()
    t.ok(2, "workers 0 own 11,6")
    t.ok(2, "castle red 0")
    t.ok(2, "end")
    t.do(0, "workers 1 own 7,2")  # next to the olive house; the red house stays done
    assert len(t.of(BuildingCompleted)) == 1
