"""The text notation, the views and the rendering (issue #4: notation, render, secrecy)."""

from __future__ import annotations

import msgspec

from games.arkadia import GAME
from games.arkadia.commands import (
    DrawCard,
    EndTurn,
    PlaceBuilding,
    PlaceCastlePiece,
    PlaceWorkers,
    TakeCard,
    UseBanner,
)
from games.contract import Rejection, Seed
from games.fold import replay

from .table import Table

EXAMPLES = {
    "build farm red 10,6 r1": PlaceBuilding(form="farm", seal="red", anchor=(10, 6), rotation=1),
    "workers 3 own 10,4 11,4 neutral 12,5": PlaceWorkers(building=3, own=((10, 4), (11, 4)), neutral=((12, 5),)),
    "workers 0 neutral 1,2": PlaceWorkers(building=0, neutral=((1, 2),)),
    "castle olive 9": PlaceCastlePiece(colour="olive", square=9),
    "take trade_centre silver": TakeCard(form="trade_centre", seal="silver"),
    "draw": DrawCard(),
    "banner": UseBanner(),
    "banner exchange 4 olive 2 silver": UseBanner(olive=4, silver=2),
    "end": EndTurn(),
}


def test_examples_parse_and_format_back() -> None:
    for text, cmd in EXAMPLES.items():
        assert GAME.parse_command(text) == cmd
        assert GAME.format_command(cmd) == text


def test_lenient_forms() -> None:
    assert GAME.parse_command("Build Trade Centre OLIVE 3,4") == PlaceBuilding(
        form="trade_centre", seal="olive", anchor=(3, 4), rotation=0)
    assert GAME.parse_command("workers b2 own 1,1") == PlaceWorkers(building=2, own=((1, 1),))


def test_bad_notation() -> None:
    for text in ("", "build farm red", "build farm 1,2", "workers x own 1,2", "workers 1 1,2",
                 "castle red", "banner exchange 2", "banner exchange two red", "fly away", "draw 2"):
        out = GAME.parse_command(text)
        assert isinstance(out, Rejection) and out.code == "bad_notation", text


def test_views_hide_what_is_behind_the_screens() -> None:
    """§10: hands, held workers, seals and gold are each seat's own; the pile's order nobody's."""
    state = replay(GAME, GAME.setup(GAME.presets["3p"], Seed(b"view")))
    spectator = GAME.view(state, None)
    assert spectator.seat is None
    assert (spectator.hand, spectator.workers_held, spectator.neutral_held, spectator.seals, spectator.gold) == (
        None, None, None, None, None)
    assert spectator.deck == len(state.pile) and not hasattr(spectator, "pile")
    mine = GAME.view(state, 1)
    assert mine.hand is not None and sorted(mine.hand) == sorted(state.screens[1].hand)
    assert mine.workers_held == 3 and mine.gold == 0
    assert [s.hand_size for s in mine.seats] == [4, 4, 4]
    assert GAME.view(state, 7).seat is None  # an unknown seat sees what a spectator sees


def test_render_shows_the_board() -> None:
    t = Table(players=2, hands={0: ["farm red"]})
    t.worker(1, 12, 7)
    t.turn_to(0)
    t.ok(0, "build farm red 10,6 r0")
    text = GAME.render(GAME.view(t.state, 0))
    lines = text.splitlines()
    assert lines[0].startswith("Arkadia · 2 players")
    row6 = next(line for line in lines if line.startswith("  6 "))
    assert "00r" in row6 and "#r0" in row6  # building 0 (red token); castle square 5 (printed red, no piece)
    row7 = next(line for line in lines if line.startswith("  7 "))
    assert "(1)" in row7
    assert "your hand:" in text and "seal values: red 2 olive 2 black 2 silver 2" in text
    assert "your hand" not in GAME.render(GAME.view(t.state, None))
    msgspec.json.encode(GAME.view(t.state, None))
