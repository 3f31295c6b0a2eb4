"""Secrecy cases of this game beyond the shared suite (tests/unit/games/test_secrecy.py,
which scrambles every hidden part at every position of every preset): what a seat and a
spectator are shown in named positions."""

from __future__ import annotations

from games.contract import Seed
from games.fold import replay
from games.seven_wonders import GAME


def test_spectator_sees_no_hand_and_no_choice() -> None:
    state = replay(GAME, GAME.setup(GAME.presets["4p"], Seed(b"spectator")))
    seat = GAME.to_act(state)[0]
    for e in GAME.decide(state, seat, GAME.legal_commands(state, seat)[0]):
        state = GAME.evolve(state, e)
    v = GAME.view(state, None)
    assert v.hand is None and v.choice is None and v.discard is None
    assert v.cities[seat].chosen is True
    mine = GAME.view(state, seat)
    assert mine.choice is not None and mine.hand is not None

