"""The text notation (games/seven_wonders_duel/notation.py) and the view rendering."""

from __future__ import annotations

import pytest

from games.contract import Rejection
from games.seven_wonders_duel import GAME
from games.seven_wonders_duel.commands import (
    BuildCard,
    BuildFromDiscard,
    BuildWonder,
    ChooseProgressToken,
    ChooseStartPlayer,
    DestroyCard,
    DiscardCard,
    DraftWonder,
)

from .table import Table


@pytest.mark.parametrize("text,cmd", [
    ("draft Pyramids", DraftWonder(wonder="the_pyramids")),
    ("draft the great library", DraftWonder(wonder="the_great_library")),
    ("build Lumber Yard", BuildCard(card="lumber_yard")),
    ("build lumber_yard", BuildCard(card="lumber_yard")),
    ("discard Baths", DiscardCard(card="baths")),
    ("wonder Pyramids with Baths", BuildWonder(wonder="the_pyramids", card="baths")),
    ("wonder The Statue of Zeus with Town Hall", BuildWonder(wonder="the_statue_of_zeus", card="town_hall")),
    ("token Law", ChooseProgressToken(token="law")),
    ("destroy Quarry", DestroyCard(card="quarry")),
    ("build Temple from discard", BuildFromDiscard(card="temple")),
    ("choose start me", ChooseStartPlayer(start="me")),
    ("  choose   start opponent ", ChooseStartPlayer(start="opponent")),
])
def test_parse_and_round_trip(text: str, cmd) -> None:
    assert GAME.parse_command(text) == cmd
    assert GAME.parse_command(GAME.format_command(cmd)) == cmd


@pytest.mark.parametrize("text,code", [
    ("", "bad_notation"), ("build", "bad_notation"), ("fly Baths", "bad_notation"),
    ("build Nothing", "unknown_card"), ("draft Baths", "unknown_wonder"), ("token Baths", "unknown_token"),
    ("wonder Pyramids Baths", "bad_notation"), ("choose start later", "bad_notation"),
])
def test_bad_notation_is_a_rejection(text: str, code: str) -> None:
    out = GAME.parse_command(text)
    assert isinstance(out, Rejection) and out.code == code


def test_render_shows_face_down_cards_as_backs() -> None:
    t = Table()
    text = GAME.render(GAME.view(t.state, 0))
    assert "?age1" in text and "Age I" in text
    hidden = t.state.structures[0][2]
    assert GAME.view(t.state, None).structure[2].card is None
    assert "to act: 0" in text and hidden not in [s.card for s in GAME.view(t.state, 1).structure]
