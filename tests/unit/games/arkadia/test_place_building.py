"""Action A, laying a building: docs/rules/arkadia.md §5.1, §3 (board model), §12.1 (worked example),
§13 #7, #9, #23, #25."""

from __future__ import annotations

from games.arkadia import GAME
from games.arkadia.commands import PlaceBuilding
from games.arkadia.events import BuildingPlaced, CardTaken
from games.contract import Rejection

from .table import Table


def code(out) -> str | None:
    return out.code if isinstance(out, Rejection) else None


def example_12_1() -> Table:
    """§12.1: the lot at [6,4] landscape and one yellow worker at [2,2]; yellow to act."""
    t = Table(players=2, hands={0: ["farm red", "residential_house red", "residential_house olive",
                                    "tavern red"]})
    t.worker(0, 2, 2)
    t.turn_to(0)
    return t


def test_12_1_farm_touching_the_lot_is_legal() -> None:
    t = example_12_1()
    out = t.ok(0, "build farm red 10,6 r0")
    placed = t.of(BuildingPlaced, out)[0]
    assert placed.cells == ((10, 6), (10, 7), (11, 7))


def test_12_1_house_touching_nothing_is_illegal() -> None:
    assert code(example_12_1().act(0, "build residential_house red 12,2 r0")) == "not_adjacent"


def test_12_1_house_touching_a_worker_is_legal() -> None:
    t = example_12_1()
    out = t.ok(0, "build residential_house red 2,3 r0")
    assert t.of(BuildingPlaced, out)[0].cells == ((2, 3), (3, 3))


def test_12_1_diagonal_contact_does_not_count() -> None:
    assert code(example_12_1().act(0, "build residential_house red 10,3 r0")) == "not_adjacent"


def test_12_1_covering_the_lot_is_illegal() -> None:
    assert code(example_12_1().act(0, "build residential_house red 9,6 r1")) == "on_castle_lot"


def test_a_building_may_not_cover_a_building_or_a_worker() -> None:
    t = example_12_1()
    t.do(0, "build residential_house red 10,5 r0")
    t.turn_to(0)
    assert code(t.act(0, "build residential_house olive 11,4 r1")) == "cell_occupied"
    assert code(t.act(0, "build residential_house olive 1,2 r0")) == "cell_occupied"  # worker on 2,2


def test_a_building_must_lie_on_the_grid() -> None:
    t = example_12_1()
    assert code(t.act(0, "build tavern red 14,0 r0")) == "off_grid"
    assert code(t.act(0, "build tavern red -1,0 r0")) == "off_grid"


def test_the_card_must_be_in_hand_and_exist() -> None:
    t = example_12_1()
    assert code(t.act(0, "build mill red 10,5 r0")) == "card_not_in_hand"
    assert code(t.act(0, "build castle red 10,5 r0")) == "unknown_form"
    assert code(t.act(0, "build farm purple 10,5 r0")) == "unknown_seal"


def test_rotations_are_quarter_turns_and_mirroring_is_refused_by_default() -> None:
    """§2.1 [R] / §13 #23: rotations only, behind the mirror_allowed flag."""
    t = example_12_1()
    assert code(t.act(0, "build farm red 10,6 r4")) == "bad_rotation"
    # farm r1: one quarter turn clockwise of #. / ## is ## / #.
    out = t.ok(0, "build farm red 10,5 r1")
    assert t.of(BuildingPlaced, out)[0].cells == ((10, 5), (11, 5), (10, 6))


def test_mirroring_when_the_option_allows_it() -> None:
    """With mirror_allowed, r4..r7 mirror the form first: the L-tetromino #. / #. / ##
    becomes .# / .# / ## (its anchor is its top cell)."""
    t = Table(players=2, mirror=True, hands={0: ["trade_centre red"]})
    out = t.ok(0, "build trade_centre red 11,4 r4")
    assert t.of(BuildingPlaced, out)[0].cells == ((11, 4), (11, 5), (10, 6), (11, 6))


def test_equal_footprints_are_one_placement_recorded_with_the_canonical_rotation() -> None:
    """A house turned twice covers what it covers unturned: accepted, recorded as r0; and
    legal_commands lists that footprint once."""
    t = example_12_1()
    out = t.ok(0, "build residential_house red 10,5 r2")
    placed = t.of(BuildingPlaced, out)[0]
    assert placed.rotation == 0 and placed.cells == ((10, 5), (11, 5))
    t2 = example_12_1()
    houses = [c for c in GAME.legal_commands(t2.state, 0)
              if isinstance(c, PlaceBuilding) and c.form == "residential_house" and c.seal == "red"]
    footprints = [tuple(sorted(((c.anchor[0] + dx, c.anchor[1] + dy) for dx, dy in
                                (((0, 0), (1, 0)) if c.rotation == 0 else ((0, 0), (0, 1))))))
                  for c in houses]
    assert len(footprints) == len(set(footprints))
    assert {c.rotation for c in houses} == {0, 1}


def test_covering_tent_camps_gives_neutral_workers() -> None:
    """§5.1 step 4: one neutral worker per covered tent camp, from the general pool."""
    t = example_12_1()
    out = t.ok(0, "build residential_house red 2,3 r0")  # 3,3 is a tent camp [P]
    placed = t.of(BuildingPlaced, out)[0]
    assert (placed.tents, placed.neutral) == (1, 1)
    assert t.screen(0).neutral == 1 and t.state.pool_neutral == 23


def test_two_tent_camps_covered_give_two() -> None:
    t = Table(players=2, hands={0: ["farm red"]})
    t.worker(0, 9, 9)
    t.turn_to(0)
    out = t.ok(0, "build farm red 10,9 r1")  # ## / #. on the tent camps 11,9 and 10,10 [P]
    placed = t.of(BuildingPlaced, out)[0]
    assert placed.cells == ((10, 9), (11, 9), (10, 10))
    assert (placed.tents, placed.neutral) == (2, 2) and t.screen(0).neutral == 2


def test_tent_camp_with_a_short_pool_gives_what_is_left() -> None:
    """§13 #7 [R]: take what is left (here: the pool was emptied by earlier takes)."""
    t = example_12_1()
    t.given(BuildingPlaced(seat=1, building=0, card=t.state.screens[1].hand[0], form="residential_house",
                           seal="red", rotation=0, anchor=(14, 0), cells=((14, 0), (15, 0)), tents=24,
                           neutral=24))
    t.turn_to(0)
    placed = t.of(BuildingPlaced, t.ok(0, "build residential_house red 2,3 r0"))[0]
    assert (placed.tents, placed.neutral) == (1, 0)


def test_a_tent_camp_alone_is_no_anchor() -> None:
    """§13 #25: a tent camp is neither a building nor a worker."""
    t = Table(players=2, hands={0: ["residential_house red"]})
    assert t.act(0, "build residential_house red 1,2 r0").code == "not_adjacent"  # under tent 1,1


def test_the_played_card_leaves_the_game_and_the_hand_is_refilled() -> None:
    """§5.1 steps 5 and 7: discard, then one open card (display refilled from the pile) or the pile's top."""
    t = Table(players=2, hands={0: ["farm red"]}, display=["mill red", "smithy red", "tavern red"],
              pile=["monastery red", "monastery olive"])
    t.ok(0, "build farm red 10,6 r0")
    assert t.state.discard == ("c09",)
    assert GAME.legal_commands(t.state, 0)[-1] == GAME.parse_command("draw")
    assert t.act(0, "end").code == "refill_owed"
    out = t.ok(0, "take smithy red")
    taken = t.of(CardTaken, out)[0]
    assert taken.source == "display" and taken.revealed == "c37"  # monastery red turned face up
    assert len(t.screen(0).hand) == 4 and "c37" in t.state.display


def test_drawing_from_the_pile() -> None:
    t = Table(players=2, hands={0: ["farm red"]}, pile=["monastery olive"])
    t.ok(0, "build farm red 10,6 r0")
    out = t.ok(0, "draw")
    assert t.of(CardTaken, out)[0].card == "c38" and len(t.screen(0).hand) == 4


def test_refill_rejections() -> None:
    t = Table(players=2, hands={0: ["farm red"]}, display=["mill red"])
    t.ok(0, "build farm red 10,6 r0")
    assert t.act(0, "take mill olive").code == "card_not_in_display"
    t.ok(0, "take mill red")
    assert t.act(0, "draw").code == "no_refill_owed"


def test_an_empty_pile_leaves_the_display_short_and_the_turn_goes_on() -> None:
    """§5.1 [R] and §13 #10: no reshuffle; take what exists."""
    t = Table(players=2, hands={0: ["farm red"]})
    t.given(*[CardTaken(seat=1, card=c, source="deck") for c in t.state.pile])  # the pile is drawn out
    t.turn_to(0)
    t.ok(0, "build farm red 10,6 r0")
    assert t.act(0, "draw").code == "deck_empty"
    first = GAME.legal_commands(t.state, 0)[0]
    out = t.ok(0, GAME.format_command(first))
    assert t.of(CardTaken, out)[0].revealed is None and len(t.state.display) == 2
