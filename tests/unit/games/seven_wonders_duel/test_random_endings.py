"""Random play of 7 Wonders Duel reaches each of its three victories (moved from the
per-game random-play file; the shared suite is tests/unit/games/test_random_play.py)."""

from __future__ import annotations

import random

from games.contract import Seed
from games.fold import replay
from games.seven_wonders_duel import GAME
from games.seven_wonders_duel.catalog import CATALOG
from games.seven_wonders_duel.commands import BuildCard


def test_random_games_reach_every_ending() -> None:
    """Civilian, military and scientific victories all occur in random play."""
    seen = set()
    for i in range(400):
        rng = random.Random(i)
        state = replay(GAME, GAME.setup(GAME.presets["2p"], Seed(b"end" + i.to_bytes(4, "big"))))
        while GAME.result(state) is None:
            seat = GAME.to_act(state)[0]
            cmds = GAME.legal_commands(state, seat)
            # lean on military and science so that supremacies happen
            pref = [c for c in cmds if isinstance(c, BuildCard) and CATALOG.cards[c.card].color in ("red", "green")]
            for e in GAME.decide(state, seat, rng.choice(pref or cmds)):
                state = GAME.evolve(state, e)
        seen.add(state.victory)
        if len(seen) == 3:
            break
    assert seen == {"civilian", "military", "science"}

