"""Edifice's Ur and Carthage (docs/rules/seven-wonders-edifice.md §2, §12): placeholder
boards (P), dealt only with the option `placeholder_boards` (Ur only with Edifice too)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from games.contract import Rejection, Seed
from games.seven_wonders import GAME
from games.seven_wonders.events import (
    EdificeFailed,
    EdificePawnTaken,
    GameCreated,
    Options,
    TurnResolved,
    WonderPick,
)
from games.seven_wonders.rules import join_refusal, stage_choices
from games.seven_wonders.scoring import shields
from games.seven_wonders.setup import Fixture, board_pool, deal

from .table import Table


def code(got) -> str | None:
    return got.code if isinstance(got, Rejection) else None


def test_the_placeholder_boards_are_off_by_default() -> None:
    """§0 and §12.2: both disabled unless asked for; Carthage in any game, Ur only with Edifice (§2)."""
    base = sorted(board_pool(Options(players=5)))
    assert len(base) == 7 and "ur" not in base and "carthage" not in base
    assert board_pool(Options(players=5, edifice=True)) == base
    assert board_pool(Options(players=5, placeholder_boards=True)) == [*base, "carthage"]
    assert board_pool(Options(players=5, edifice=True, placeholder_boards=True)) == [*base, "carthage", "ur"]
    dealt = {w.wonder for i in range(40) for w in deal(Options(players=7, placeholder_boards=True, edifice=True),
                                                          b"%d" % i).wonders}
    assert {"ur", "carthage"} <= dealt
    fx = deal(Options(players=3), b"x")
    bad = Fixture(wonders=(WonderPick("ur", "A"), *fx.wonders[1:]), deals=fx.deals)
    with pytest.raises(ValueError, match="placeholder_boards"):
        GAME.setup(Options(players=3), bad)
    created = GAME.setup(GAME.presets["5p_edifice_all_boards"], Seed(b"x"))[0]
    assert isinstance(created, GameCreated) and created.options.placeholder_boards is True


# Carthage night (side B), stage 1 = 3 ore + 1 papyrus: (a) 7 coins and 4 VP, or (b) 2 shields.
# Carthage starts with ore; it builds an Ore Vein, then a Clay Pit (ore or clay, 1 coin), and
# buys its papyrus from Ephesus (its right neighbour) for 2 coins.
BOARDS = ["carthage", "giza", "ephesus"]
PLAN = {(0, 1): ["ore_vein", "clay_pit", "altar"]}


def carthage() -> Table:
    t = Table(boards=BOARDS, sides="BAA", plan=PLAN, edifices=("money_changer", "auction_house", "gold_reserves"),
              placeholder_boards=True)
    t.turn({0: "build Ore Vein"})
    t.turn({0: "build Clay Pit"})
    return t


def test_a_carthage_stage_needs_one_of_its_alternatives() -> None:
    """§12.1: a Carthage stage offers two alternative effects; the builder picks exactly one."""
    t = carthage()
    assert code(t.act(0, "wonder Altar")) == "choose_option"
    assert code(t.act(0, "wonder Altar option 3")) == "choose_option"
    stages = [GAME.format_command(c) for c in GAME.legal_commands(t.state, 0)
              if GAME.format_command(c).startswith("wonder Altar")]
    assert stages == ["wonder Altar pay left 0 right 2 option 1", "wonder Altar pay left 0 right 2 option 2"]


def test_carthage_option_one_pays_its_coins_and_scores_its_points() -> None:
    """§12.2 Carthage night stage 1 (a): 7 coins when built, 4 VP at the end."""
    t = carthage()
    coins = t.coins()[0]
    events = t.turn({0: "wonder Altar option 1"})
    resolved = next(e for e in events if isinstance(e, TurnResolved))
    assert resolved.plays[0].option == 1 and resolved.coins[0] == 7 - 2
    assert t.coins()[0] == coins + 5
    assert t.state.cities[0].stage_options == (1,)
    assert shields(t.state.cities[0]) == 0
    ended = t.finish()
    assert ended.scores[0][ended.categories.index("wonder")] == 4


def test_carthage_option_two_gives_its_shields_and_the_choice_is_permanent() -> None:
    """§12.2 Carthage night stage 1 (b): 2 shields, for every later conflict."""
    t = carthage()
    t.turn({0: "wonder Altar option 2"})
    assert shields(t.state.cities[0]) == 2
    assert GAME.view(t.state, 1).cities[0].stage_options == (2,)
    ended = t.finish()
    assert ended.scores[0][ended.categories.index("wonder")] == 0


# Ur night (side B), stage 1 = stone + glass: take an Age I pawn from the box. Ur builds a
# Stone Pit and buys its glass from Alexandria (its left neighbour).
def ur() -> Table:
    t = Table(boards=["ur", "alexandria", "giza"], sides="BAA", plan={(0, 1): ["stone_pit", "altar", "baths"]},
              edifices=("money_changer", "auction_house", "gold_reserves"), placeholder_boards=True)
    t.turn({0: "build Stone Pit"})
    return t


def test_ur_takes_a_box_pawn_that_protects_without_using_the_participation() -> None:
    """§12.2 placeholder semantics: the box pawn makes Ur a holder (no penalty if the edifice
    fails), takes no pawn off the card and leaves Ur's own participation for this Age."""
    t = ur()
    events = t.turn({0: "wonder Altar"})
    assert [e for e in events if isinstance(e, EdificePawnTaken)] == [EdificePawnTaken(seat=0, age=1)]
    assert t.state.pawns[0] == 2 and t.state.cities[0].box_pawns == (1,)
    assert join_refusal(t.state, 0) is None  # the participation is still Ur's to use
    t.finish_age()
    failed = next(e for e in t.events if isinstance(e, EdificeFailed))
    assert failed.coins[0] == 0 and failed.debts[0] == 0  # a holder pays nothing
    assert failed.coins[1] == -2 and failed.coins[2] == -2


def test_ur_day_stage_two_asks_which_age() -> None:
    """§12.2 Ur day stage 2: a pawn of the Age of the player's choice (stage 1: 3 VP, no choice)."""
    t = Table(boards=["ur", "alexandria", "giza"], sides="AAA", plan={(0, 1): ["stone_pit"]},
              edifices=("money_changer", "auction_house", "gold_reserves"), placeholder_boards=True)
    assert stage_choices(t.state, 0) == ()
    city = replace(t.state.cities[0], stages=1)
    state = replace(t.state, cities=(city, *t.state.cities[1:]))
    assert stage_choices(state, 0) == (1, 2, 3)


def test_ur_box_pawn_semantics_come_from_the_data(monkeypatch: pytest.MonkeyPatch) -> None:
    """§0/§12.2: placeholder behaviour is kept in data (`ur_pawn_from_box`), not in code:
    with immunity switched off there, Ur's box pawn no longer spares it the penalty; with
    `uses_once_per_age_participation` on, it counts as Ur's participation of that Age."""
    from games.seven_wonders import edifice_rules

    box = edifice_rules.BOX
    monkeypatch.setattr(edifice_rules, "BOX", replace(box, grants_penalty_immunity_for_that_edifice=False,
                                                      uses_once_per_age_participation=True))
    t = ur()
    t.turn({0: "wonder Altar"})
    assert t.state.cities[0].box_pawns == (1,)
    assert join_refusal(t.state, 0) is not None
    t.finish_age()
    failed = next(e for e in t.events if isinstance(e, EdificeFailed))
    assert failed.coins[0] == -2


def test_a_box_pawn_reading_the_engine_does_not_implement_is_refused_by_the_loader() -> None:
    """The loader refuses flags the rules do not implement (a pawn off the card, a price)."""
    import json
    from pathlib import Path

    from games.seven_wonders import edifice
    from games.seven_wonders.catalog import CatalogError

    seed = Path(__file__).resolve().parents[4] / "seeds" / "seven_wonders" / "edifice.json"
    data = json.loads(seed.read_text(encoding="utf-8"))
    data["ur_pawn_from_box"]["advances_completion"] = True
    import msgspec

    with pytest.raises(CatalogError, match="ur_pawn_from_box"):
        edifice._check(msgspec.json.decode(json.dumps(data).encode(), type=edifice._File))
