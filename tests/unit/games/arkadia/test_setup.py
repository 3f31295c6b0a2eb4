"""Setup: docs/rules/arkadia.md §4, §9, §11.1 (random outcomes written into the opening event)."""

from __future__ import annotations

import pytest

from games.arkadia import GAME
from games.arkadia.catalog import CATALOG
from games.arkadia.events import GameCreated, Lot, Options
from games.arkadia.setup import Fixture
from games.contract import Seed
from games.fold import replay

from .table import fixture


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_seed_deals_four_cards_each_three_open_and_the_rest_as_the_pile(players: int) -> None:
    (created,) = GAME.setup(Options(players=players), Seed(b"deal"))
    assert isinstance(created, GameCreated)
    assert [len(h) for h in created.hands] == [4] * players and len(created.display) == 3
    assert sorted([*sum(created.hands, ()), *created.display, *created.pile]) == sorted(CATALOG.cards)
    assert 0 <= created.start < players
    state = replay(GAME, [created])
    assert state.active == created.start
    assert all(sc.workers == 3 and sc.banners == 4 and sc.neutral == 0 for sc in state.screens)
    assert state.pool == (8,) * players and state.pool_neutral == 24
    assert state.buildings == () and state.workers == ()  # §4 step 7


def test_the_lot_is_the_references_default_unless_drawn_and_the_start_seat_varies() -> None:
    """§3 ("Default: anchor [6, 4], landscape"), §15 ("[R] default"): the default options and
    presets put the castle lot there; `lot="random"` draws it from the seed (§3 [S])."""
    default = Lot(x=6, y=4, orientation="landscape")
    assert {GAME.setup(Options(players=3), Seed(bytes([i])))[0].lot for i in range(5)} == {default}
    assert {GAME.setup(GAME.presets[f"{n}p"], Seed(b"p"))[0].lot for n in (2, 3, 4)} == {default}
    lots = {GAME.setup(Options(players=3, lot="random"), Seed(bytes([i]) * 4))[0].lot for i in range(40)}
    starts = {GAME.setup(Options(players=3), Seed(bytes([i]) * 4))[0].start for i in range(40)}
    assert len(lots) > 5 and starts == {0, 1, 2}
    assert GAME.presets["3p_random_lot"].lot == "random"


def test_player_counts() -> None:
    with pytest.raises(ValueError):
        GAME.setup(Options(players=5), Seed(b"x"))
    with pytest.raises(ValueError):
        GAME.setup(Options(players=1), Seed(b"x"))


def test_fixtures_are_checked() -> None:
    good = fixture(2)
    GAME.setup(Options(players=2), good)
    bad = [
        Fixture(hands=good.hands[:1], display=good.display, pile=good.pile),
        Fixture(hands=good.hands, display=good.display[:2], pile=good.pile),
        Fixture(hands=good.hands, display=good.display, pile=good.pile[1:]),
        Fixture(hands=good.hands, display=good.display, pile=good.pile + ("c01",)),
        Fixture(hands=good.hands, display=good.display, pile=good.pile, lot=Lot(x=7, y=0, orientation="landscape")),
        Fixture(hands=good.hands, display=good.display, pile=good.pile, start=2),
    ]
    for fx in bad:
        with pytest.raises(ValueError):
            GAME.setup(Options(players=2), fx)


def test_presets() -> None:
    assert set(GAME.presets) == {"2p", "3p", "4p", "2p_random_lot", "3p_random_lot", "4p_random_lot",
                                 "2p_default_lot", "3p_default_lot", "4p_default_lot"}
    assert GAME.players == (2, 4)
