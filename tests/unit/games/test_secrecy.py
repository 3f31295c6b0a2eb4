"""Secrecy of every game in the registry and every preset, one suite: what a seat (or a
spectator) is shown never depends on what it may not see (ARCHITECTURE: hidden
information never leaks). At every position of random games, each game's scramble
(tests/unit/games/hooks/<game>.py) changes every secret the reader may not see; the
view must stay byte for byte the same, and so must its text, the seat's legal commands
and (every hooks' complete_every-th step, on a scramble decide can judge) the seat's
completion of the empty prefix. A game with nothing hidden (same_views) shows every
seat and a spectator the same view (there is nothing to scramble). A game's `views` (every
audience at once) must equal its `view` seat by seat. SECRECY_GAMES overrides the games per preset."""

from __future__ import annotations

import os
import random

import msgspec
import pytest

from games.contract import Seed
from games.fold import replay
from games.registry import GAMES
from tests.unit.games.hooks import HOOKS, cases, decide_scramble


@pytest.mark.parametrize("game_id,preset", list(cases()))
def test_what_a_seat_is_shown_does_not_depend_on_what_it_may_not_see(game_id: str, preset: str) -> None:
    game, hooks = GAMES[game_id], HOOKS[game_id]
    enc = msgspec.json.encode
    players = game.presets[preset].players
    readers = (None, *range(players))
    views = completions = batched = 0
    for n in range(int(os.environ.get("SECRECY_GAMES", str(hooks.secrecy_games)))):
        rng = random.Random(f"{game_id}/{preset}/{n}")
        state = replay(game, game.setup(game.presets[preset], Seed(hooks.seed(preset, 9_000_000 + n))))
        step = 0
        while game.result(state) is None:
            seat = rng.choice(game.to_act(state))
            if hooks.same_views:  # nothing to scramble: every reader sees the one board
                plain = [enc(msgspec.structs.replace(game.view(state, who), seat=None)) for who in readers]
                assert all(v == plain[0] for v in plain), (preset, step)
                views += len(readers)
            else:
                for who in readers:
                    other = hooks.scramble(state, who, rng)
                    view = game.view(state, who)
                    assert enc(view) == enc(game.view(other, who)), (preset, step, who)
                    assert game.render(view) == game.render(game.view(other, who)), (preset, step, who)
                    if who is not None:
                        assert game.legal_commands(state, who) == game.legal_commands(other, who), (preset, step, who)
                    views += 1
            if game.views is not None:  # every audience at once is each audience's view, and its text
                batch = game.views(state, readers)
                assert [enc(v) for v in batch] == [enc(game.view(state, who)) for who in readers], (preset, step)
                assert [game.render(v) for v in batch] == [game.render(game.view(state, who)) for who in readers]
                batched += 1
            if not hooks.same_views and step % hooks.complete_every == 0:
                other = decide_scramble(game_id)(state, seat, rng)
                assert game.complete(other, seat, "") == game.complete(state, seat, ""), (preset, step, seat)
                completions += 1
            for e in game.decide(state, seat, rng.choice(game.legal_commands(state, seat))):
                state = game.evolve(state, e)
            step += 1
    assert views > 20 * len(readers) and (hooks.same_views or completions >= 2), (views, completions)
    assert game.views is None or batched > 20, batched
