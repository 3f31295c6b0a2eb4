"""Undo's premise, per game and preset: a command whose events are all quiet
(`GameDef.quiet`, README "Undo") shows nobody anything hidden, so taking it back is fair.
At every position of random games where the command played is quiet:
(a) its seat learns nothing it may not see: deciding the same command on the seat's own
    scramble (tests/unit/games/hooks/<game>.py: every secret of the seat changed) gives
    the same events (a drawn token or a revealed card would differ);
(b) no other reader learns anything it may not see: each reader's (and the spectator's)
    view after the events, folded onto that reader's scramble of the state before, is the
    view folded onto the state itself (a card turned up, the draft's next wonders shown
    would differ).
Games with nothing hidden (`same_views`) have nothing to check and are skipped by the
hooks' own flag; every other case must meet quiet commands and non-quiet ones."""

from __future__ import annotations

import random

import msgspec
import pytest

from games.contract import Seed
from games.fold import replay
from games.registry import GAMES
from tests.unit.games.hooks import HOOKS, cases, decide_scramble

HIDDEN = [(g, p) for g, p in cases() if not HOOKS[g].same_views]


def _fold(game, state, events):
    for e in events:
        state = game.evolve(state, e)
    return state


@pytest.mark.parametrize("game_id,preset", HIDDEN)
def test_a_quiet_command_shows_nobody_anything_hidden(game_id: str, preset: str) -> None:
    game, hooks = GAMES[game_id], HOOKS[game_id]
    enc = msgspec.json.encode
    players = game.presets[preset].players
    readers = (None, *range(players))
    rng = random.Random(f"undo-secrecy/{game_id}/{preset}")
    state = replay(game, game.setup(game.presets[preset], Seed(hooks.seed(preset, 7_000_000))))
    quiet = loud = 0
    while game.result(state) is None:
        seat = rng.choice(game.to_act(state))
        cmd = rng.choice(game.legal_commands(state, seat))
        events = list(game.decide(state, seat, cmd))
        s, calm = state, True
        for e in events:
            calm = calm and game.quiet(s, e)
            s = game.evolve(s, e)
        if calm:
            quiet += 1
            own = decide_scramble(game_id)(state, seat, rng)
            assert list(game.decide(own, seat, cmd)) == events, (preset, quiet, seat)
            for who in readers:
                if who == seat:
                    continue
                other = hooks.scramble(state, who, rng)
                assert enc(game.view(_fold(game, other, events), who)) == enc(game.view(s, who)), (preset, who)
        else:
            loud += 1
        state = s
    assert quiet > 5 and loud > 5, (quiet, loud)
