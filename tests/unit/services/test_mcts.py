"""The search bot (services/bots/mcts.py, issue #27) without Redis: it picks a legal
command, the same for the same seed; it reads nothing its seat cannot see (two states the
seat cannot tell apart, one a determinization of the other, get the same choice); it beats
the random bot in Duel; and the bot kinds parse (`mcts`, `mcts:N`, `mcts:Nms`)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from games.contract import Seed
from games.fold import replay
from games.registry import GAMES
from services.bots.mcts import MctsBot
from services.bots.policies import BOTS, known, player

SEARCHED = [g for g in GAMES.values() if g.determinize is not None]


def _position(game, preset: str, steps: int, seed: str):
    rng = random.Random(seed)
    state = replay(game, game.setup(game.presets[preset], Seed(seed.encode())))
    for _ in range(steps):
        if game.result(state) is not None:
            break
        seat = rng.choice(game.to_act(state))
        for e in game.decide(state, seat, rng.choice(game.legal_commands(state, seat))):
            state = game.evolve(state, e)
    return state


@pytest.mark.parametrize("game", SEARCHED, ids=[g.id for g in SEARCHED])
def test_the_choice_is_legal_seeded_and_blind_to_what_the_seat_cannot_see(game) -> None:
    preset = next(iter(game.presets))
    checked = 0
    for steps in (3, 12, 25):
        state = _position(game, preset, steps, f"mcts/{game.id}/{steps}")
        if game.result(state) is not None:
            continue
        seat = game.to_act(state)[0]
        choice = MctsBot(b"seed", seat, iterations=12).choose(game, state, seat)
        assert choice in game.legal_commands(state, seat)
        assert MctsBot(b"seed", seat, iterations=12).choose(game, state, seat) == choice
        twin = game.determinize(state, seat, random.Random(7))
        assert MctsBot(b"seed", seat, iterations=12).choose(game, twin, seat) == choice
        checked += 1
    assert checked >= 2


def test_it_beats_the_random_bot_in_duel() -> None:
    duel = GAMES["seven_wonders_duel"]
    assert duel.determinize is not None
    wins = 0.0
    for k in range(4):
        state = replay(duel, duel.setup(duel.presets["2p"], Seed(b"mcts-vs-random/%d" % k)))
        me = k % 2
        bots = [MctsBot(b"k%d" % k, s, iterations=60) if s == me else BOTS["random"](b"k%d" % k, s) for s in (0, 1)]
        while duel.result(state) is None:
            seat = duel.to_act(state)[0]
            for e in duel.decide(state, seat, bots[seat].choose(duel, state, seat)):
                state = duel.evolve(state, e)
        res = duel.result(state)
        wins += 1 / len(res.winners) if me in res.winners else 0.0
    assert wins >= 3, wins


def test_bot_kinds() -> None:
    assert isinstance(player("mcts", b"s", 0), MctsBot) and player("mcts", b"s", 0).iterations == 200
    assert player("mcts:50", b"s", 1).iterations == 50
    assert player("mcts:20ms", b"s", 1).ms == 20.0
    assert known("greedy") and known("mcts:5") and known("mcts:250ms")
    for bad in ("mcts:0", "mcts:fast", "clever", "mcts:-3", "mcts:0ms"):
        assert not known(bad), bad
        with pytest.raises(ValueError, match="unknown bot kind"):
            player(bad, b"s", 0)


STANDING = [(g, p) for g in GAMES.values() if g.standing is not None for p in g.presets]


@pytest.mark.parametrize("game,preset", STANDING, ids=[f"{g.id}/{p}" for g, p in STANDING])
def test_standing_is_the_final_score_at_the_end(game, preset) -> None:
    """`GameDef.standing` (how the search judges a playout it cuts short) scores the state as
    the game's own end does (Ora et Labora §10, Arkadia §8), here at the end of random games."""
    for k in range(3):
        state = _position(game, preset, 100_000, f"standing/{preset}/{k}")
        res = game.result(state)
        assert res is not None and tuple(game.standing(state)) == res.totals


def test_a_playout_stops_at_the_games_horizon() -> None:
    """A game with a `horizon` has its playouts cut after that many commands and judged by
    its standing; `horizon=0` on the bot plays them to the end."""
    ark = GAMES["arkadia"]
    assert ark.horizon > 0 and ark.standing is not None
    played = [0]

    def counting(state, seat, cmd):
        played[0] += 1
        return ark.decide(state, seat, cmd)

    game = dataclasses.replace(ark, decide=counting)
    state = _position(ark, "2p", 0, "horizon")
    end, result = MctsBot(b"h", 0)._rollout(game, state)
    assert result is None and played[0] == ark.horizon and ark.result(end) is None
    played[0] = 0
    end, result = MctsBot(b"h", 0, horizon=0)._rollout(game, state)
    assert result is not None and played[0] > ark.horizon


def test_each_commands_gain_is_judged_once_a_node() -> None:
    """Expansion orders a node's untried commands by `gain`, judged once a command and node:
    with fewer iterations than the root has commands, every expansion is at the root, so
    the gains judged are the root's commands, each once."""
    ark = GAMES["arkadia"]
    assert ark.gain is not None
    judged: list[object] = []

    def counting(state, seat, cmd):
        judged.append(cmd)
        return ark.gain(state, seat, cmd)

    game = dataclasses.replace(ark, gain=counting)
    state = _position(ark, "2p", 0, "gains")
    seat = game.to_act(state)[0]
    legal = game.legal_commands(state, seat)
    assert len(legal) > 30
    MctsBot(b"g", seat, iterations=20).choose(game, state, seat)
    assert sorted(map(repr, judged)) == sorted(map(repr, legal))
