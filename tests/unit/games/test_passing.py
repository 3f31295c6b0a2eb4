"""`GameDef.passing` (a clock's on_timeout "pass"), for every game and preset that has one:
at every position of a random game, the passing move of each seat to act is one of its legal
commands (or None), and deciding it is accepted; each game meets positions with a pass."""

from __future__ import annotations

import random

import pytest

from games.contract import Rejection, Seed
from games.fold import replay
from games.registry import GAMES
from tests.unit.games.hooks import HOOKS, cases

PASSING = [(g, p) for g, p in cases() if GAMES[g].passing is not None]


@pytest.mark.parametrize("game_id,preset", PASSING)
def test_the_passing_move_is_a_legal_command(game_id: str, preset: str) -> None:
    game = GAMES[game_id]
    rng = random.Random(f"passing/{game_id}/{preset}")
    state = replay(game, game.setup(game.presets[preset], Seed(HOOKS[game_id].seed(preset, 5_000_000))))
    passes = 0
    while game.result(state) is None:
        for seat in game.to_act(state):
            move = game.passing(state, seat)
            if move is not None:
                assert move in game.legal_commands(state, seat), (preset, seat, move)
                assert not isinstance(game.decide(state, seat, move), Rejection)
                passes += 1
        seat = rng.choice(game.to_act(state))
        for e in game.decide(state, seat, rng.choice(game.legal_commands(state, seat))):
            state = game.evolve(state, e)
    assert passes > 3, passes
    assert {GAMES[g].passing is None for g in GAMES} == {True, False}  # Arkadia has none
