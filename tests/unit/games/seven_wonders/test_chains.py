"""Chains and the duplicate-name rule: §4 A, §5.1, §15 #18, #24."""

from __future__ import annotations

from games.contract import Rejection
from games.seven_wonders import GAME
from games.seven_wonders.commands import Build, BuildStage, Discard
from games.seven_wonders.events import TurnResolved

from .table import Table


def play_of(t: Table, seat: int, events=None):
    tr = t.of(TurnResolved, events)[-1]
    return next(p for p in tr.plays if p.seat == seat)


def spare(t: Table, seat: int) -> str:
    return t.filler(seat).split()[1]


def test_chain_build_is_free_of_resources_and_coins() -> None:
    """§5.1: owning Scriptorium lets the player build Library (SSL) for free in Age II,
    with no resources and no coins, although the city could not pay SSL otherwise."""
    t = Table(boards=["ephesus", "babylon", "olympia"],
              plan={(0, 1): ["scriptorium"], (0, 2): ["library", "courthouse"]})
    t.turn({0: "build Scriptorium"})
    t.finish_age()
    before = t.coins()[0]
    ev = t.turn({0: "build Library"})
    p = play_of(t, 0, ev)
    assert (p.action, p.via, p.left, p.right, p.bank) == ("build", "chain", 0, 0, 0)
    assert t.coins()[0] == before
    assert "library" in t.city(0).built


def test_one_prerequisite_chains_to_both_of_its_cards() -> None:
    """§5.1: Scriptorium -> Library and Courthouse (rulebook example)."""
    t = Table(boards=["ephesus", "babylon", "olympia"],
              plan={(0, 1): ["scriptorium"], (0, 2): ["library", "courthouse"]})
    t.turn({0: "build Scriptorium"})
    t.finish_age()
    t.turn({0: "build Library"})
    ev = t.turn({0: "build Courthouse"})
    assert play_of(t, 0, ev).via == "chain"


def test_legal_commands_offer_the_chain_as_a_free_build() -> None:
    """§5.1: with the prerequisite owned, the card is offered with no payment at all."""
    t = Table(boards=["ephesus", "babylon", "olympia"], plan={(0, 1): ["scriptorium"], (0, 2): ["library"]})
    t.turn({0: "build Scriptorium"})
    t.finish_age()
    cmds = GAME.legal_commands(t.state, 0)
    assert Build(card="library", left=0, right=0) in cmds
    assert not [c for c in cmds if isinstance(c, Build) and c.card == "library" and (c.left or c.right)]


def test_either_trading_post_chains_to_forum() -> None:
    """§13: Forum chains from East Trading Post or West Trading Post (either one)."""
    t = Table(boards=["giza", "babylon", "olympia"], plan={(0, 1): ["west_trading_post"], (0, 2): ["forum"]})
    t.turn({0: "build West Trading Post"})
    t.finish_age()
    ev = t.turn({0: "build Forum"})
    assert play_of(t, 0, ev).via == "chain"


def test_a_prerequisite_built_through_a_chain_chains_again() -> None:
    """§15 #18: Altar -> Temple (chained) -> Pantheon: the prerequisite may itself have
    been built for free."""
    t = Table(boards=["giza", "babylon", "olympia"],
              plan={(0, 1): ["altar"], (0, 2): ["temple"], (0, 3): ["pantheon"]})
    t.turn({0: "build Altar"})
    t.finish_age()
    assert play_of(t, 0, t.turn({0: "build Temple"})).via == "chain"
    t.finish_age()
    coins = t.coins()[0]
    assert play_of(t, 0, t.turn({0: "build Pantheon"})).via == "chain"  # CCOGLP otherwise
    assert t.coins()[0] == coins


def test_a_neighbours_structure_is_not_a_prerequisite() -> None:
    """§5.1: the prerequisite must be in the player's own city, not a neighbour's."""
    t = Table(boards=["giza", "ephesus", "olympia"], plan={(1, 1): ["scriptorium"], (0, 2): ["library"]})
    t.turn({1: "build Scriptorium"})  # seat 1 is seat 0's LEFT neighbour
    t.finish_age()
    got = t.act(0, "build Library")
    # SSL: Giza makes S; nobody at this table makes L, so there is no way to pay
    assert isinstance(got, Rejection) and got.code == "cannot_afford"
    assert Build(card="library", left=0, right=0) not in GAME.legal_commands(t.state, 0)


def test_a_card_under_a_wonder_stage_is_not_a_prerequisite() -> None:
    """§4 B, §5.1, §15 #19: a card tucked under a stage is not a structure and cannot serve
    as a chain prerequisite."""
    t = Table(boards=["giza", "babylon", "olympia"],
              plan={(0, 1): ["stone_pit", "scriptorium"], (0, 2): ["library"]})
    t.turn({0: "build Stone Pit"})
    t.turn({0: "wonder Scriptorium"})  # Giza A stage 1 SS: board + Stone Pit
    assert t.city(0).stages == 1 and "scriptorium" not in t.city(0).built
    t.finish_age()
    got = t.act(0, "build Library")
    assert isinstance(got, Rejection) and got.code == "cannot_afford"


def test_a_chain_never_allows_a_duplicate() -> None:
    """§15 #18, §4 A: with Apothecary and Dispensary owned, the second Dispensary (the
    4-player deck has two; the hand returns at turn 5) is refused although the chain
    condition still holds."""
    t = Table(boards=["halicarnassus", "babylon", "olympia", "rhodes"],
              plan={(0, 1): ["apothecary"], (0, 2): ["dispensary", None, None, None, "dispensary"]})
    t.turn({0: "build Apothecary"})  # L from the board
    t.finish_age()
    assert t.state.hands[0].count("dispensary") == 2
    assert play_of(t, 0, t.turn({0: "build Dispensary"})).via == "chain"
    t.turns(3)
    got = t.act(0, "build Dispensary")
    assert isinstance(got, Rejection) and got.code == "duplicate_structure"
    assert not [c for c in GAME.legal_commands(t.state, 0) if isinstance(c, Build) and c.card == "dispensary"]


def test_loom_of_age_one_blocks_loom_of_age_two() -> None:
    """§4 A, §1: same name = same structure across ages: an Age II Loom cannot be built
    in a city that has the Age I Loom."""
    t = Table(boards=["giza", "babylon", "olympia"], plan={(0, 1): ["loom_1"], (0, 2): ["loom_2"]})
    t.turn({0: "build Loom"})
    t.finish_age()
    got = t.act(0, "build Loom")
    assert isinstance(got, Rejection) and got.code == "duplicate_structure"
    cmds = GAME.legal_commands(t.state, 0)
    assert not [c for c in cmds if isinstance(c, Build) and c.card == "loom"]
    assert Discard(card="loom") in cmds
    # the card may still be used for a stage or discarded
    t.turn({0: "discard Loom"})
    assert t.city(0).built.count("loom_1") == 1 and "loom_2" not in t.city(0).built


def test_two_copies_in_one_hand_only_one_can_be_built() -> None:
    """§15 #24, §4 A: the 4-player deck holds two Lumber Yards; dealt in one hand, one is
    built and the other, when the hand comes back (turn 5), can only go under a stage or
    be discarded."""
    t = Table(boards=["olympia", "babylon", "giza", "rhodes"],
              plan={(0, 1): ["lumber_yard", None, None, None, "lumber_yard"]})
    assert t.state.hands[0].count("lumber_yard") == 2
    t.turn({0: "build Lumber Yard"})
    t.turns(3)
    assert "lumber_yard" in t.state.hands[0]
    got = t.act(0, "build Lumber Yard")
    assert isinstance(got, Rejection) and got.code == "duplicate_structure"
    cmds = GAME.legal_commands(t.state, 0)
    assert not [c for c in cmds if isinstance(c, Build) and c.card == "lumber_yard"]
    assert any(isinstance(c, BuildStage) and c.card == "lumber_yard" for c in cmds)
    t.turn({0: "wonder Lumber Yard"})  # Olympia A stage 1 WW: board W + the built Lumber Yard
    assert t.city(0).stages == 1 and t.city(0).built.count("lumber_yard") == 1
