"""`GameDef.determinize` conformance, for every game and preset (issue #27; each game's own
test checks its hidden parts in detail, tests/unit/games/<game>/test_determinize.py): at
positions of a random game, for every seat, a determinization shows the seat exactly what
the state shows it (view, legal commands, seats to act), and it depends on nothing else:
two states the seat cannot tell apart determinize alike under the same random draws."""

from __future__ import annotations

import random

import msgspec
import pytest

from games.contract import Seed
from games.fold import replay
from games.registry import GAMES
from tests.unit.games.hooks import HOOKS, cases

SEARCHED = [(g, p) for g, p in cases() if GAMES[g].determinize is not None]


@pytest.mark.parametrize("game_id,preset", SEARCHED)
def test_a_determinization_is_what_the_seat_sees_and_nothing_more(game_id: str, preset: str) -> None:
    game = GAMES[game_id]
    enc = msgspec.json.encode
    rng = random.Random(f"determinize/{game_id}/{preset}")
    state = replay(game, game.setup(game.presets[preset], Seed(HOOKS[game_id].seed(preset, 4_000_000))))
    step = checked = 0
    while game.result(state) is None:
        if step % 7 == 0:
            for seat in range(state.players):
                d = game.determinize(state, seat, random.Random(step))
                assert enc(game.view(d, seat)) == enc(game.view(state, seat)), (preset, step, seat)
                assert game.legal_commands(d, seat) == game.legal_commands(state, seat), (preset, step, seat)
                assert game.to_act(d) == game.to_act(state), (preset, step, seat)
                twin = game.determinize(state, seat, random.Random(step + 1))
                assert game.determinize(twin, seat, random.Random(99)) == game.determinize(state, seat,
                                                                                          random.Random(99))
                checked += 1
        seat = rng.choice(game.to_act(state))
        for e in game.decide(state, seat, rng.choice(game.legal_commands(state, seat))):
            state = game.evolve(state, e)
        step += 1
    assert checked > 5, checked
