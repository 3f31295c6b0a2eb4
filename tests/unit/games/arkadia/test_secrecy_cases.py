"""Secrecy cases of this game beyond the shared suite (tests/unit/games/test_secrecy.py,
which scrambles every hidden part at every position of every preset): what a seat and a
spectator are shown in named positions."""

from __future__ import annotations

from games.arkadia import GAME
from games.contract import Seed
from games.fold import replay


def test_a_seat_sees_its_own_screen_and_nobody_elses() -> None:
    state = replay(GAME, GAME.setup(GAME.presets["4p"], Seed(b"screens")))
    for seat in range(4):
        v = GAME.view(state, seat)
        assert sorted(v.hand) == sorted(state.screens[seat].hand)
        assert (v.workers_held, v.neutral_held, v.seals, v.gold) == (3, 0, (0, 0, 0, 0), 0)
        text = GAME.render(v)
        assert "your hand" in text
    spectator = GAME.view(state, None)
    assert (spectator.hand, spectator.workers_held, spectator.neutral_held, spectator.seals, spectator.gold) == (
        None, None, None, None, None)

