"""Wonder boards: §4 B, §11 (every side), §15 #5-#12, #19, #25, #26."""

from __future__ import annotations

import pytest

from games.contract import Rejection
from games.seven_wonders import GAME
from games.seven_wonders.catalog import CATALOG, vec
from games.seven_wonders.commands import Build
from games.seven_wonders.events import (
    DecisionOpened,
    DiscardBuildSkipped,
    DiscardBuilt,
    HandsPassed,
    LastCardsDiscarded,
    MilitaryResolved,
    SeventhCardPlayed,
    TurnResolved,
)
from games.seven_wonders.payment import ways
from games.seven_wonders.scoring import CATEGORIES, score_city
from games.seven_wonders.state import City

from .table import Table

WONDER = CATEGORIES.index("wonder")
GUILDS = CATEGORIES.index("guilds")
SCIENCE = CATEGORIES.index("science")


def spare(t: Table, seat: int) -> str:
    """A card of the seat's hand nobody planned for (a stage marker)."""
    return t.filler(seat).split()[1]


def resolved(events) -> TurnResolved:
    (tr,) = [e for e in events if isinstance(e, TurnResolved)]
    return tr


def play_of(events, seat: int):
    return next(p for p in resolved(events).plays if p.seat == seat)


def plain(board: str, *built: str, stages: int = 0, side: str = "A", tokens=()) -> City:
    return City(wonder=board, side=side, built=tuple(built), stages=stages, tokens=tuple(tokens))


# --- the boards' data and their VP ------------------------------------------------------


@pytest.mark.parametrize(
    "board,side,costs",
    [
        ("rhodes", "A", ["WW", "CCC", "OOOO"]), ("rhodes", "B", ["SSS", "OOOO"]),
        ("alexandria", "A", ["SS", "OO", "GG"]), ("alexandria", "B", ["CC", "WW", "SSS"]),
        ("ephesus", "A", ["SS", "WW", "PP"]), ("ephesus", "B", ["SS", "WW", "GLP"]),
        ("babylon", "A", ["CC", "WWW", "CCCC"]), ("babylon", "B", ["CL", "WWG", "CCCP"]),
        ("olympia", "A", ["WW", "SS", "OO"]), ("olympia", "B", ["WW", "SS", "OOL"]),
        ("halicarnassus", "A", ["CC", "OOO", "LL"]), ("halicarnassus", "B", ["OO", "CCC", "GLP"]),
        ("giza", "A", ["SS", "WWW", "SSSS"]), ("giza", "B", ["WW", "SSS", "CCC", "SSSSP"]),
    ],
)
def test_stage_costs_in_order(board: str, side: str, costs: list[str]) -> None:
    """§11.1: the stages of every side, in order, with their costs."""
    got = [st.cost for st in CATALOG.wonders[board].sides[side].stages]
    assert ["".join(sorted(c)) for c in got] == ["".join(sorted(c)) for c in costs]


@pytest.mark.parametrize(
    "board,side,points",
    [
        ("rhodes", "A", [3, 3, 10]), ("rhodes", "B", [3, 7]),
        ("alexandria", "A", [3, 3, 10]), ("alexandria", "B", [0, 0, 7]),
        ("ephesus", "A", [3, 3, 10]), ("ephesus", "B", [2, 5, 10]),
        ("babylon", "A", [3, 3, 10]), ("babylon", "B", [3, 3, 3]),
        ("olympia", "A", [3, 3, 10]), ("olympia", "B", [0, 5, 5]),
        ("halicarnassus", "A", [3, 3, 10]), ("halicarnassus", "B", [2, 3, 3]),
        ("giza", "A", [3, 8, 15]), ("giza", "B", [3, 8, 13, 20]),
    ],
)
def test_wonder_points_after_each_stage(board: str, side: str, points: list[int]) -> None:
    """§9 category 3, §11.1: VP printed on the built stages (Rhodes B, Ephesus B and
    Halicarnassus B included)."""
    got = []
    for k in range(1, len(points) + 1):
        me = plain(board, side=side, stages=k)
        others = [plain(b) for b in ("giza", "rhodes", "babylon") if b != board][:2]
        got.append(score_city((me, *others), 0)[0][WONDER])
    assert got == points


def test_starting_resource_is_the_same_on_both_sides() -> None:
    """§5.2, §11.1: the starting resource is fixed per board, same on both sides."""
    start = {"rhodes": "O", "alexandria": "G", "ephesus": "P", "babylon": "C", "olympia": "W",
             "halicarnassus": "L", "giza": "S"}
    for w, r in start.items():
        assert {s.starting_resource for s in CATALOG.wonders[w].sides.values()} == {r}


# --- building stages (§4 B) -----------------------------------------------------------


def test_stages_are_built_in_order_paying_the_next_stages_cost() -> None:
    """§4 B: the next unbuilt stage's cost is paid, not the card's: Giza A stage 1 (SS)
    with a Baths (S) card; stage 2 then costs WWW, which Giza cannot pay."""
    t = Table(boards=["giza", "babylon", "rhodes"], plan={(0, 1): ["stone_pit", "baths"]})
    t.turn({0: "build Stone Pit"})
    ev = t.turn({0: "wonder Baths"})
    assert play_of(ev, 0).action == "stage" and t.city(0).stages == 1
    assert t.city(0).stage_cards == ("baths",)
    assert "baths" not in t.city(0).built and "baths" not in t.state.discard
    got = t.act(0, f"wonder {spare(t, 0)}")
    assert isinstance(got, Rejection) and got.code == "cannot_afford"


def test_any_card_can_mark_a_stage_whatever_its_own_cost() -> None:
    """§4 B: the chosen card is only a marker: a card the city could never build (a guild
    costing WWWGP) marks Giza A stage 1."""
    t = Table(boards=["giza", "babylon", "rhodes"],
              plan={(0, 1): ["stone_pit"], (0, 3): ["shipowners_guild"]})
    t.turn({0: "build Stone Pit"})
    t.finish_age()
    t.finish_age()
    assert isinstance(t.act(0, "build Shipowners Guild"), Rejection)
    ev = t.turn({0: "wonder Shipowners Guild"})
    assert play_of(ev, 0).action == "stage" and t.city(0).stages == 1


def test_wonder_complete_when_every_stage_is_built() -> None:
    """§4 B: when all stages are built, action B is no longer available (Rhodes B has 2)."""
    t = _rhodes_b()
    got = t.act(0, f"wonder {spare(t, 0)}")
    assert isinstance(got, Rejection) and got.code == "wonder_complete"


# --- Rhodes (§11.2) -------------------------------------------------------------------


def _rhodes_b() -> Table:
    """Rhodes B: stage 1 (SSS) in Age I turn 3, stage 2 (OOOO) in Age II turn 2."""
    t = Table(boards=["rhodes", "giza", "babylon"], sides="BAA",
              plan={(0, 1): ["stone_pit", "timber_yard", None, "ore_vein"], (0, 2): ["foundry"]})
    t.turn({0: "build Stone Pit"})
    t.turn({0: "build Timber Yard"})  # 1 coin -> 2
    t.rhodes_stage_1 = resolved(t.turn({0: f"wonder {spare(t, 0)}"}))  # 1 S from Giza: 2 coins
    t.after_stage_1 = resolved(t.turn({0: "build Ore Vein"}))
    t.finish_age()
    t.turn({0: "build Foundry"})
    t.rhodes_stage_2 = resolved(t.turn({0: f"wonder {spare(t, 0)}"}))  # board + Ore Vein + Foundry
    return t


def test_rhodes_b_stage_coins_are_paid_once_when_built() -> None:
    """§11.2: Rhodes B stage 1 gives 3 coins, stage 2 gives 4 coins, once, when built."""
    t = _rhodes_b()
    assert t.rhodes_stage_1.coins[0] == -2 + 3
    assert t.after_stage_1.coins[0] == 0
    assert t.rhodes_stage_2.coins[0] == 4
    assert t.city(0).stages == 2


def test_rhodes_b_scores_shields_and_vp() -> None:
    """§11.2: Rhodes B: 1 shield + 3 VP, then 1 shield + 4 VP."""
    t = _rhodes_b()
    end = t.finish()
    assert end.scores[0][WONDER] == 7
    assert [e.shields[0] for e in t.of(MilitaryResolved)] == [1, 2, 2]


# --- Alexandria (§11.3) -----------------------------------------------------------------


def test_alexandria_b_stage_1_produces_for_itself_but_sells_nothing() -> None:
    """§11.3, §6: Alexandria B stage 1 gives one of W/S/C/O every turn to its owner only."""
    t = Table(boards=["alexandria", "babylon", "giza"], sides="BAA",
              plan={(0, 1): ["clay_pool", None, "barracks"], (2, 1): [None, None, "stockade"]})
    # Alexandria seat 0: LEFT Babylon (C). Giza seat 2: LEFT Alexandria, RIGHT Babylon.
    t.turn({0: "build Clay Pool"})
    t.turn({0: f"wonder {spare(t, 0)}"})  # CC: Clay Pool + 1 C from Babylon
    assert t.city(0).stages == 1
    got = t.act(2, "build Stockade")  # W: only Alexandria's stage could make it
    assert isinstance(got, Rejection) and got.code == "cannot_afford"
    ev = t.turn({0: "build Barracks"})  # O from the stage, no purchase
    p = play_of(ev, 0)
    assert (p.left, p.right) == (0, 0) and "barracks" in t.city(0).built


def test_alexandria_a_stage_2_raw_material_is_not_sellable() -> None:
    """§11.3: Alexandria A stage 2 (W/S/C/O) cannot be bought by neighbours."""
    alex = plain("alexandria", stages=2)
    assert ways(vec("W"), plain("giza"), alex, plain("rhodes")) == ()
    assert [(w.left, w.right) for w in ways(vec("W"), alex, plain("giza"), plain("rhodes"))] == [(0, 0)]


# --- Ephesus (§11.4) --------------------------------------------------------------------


def test_ephesus_a_stage_2_gives_nine_coins_once() -> None:
    """§11.4: Ephesus A stage 2: 9 coins from the bank, once, when built."""
    t = Table(boards=["ephesus", "giza", "olympia"],
              plan={(0, 1): ["stone_pit", None, "lumber_yard"]})
    # Ephesus seat 0: LEFT Giza (S), RIGHT Olympia (W)
    t.turn({0: "build Stone Pit"})
    assert resolved(t.turn({0: f"wonder {spare(t, 0)}"})).coins[0] == -2  # SS: Stone Pit + 1 S
    t.turn({0: "build Lumber Yard"})
    t.turn()  # discard: 1 + 3 coins
    ev = t.turn({0: f"wonder {spare(t, 0)}"})  # WW: Lumber Yard + 1 W bought for 2
    assert resolved(ev).coins[0] == -2 + 9
    assert resolved(t.turn()).coins[0] == 3  # only the discard afterwards


def test_ephesus_b_every_stage_gives_four_coins() -> None:
    """§11.4: Ephesus B: each of the 3 stages gives 4 coins once, plus 2 / 3 / 5 VP."""
    t = Table(boards=["ephesus", "giza", "olympia"], sides="BAA",
              plan={(0, 1): ["stone_pit", None, "lumber_yard", None, "glassworks_1", "loom_1"]})
    t.turn({0: "build Stone Pit"})
    assert resolved(t.turn({0: f"wonder {spare(t, 0)}"})).coins[0] == -2 + 4
    t.turn({0: "build Lumber Yard"})
    assert resolved(t.turn({0: f"wonder {spare(t, 0)}"})).coins[0] == -2 + 4
    t.turn({0: "build Glassworks"})
    t.turn({0: "build Loom"})  # turn 6: Age II starts
    assert (t.state.age, t.state.turn) == (2, 1)
    ev = t.turn({0: f"wonder {spare(t, 0)}"})  # GLP all own
    assert resolved(ev).coins[0] == 4
    assert t.finish().scores[0][WONDER] == 10


# --- Babylon (§11.5, §15 #9-#11) --------------------------------------------------------


def _babylon_b(turn6: str | None = None, seventh: str = "stockade", stage2_on_turn_6: bool = False,
               extra=None) -> Table:
    """Babylon B seat 0 (LEFT Halicarnassus: L, RIGHT Rhodes: O), 3 players.
    Age I: Lumber Yard, Timber Yard (1 coin), Glassworks, stage 1 (CL: 1 L bought for 2),
    stage 2 (WWG, own) in turn 5 -- or in turn 6. The 7th card is planned as `seventh`."""
    plan = {(0, 1): ["lumber_yard", "timber_yard", "glassworks_1", None, None, turn6, seventh]}
    plan.update(extra or {})
    t = Table(boards=["babylon", "halicarnassus", "rhodes"], sides="BBA", plan=plan)
    t.turn({0: "build Lumber Yard"})
    t.turn({0: "build Timber Yard"})
    t.turn({0: "build Glassworks"})
    t.turn({0: f"wonder {spare(t, 0)}"})
    assert t.city(0).stages == 1 and t.coins()[0] == 0
    if not stage2_on_turn_6:
        t.turn({0: f"wonder {spare(t, 0)}"})
        assert t.city(0).stages == 2
    else:
        t.turn()
    return t


def test_babylon_b_plays_the_seventh_card_after_turn_6() -> None:
    """§3, §11.5: with stage 2 built, in turn 6 Babylon B plays both cards: the 6th
    normally, then the 7th instead of discarding it; the others' 7th cards are discarded."""
    t = _babylon_b()
    ev = t.turn({0: f"discard {spare(t, 0)}"})
    last = [e for e in ev if isinstance(e, LastCardsDiscarded)]
    assert len(last) == 1 and last[0].cards[0] is None and None not in last[0].cards[1:]
    assert t.state.pending is not None and t.state.pending.seat == 0
    assert t.state.pending.kind == "seventh_card"
    assert GAME.to_act(t.state) == (0,)
    ev = t.act(0, "build Stockade")  # W: own Lumber Yard
    assert not isinstance(ev, Rejection)
    (sp,) = [e for e in ev if isinstance(e, SeventhCardPlayed)]
    assert sp.play.action == "build" and "stockade" in t.city(0).built
    assert t.state.age == 2  # then the age ends


def test_babylon_b_stage_2_built_in_turn_6_already_plays_that_ages_7th_card() -> None:
    """§11.5, §15 #11: if stage 2 is built in turn 6 itself, the 7th card of that same
    age may already be played."""
    t = _babylon_b(stage2_on_turn_6=True)
    t.turn({0: f"wonder {spare(t, 0)}"})  # WWG with the 6th card
    assert t.city(0).stages == 2
    assert t.state.pending is not None and t.state.pending.kind == "seventh_card"
    assert not isinstance(t.act(0, "build Stockade"), Rejection)
    assert "stockade" in t.city(0).built


def test_babylon_b_seventh_card_may_spend_turn_6_income() -> None:
    """§15 #10, §6: the 7th card is resolved after turn 6's income: Babylon starts turn 6
    with 0 coins, discards its 6th card (+3) and pays 2 coins for the 7th card's L."""
    t = _babylon_b(seventh="apothecary")
    t.turn({0: f"discard {spare(t, 0)}"})
    assert t.coins()[0] == 3
    ev = t.act(0, "build Apothecary")  # L bought from Halicarnassus (LEFT)
    assert not isinstance(ev, Rejection), ev
    (sp,) = [e for e in ev if isinstance(e, SeventhCardPlayed)]
    assert (sp.play.left, sp.play.right) == (2, 0)
    assert sp.coins[0] == -2 and sp.coins[1] == 2
    assert t.coins()[0] == 1


def test_babylon_b_seventh_card_uses_a_structure_built_with_the_6th() -> None:
    """§5.2 [interpretation], §15 #10: a structure placed in turn 6 produces for the 7th
    card: Loom built with the 6th card pays the 7th card's L (Apothecary)."""
    t = _babylon_b(turn6="loom_1", seventh="apothecary")
    t.turn({0: "build Loom"})
    ev = t.act(0, "build Apothecary")
    assert not isinstance(ev, Rejection), ev
    (sp,) = [e for e in ev if isinstance(e, SeventhCardPlayed)]
    assert (sp.play.left, sp.play.right, sp.play.bank) == (0, 0, 0)


def test_babylon_b_seventh_card_buys_from_a_neighbours_turn_6_structure() -> None:
    """§5.2 [interpretation], §15 #3: a neighbour's card placed in turn 6 sells to the 7th
    card (resolved later in the same turn): Rhodes' new Loom sells Babylon its L."""
    t = _babylon_b(seventh="apothecary", extra={(2, 1): [None, None, None, None, None, "loom_1"]})
    t.turn({0: f"discard {spare(t, 0)}", 2: "build Loom"})
    ev = t.act(0, "build Apothecary pay left 0 right 2")
    assert not isinstance(ev, Rejection), ev
    (sp,) = [e for e in ev if isinstance(e, SeventhCardPlayed)]
    assert (sp.play.left, sp.play.right) == (0, 2) and sp.coins[2] == 2


def test_babylon_b_seventh_card_may_be_discarded_for_three_coins() -> None:
    """§11.5: the 7th card may be discarded for 3 coins (action C)."""
    t = _babylon_b()
    t.turn({0: f"discard {spare(t, 0)}"})
    ev = t.act(0, "discard Stockade")
    (sp,) = [e for e in ev if isinstance(e, SeventhCardPlayed)]
    assert sp.play.action == "discard" and sp.coins[0] == 3
    assert "stockade" in t.state.discard


def test_babylon_b_plays_the_seventh_card_in_every_later_age_and_may_build_stage_3() -> None:
    """§11.5: from the age stage 2 is built onward, every age; the 7th card may build a
    wonder stage (stage 3 CCCP: board C + Brickyard CC + Press)."""
    t = _babylon_b(extra={(0, 2): ["brickyard", "press_2"]})
    t.finish_age()
    t.turn({0: "build Brickyard"})
    t.turn({0: "build Press"})
    t.turns(3)
    t.turn({0: f"discard {spare(t, 0)}"})
    assert t.state.age == 2 and t.state.pending is not None and t.state.pending.kind == "seventh_card"
    ev = t.act(0, f"wonder {t.state.hands[0][0]}")
    assert not isinstance(ev, Rejection), ev
    assert t.city(0).stages == 3


def test_babylon_b_without_stage_2_discards_the_seventh_card() -> None:
    """§3: without an active stage 2 the 7th card is discarded with no coins."""
    t = Table(boards=["babylon", "halicarnassus", "rhodes"], sides="BBA")
    t.turns(5)
    before = t.coins()
    ev = t.turn()
    assert not [e for e in ev if isinstance(e, DecisionOpened)]
    (last,) = [e for e in ev if isinstance(e, LastCardsDiscarded)]
    assert None not in last.cards
    assert resolved(ev).coins == (3, 3, 3)
    assert tuple(c.coins for c in t.state.cities) == tuple(b + 3 for b in before)


# --- Olympia A (§11.6, §15 #5, #6) ----------------------------------------------------------


def _olympia_a(extra=None) -> Table:
    """Olympia A seat 0 (LEFT Giza: S, RIGHT Babylon: C). Age I: Lumber Yard, Stone Pit,
    stage 1 (WW own), stage 2 (SS: 1 S bought for 2) in turn 4."""
    plan = {(0, 1): ["lumber_yard", "stone_pit", None, None, "workshop", "loom_1"]}
    plan.update(extra or {})
    t = Table(boards=["olympia", "giza", "babylon"], plan=plan)
    t.turn({0: "build Lumber Yard"})
    t.turn({0: "build Stone Pit"})
    t.turn({0: f"wonder {spare(t, 0)}"})
    return t


def test_olympia_a_free_build_not_before_the_turn_after_stage_2() -> None:
    """§11.6, §15 #6: the power is usable from the turn after stage 2 is built."""
    t = _olympia_a()
    assert not [c for c in GAME.legal_commands(t.state, 0) if isinstance(c, Build) and c.free]
    got = t.act(0, "build Workshop free") if "workshop" in t.state.hands[0] else t.act(0, f"build {spare(t, 0)} free")
    assert isinstance(got, Rejection) and got.code == "free_build_unavailable"
    t.turn({0: f"wonder {spare(t, 0)}"})  # stage 2
    assert t.city(0).stages == 2
    assert [c for c in GAME.legal_commands(t.state, 0) if isinstance(c, Build) and c.free]


def test_olympia_a_free_build_once_per_age_pays_nothing() -> None:
    """§11.6: once per age, one structure without paying anything (Workshop's G is made by
    nobody at this table); a second use in the same age is refused."""
    t = _olympia_a()
    t.turn({0: f"wonder {spare(t, 0)}"})
    coins = t.coins()[0]
    assert isinstance(t.act(0, "build Workshop"), Rejection)
    ev = t.turn({0: "build Workshop free"})
    p = play_of(ev, 0)
    assert (p.via, p.left, p.right, p.bank) == ("free_build", 0, 0, 0)
    assert t.coins()[0] == coins
    got = t.act(0, "build Loom free")
    assert isinstance(got, Rejection) and got.code == "free_build_unavailable"


def test_olympia_a_free_build_covers_a_brown_cards_coin_and_chains_do_not_use_it() -> None:
    """§15 #5, #6: building through a chain does not use the power; the free build also
    covers a brown card's 1-coin cost; a duplicate is still refused."""
    t = _olympia_a(extra={(0, 2): ["loom_2", "sawmill"], (2, 2): [None, "laboratory"]})
    t.turn({0: f"wonder {spare(t, 0)}"})
    t.turn({0: "build Workshop free"})
    t.turn({0: "build Loom"})  # turn 6: Age II starts
    assert (t.state.age, t.state.turn) == (2, 1)
    got = t.act(0, "build Loom free")  # the Age II Loom: same name as the Age I Loom
    assert isinstance(got, Rejection) and got.code == "duplicate_structure"
    ev = t.turn({0: "build Laboratory"})  # chained from Workshop (CCP otherwise)
    assert play_of(ev, 0).via == "chain"
    coins = t.coins()[0]
    ev = t.turn({0: "build Sawmill free"})
    p = play_of(ev, 0)
    assert (p.via, p.bank) == ("free_build", 0)
    assert t.coins()[0] == coins
    got = t.act(0, f"build {spare(t, 0)} free")
    assert isinstance(got, Rejection) and got.code == "free_build_unavailable"


def test_olympia_a_unused_free_build_does_not_carry_over() -> None:
    """§11.6, §15 #6: unused uses are lost at the end of the age: one use in Age II only."""
    t = _olympia_a()
    t.turn({0: f"wonder {spare(t, 0)}"})
    t.finish_age()
    assert not isinstance(t.act(0, f"build {spare(t, 0)} free"), Rejection)
    t.turn()
    got = t.act(0, f"build {spare(t, 0)} free")
    assert isinstance(got, Rejection) and got.code == "free_build_unavailable"


def test_olympia_a_free_build_is_for_structures_not_stages() -> None:
    """§11.6: only structures (never wonder stages): a stage still costs its resources."""
    t = _olympia_a()
    t.turn({0: f"wonder {spare(t, 0)}"})
    t.turn({0: f"discard {spare(t, 0)}"})
    # stage 3 (OO): nobody makes ore at this table
    got = t.act(0, f"wonder {spare(t, 0)}")
    assert isinstance(got, Rejection) and got.code == "cannot_afford"


# --- Olympia B (§11.6, §15 #12, #26) ----------------------------------------------------


def test_olympia_b_stage_1_buys_raw_materials_for_one_coin_from_both_sides() -> None:
    """§11.6: after Olympia B stage 1 raw materials cost 1 coin from either neighbour."""
    t = Table(boards=["olympia", "giza", "rhodes"], sides="BAA",
              plan={(0, 1): ["lumber_yard", None, None, "barracks", "baths"]})
    t.turn({0: "build Lumber Yard"})
    t.turn({0: f"wonder {spare(t, 0)}"})  # WW own
    t.turn()
    ev = t.turn({0: "build Barracks"})  # O from RIGHT Rhodes
    assert (play_of(ev, 0).left, play_of(ev, 0).right) == (0, 1)
    ev = t.turn({0: "build Baths"})  # S from LEFT Giza
    assert (play_of(ev, 0).left, play_of(ev, 0).right) == (1, 0)


def _copy(me: City, left: City, right: City, across: City | None = None):
    cities = (me, left, across or plain("ephesus", "spies_guild", "stockade"), right)
    return score_city(cities, 0)


def test_olympia_b_copies_the_best_guild_of_its_neighbours() -> None:
    """§11.6, §15 #12: at the end Olympia copies the best guild built by LEFT or RIGHT,
    counting from its own seat; the points go to the Guilds category."""
    me = plain("olympia", side="B", stages=3)
    left = plain("giza", "spies_guild", "barracks", "stockade")  # Spies from Olympia: reds of LEFT+RIGHT
    right = plain("rhodes", "magistrates_guild", "baths", "altar", "theater")
    scores, note = _copy(me, left, right)
    # Spies for Olympia: LEFT 2 red + RIGHT 0 = 2; Magistrates: LEFT 0 + RIGHT 3 blue = 3
    assert scores[GUILDS] == 3 and scores[WONDER] == 5
    assert "magistrates_guild" in note


def test_olympia_b_copy_counts_from_olympias_seat_not_the_owners() -> None:
    """§11.6: all counting from Olympia's point of view; the owner's score is unaffected."""
    me = plain("olympia", "baths", "altar", side="B", stages=3)
    left = plain("giza", "magistrates_guild")
    right = plain("rhodes", "pantheon")
    across = plain("ephesus", "palace", "senate", "gardens", "town_hall")
    # Magistrates from Olympia's seat: LEFT (Giza) 0 + RIGHT (Rhodes) 1 = 1 -- not the
    # owner's neighbours (Olympia 2 blue, Ephesus 4 blue)
    assert _copy(me, left, right, across)[0][GUILDS] == 1
    owner = score_city((me, left, across, right), 1)[0][GUILDS]
    assert owner == 2 + 4


def test_olympia_b_copy_needs_stage_3() -> None:
    """§11.6: the copy comes from stage 3."""
    left = plain("giza", "magistrates_guild")
    right = plain("rhodes", "pantheon")
    assert _copy(plain("olympia", side="B", stages=2), left, right)[0][GUILDS] == 0


def test_olympia_b_without_neighbour_guilds_copies_nothing() -> None:
    """§11.6: if neither neighbour has a guild, nothing happens (the guild across the table
    cannot be copied)."""
    scores, note = _copy(plain("olympia", side="B", stages=3), plain("giza", "stockade"), plain("rhodes"))
    assert scores[GUILDS] == 0 and "copied" not in note


def test_olympia_b_copied_scientists_guild_is_a_science_wildcard() -> None:
    """§11.6, §15 #12, #26: a copied Scientists Guild gives a wildcard (chosen jointly with
    the others to maximise Olympia's total) and no guild VP."""
    me = plain("olympia", "apothecary", "workshop", side="B", stages=3)
    left = plain("giza", "scientists_guild")
    right = plain("rhodes", "spies_guild", "barracks")  # Spies for Olympia: 0 + ... = 0 reds
    scores, note = _copy(me, left, right)
    assert scores[SCIENCE] == 10 and scores[GUILDS] == 0
    assert "scientists_guild" in note


def test_olympia_b_chooses_the_copy_that_maximises_the_total() -> None:
    """§15 #26: Scientists (science 1+1 -> 10, i.e. +8) beats Spies worth 1 VP."""
    me = plain("olympia", "apothecary", "workshop", side="B", stages=3)
    left = plain("giza", "scientists_guild", "stockade")
    right = plain("rhodes", "spies_guild")
    scores, _ = _copy(me, left, right)
    assert (scores[SCIENCE], scores[GUILDS]) == (10, 0)
    # ...and Spies when it is worth more than the wildcard's +8
    left2 = plain("giza", "scientists_guild", *["stockade", "barracks", "guard_tower", "walls", "stables",
                                                "archery_range", "training_ground", "circus", "arsenal"])
    scores, _ = _copy(me, left2, right)
    assert (scores[SCIENCE], scores[GUILDS]) == (2, 9)


def test_olympia_b_copied_shipowners_counts_itself() -> None:
    """§15 #12: for Shipowners-type counting the copy counts as one purple card in
    Olympia's city, so a copied Shipowners also counts itself."""
    me = plain("olympia", "lumber_yard", "loom_1", side="B", stages=3)
    left = plain("giza", "shipowners_guild")
    assert _copy(me, left, plain("rhodes"))[0][GUILDS] == 2 + 1


# --- Halicarnassus (§11.7, §15 #7, #8, #9, #19, #25) ---------------------------------------


def _hali_b(extra=None) -> Table:
    """Halicarnassus B seat 0 (LEFT Rhodes: O, RIGHT Giza: S). Age I turn 1 Ore Vein,
    turn 2 stage 1 (OO: Ore Vein + 1 O bought from Rhodes)."""
    plan = {(0, 1): ["ore_vein"]}
    plan.update(extra or {})
    return Table(boards=["halicarnassus", "rhodes", "giza"], sides="BAA", plan=plan)


def test_halicarnassus_builds_from_the_discard_pile_at_the_end_of_the_turn() -> None:
    """§11.7: at the end of the turn a stage is built, Halicarnassus builds one discarded
    card for free, including a card discarded in that very turn; the card leaves the pile
    and is a structure; it happens before the hands pass."""
    t = _hali_b({(1, 1): [None, "baths"]})
    t.turn({0: "build Ore Vein"})
    ev = t.turn({0: f"wonder {spare(t, 0)}", 1: "discard Baths"})
    assert t.state.pending is not None and t.state.pending.kind == "discard_build"
    assert not [e for e in ev if isinstance(e, HandsPassed)]
    coins = t.coins()[0]
    ev = t.act(0, "build Baths from discard")
    assert not isinstance(ev, Rejection), ev
    kinds = [type(e) for e in ev]
    assert kinds.index(DiscardBuilt) < kinds.index(HandsPassed)
    assert "baths" in t.city(0).built and "baths" not in t.state.discard
    assert t.coins()[0] == coins


def test_halicarnassus_decision_blocks_the_others_and_shows_the_pile_only_to_it() -> None:
    """§11.7, §3: the pile is face down; only Halicarnassus looks through it."""
    t = _hali_b({(1, 1): [None, "baths"]})
    t.turn({0: "build Ore Vein"})
    t.turn({0: f"wonder {spare(t, 0)}", 1: "discard Baths"})
    assert GAME.to_act(t.state) == (0,)
    got = t.act(1, f"discard {spare(t, 1)}")
    assert isinstance(got, Rejection) and got.code == "not_your_turn"
    assert "baths" in GAME.view(t.state, 0).discard
    assert GAME.view(t.state, 1).discard is None and GAME.view(t.state, None).discard is None


def test_halicarnassus_may_decline() -> None:
    """§11.7: the player may decline; the pile is unchanged."""
    t = _hali_b()
    t.turn({0: "build Ore Vein"})
    t.turn({0: f"wonder {spare(t, 0)}"})
    pile = t.state.discard
    ev = t.act(0, "decline")
    assert [e.reason for e in ev if isinstance(e, DiscardBuildSkipped)] == ["declined"]
    assert t.state.discard == pile and t.state.turn == 3


def test_halicarnassus_cannot_take_a_card_used_for_a_stage() -> None:
    """§4 B, §11.7, §15 #19: cards used for wonder stages never enter the discard pile."""
    t = _hali_b({(2, 1): ["stone_pit", "stockade"]})
    t.turn({0: "build Ore Vein", 2: "build Stone Pit"})
    t.turn({0: f"wonder {spare(t, 0)}", 2: "wonder Stockade"})  # Giza A stage 1 SS
    got = t.act(0, "build Stockade from discard")
    assert isinstance(got, Rejection) and got.code == "not_in_discard"


def test_halicarnassus_duplicate_rule_applies() -> None:
    """§11.7: a card whose name is already in the city cannot be taken."""
    t = Table(boards=["halicarnassus", "rhodes", "giza", "babylon"], sides="BAAA",
              plan={(0, 1): ["ore_vein"], (1, 1): [None, "ore_vein"]})
    t.turn({0: "build Ore Vein"})
    t.turn({0: f"wonder {spare(t, 0)}", 1: "discard Ore Vein"})
    assert "ore_vein" in t.state.discard
    assert "ore_vein" in (GAME.view(t.state, 0).discard or ())  # it looks through the whole pile
    assert "build_from_discard" not in [type(c).__name__ for c in GAME.legal_commands(t.state, 0)
                                        if getattr(c, "card", "") == "ore_vein"]
    got = t.act(0, "build Ore Vein from discard")
    assert isinstance(got, Rejection) and got.code == "duplicate_structure"


def test_halicarnassus_effect_is_lost_when_nothing_is_eligible() -> None:
    """§15 #7: empty pile (or only names it owns): the effect is lost, not postponed."""
    t = Table(boards=["halicarnassus", "rhodes", "giza", "babylon"], sides="BAAA",
              plan={(0, 1): ["ore_vein"], (1, 1): ["altar", "theater"], (2, 1): ["lumber_yard", "ore_vein"],
                    (3, 1): ["stone_pit", "clay_pool"]})
    t.turn({0: "build Ore Vein", 1: "build Altar", 2: "build Lumber Yard", 3: "build Stone Pit"})
    ev = t.turn({0: f"wonder {spare(t, 0)}", 1: "build Theater", 2: "discard Ore Vein", 3: "build Clay Pool"})
    assert t.state.discard == ("ore_vein",)
    assert [e.reason for e in ev if isinstance(e, DiscardBuildSkipped)] == ["nothing_eligible"]
    assert t.state.pending is None and t.state.turn == 3
    ev = t.turn()  # the next turn owes nothing
    assert not [e for e in ev if isinstance(e, DecisionOpened)]


def test_halicarnassus_built_card_pays_its_one_time_income() -> None:
    """§11.7, §15 #25: the chosen card's one-time coins are paid (Tavern +5)."""
    t = Table(boards=["halicarnassus", "rhodes", "giza", "babylon"], sides="BAAA",
              plan={(0, 1): ["ore_vein"], (1, 1): [None, "tavern"]})
    t.turn({0: "build Ore Vein"})
    t.turn({0: f"wonder {spare(t, 0)}", 1: "discard Tavern"})
    coins = t.coins()[0]
    ev = t.act(0, "build Tavern from discard")
    (db,) = [e for e in ev if isinstance(e, DiscardBuilt)]
    assert db.coins[0] == 5 and t.coins()[0] == coins + 5


def test_halicarnassus_b_every_stage_builds_from_the_pile() -> None:
    """§11.7: each of the three B stages has the effect (stage 2 here); A stage 1 has not."""
    t = Table(boards=["halicarnassus", "rhodes", "babylon"], sides="BAA",
              plan={(0, 1): ["ore_vein", None, "clay_pool", "clay_pit"]})
    t.turn({0: "build Ore Vein"})
    t.turn({0: f"wonder {spare(t, 0)}"})  # OO: 1 O from Rhodes -> 1 coin
    t.act(0, "decline")
    t.turn({0: "build Clay Pool"})
    t.turn({0: "build Clay Pit"})  # 0 coins
    t.turn()  # +3
    ev = t.turn({0: f"wonder {spare(t, 0)}"})  # CCC: Clay Pool + Clay Pit + 1 C from Babylon
    assert t.city(0).stages == 2
    assert [e.kind for e in ev if isinstance(e, DecisionOpened)] == ["discard_build"]


def test_halicarnassus_a_stage_2_in_turn_6_takes_a_7th_card_before_the_military() -> None:
    """§11.7, §15 #8: Halicarnassus A stage 2 built in turn 6 may take any of that turn's
    discards including the 7th cards; the free build happens before the age's conflicts
    (a red card taken counts)."""
    t = Table(boards=["halicarnassus", "babylon", "rhodes"],
              plan={(0, 1): ["clay_pool", None, "ore_vein", "clay_pit"],
                    (2, 1): [None, None, None, None, None, None, "stockade"]})
    t.turn({0: "build Clay Pool"})
    t.turn({0: f"wonder {spare(t, 0)}"})  # A stage 1 CC: 1 C from Babylon -> 1 coin
    assert not [e for e in t.events if isinstance(e, DecisionOpened)]
    t.turn({0: "build Ore Vein"})
    t.turn({0: "build Clay Pit"})  # 0 coins
    t.turn()  # 3 coins
    ev = t.turn({0: f"wonder {spare(t, 0)}"})  # OOO: Ore Vein + Clay Pit + 1 O from Rhodes
    assert t.city(0).stages == 2
    (last,) = [e for e in ev if isinstance(e, LastCardsDiscarded)]
    assert last.cards[2] == "stockade"
    assert not [e for e in ev if isinstance(e, MilitaryResolved)]
    assert "stockade" in GAME.view(t.state, 0).discard
    ev = t.act(0, "build Stockade from discard")
    assert not isinstance(ev, Rejection), ev
    kinds = [type(e) for e in ev]
    assert kinds.index(DiscardBuilt) < kinds.index(MilitaryResolved)
    (mr,) = [e for e in ev if isinstance(e, MilitaryResolved)]
    assert mr.age == 1 and mr.shields[0] == 1 and sorted(mr.tokens[0]) == [1, 1]


def test_babylon_seventh_card_resolves_before_halicarnassus() -> None:
    """§15 #9: at the end of turn 6 Babylon's 7th card comes first, then Halicarnassus,
    so a 7th card Babylon discards is available to Halicarnassus."""
    t = Table(
        boards=["babylon", "halicarnassus", "rhodes"], sides="BBA",
        plan={(0, 1): ["lumber_yard", "timber_yard", "glassworks_1", None, None, None, "stockade"],
              (1, 1): ["ore_vein"]},
    )
    t.turn({0: "build Lumber Yard", 1: "build Ore Vein"})
    t.turn({0: "build Timber Yard"})
    t.turn({0: "build Glassworks"})
    t.turn({0: f"wonder {spare(t, 0)}"})  # CL: 1 L from Halicarnassus
    t.turn({0: f"wonder {spare(t, 0)}"})  # WWG own
    assert t.city(0).stages == 2
    # turn 6: Halicarnassus B stage 1 (OO: Ore Vein + 1 O from Rhodes, its LEFT)
    ev = t.turn({0: f"discard {spare(t, 0)}", 1: f"wonder {spare(t, 1)}"})
    assert t.city(1).stages == 1
    assert t.state.pending is not None and t.state.pending.seat == 0
    assert t.state.pending.kind == "seventh_card"
    ev = t.act(0, "discard Stockade")
    assert t.state.pending is not None and t.state.pending.seat == 1
    assert t.state.pending.kind == "discard_build"
    ev = t.act(1, "build Stockade from discard")
    assert not isinstance(ev, Rejection), ev
    (mr,) = [e for e in ev if isinstance(e, MilitaryResolved)]
    assert mr.shields == (0, 1, 0)
    order = [type(e).__name__ for e in t.events if isinstance(e, (SeventhCardPlayed, DiscardBuilt, MilitaryResolved))]
    assert order == ["SeventhCardPlayed", "DiscardBuilt", "MilitaryResolved"]


def test_halicarnassus_looks_through_every_discard_since_the_start_of_the_game() -> None:
    """§2.7, §11.7: the pile persists for the whole game: an Age I 7th card can be taken
    by a stage built in Age II."""
    t = _hali_b({(1, 1): [None] * 6 + ["stockade"]})
    t.turn({0: "build Ore Vein"})
    t.finish_age()
    assert "stockade" in t.state.discard and t.state.age == 2
    t.turn({0: f"wonder {spare(t, 0)}"})  # OO: Ore Vein + 1 O from Rhodes
    assert "stockade" in GAME.view(t.state, 0).discard
    assert not isinstance(t.act(0, "build Stockade from discard"), Rejection)
    assert "stockade" in t.city(0).built


def test_a_card_built_from_the_pile_is_a_chain_prerequisite_later() -> None:
    """§11.7, §15 #18: the chosen card is a normal structure: Baths taken from the pile
    chains to Aqueduct in Age II."""
    t = _hali_b({(1, 1): [None, "baths"], (0, 2): ["aqueduct"]})
    t.turn({0: "build Ore Vein"})
    t.turn({0: f"wonder {spare(t, 0)}", 1: "discard Baths"})
    t.act(0, "build Baths from discard")
    t.finish_age()
    ev = t.turn({0: "build Aqueduct"})
    assert play_of(ev, 0).via == "chain"
