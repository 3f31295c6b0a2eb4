"""The bot policies, played purely in-process (no Redis): the greedy bot picks a legal
command, is deterministic per seed, beats random players, and is fair: its heuristic,
each game's `gain`, never changes when what its seat may not see changes."""

from __future__ import annotations

import dataclasses
import random
from statistics import mean

import pytest
from msgspec.structs import replace

from games import GAMES
from games.contract import GameDef, Rejection, Seed
from games.fold import replay
from services.bots.policies import BOTS, GreedyBot, RandomBot
from tests.unit.games.hooks import HOOKS

PRESET = {"seven_wonders": "3p", "seven_wonders_duel": "2p", "arkadia": "3p", "ora_et_labora": "3p_short_france"}
SCRAMBLE = {g: h.scramble for g, h in HOOKS.items()}


def play(game: GameDef, preset: str, seed: bytes, kinds: list[type], check_legal: bool = False):
    """One game with these bots by seat; returns the result and every (seat, command)."""
    state = replay(game, game.setup(game.presets[preset], Seed(seed)))
    bots = [kind(seed, seat) for seat, kind in enumerate(kinds)]
    moves = []
    for _ in range(20_000):
        if game.result(state) is not None:
            return game.result(state), moves
        seat = game.to_act(state)[0]
        cmd = bots[seat].choose(game, state, seat)
        if check_legal:
            assert cmd in game.legal_commands(state, seat)
        out = game.decide(state, seat, cmd)
        assert not isinstance(out, Rejection), (cmd, out)
        moves.append((seat, cmd))
        for e in out:
            state = game.evolve(state, e)
    raise AssertionError("the game did not end")


def test_every_game_has_a_gain() -> None:
    assert all(g.gain is not None for g in GAMES.values())
    assert BOTS == {"random": RandomBot, "greedy": GreedyBot}


@pytest.mark.parametrize("game", GAMES.values(), ids=lambda g: g.id)
def test_greedy_plays_legal_commands_deterministically(game: GameDef) -> None:
    players = game.presets[PRESET[game.id]].players
    kinds = [GreedyBot] * players
    first = play(game, PRESET[game.id], b"greedy-1", kinds, check_legal=True)
    again = play(game, PRESET[game.id], b"greedy-1", kinds)
    other = play(game, PRESET[game.id], b"greedy-2", kinds)
    assert first == again
    assert other[1] != first[1]


@pytest.mark.parametrize("game", GAMES.values(), ids=lambda g: g.id)
def test_greedy_beats_random(game: GameDef) -> None:
    """One greedy seat (rotating) against random seats: random's expected rank is the
    middle of the table; greedy's is clearly better."""
    preset = PRESET[game.id]
    players = game.presets[preset].players
    count = 20 if game.id != "arkadia" else 6
    ranks = []
    for i in range(count):
        me = i % players
        kinds = [GreedyBot if s == me else RandomBot for s in range(players)]
        result, _ = play(game, preset, f"match-{i}".encode(), kinds)
        ranks.append(result.ranks[me])
    assert mean(ranks) <= 1.5, ranks
    assert sum(r == 1 for r in ranks) >= count * 0.6, ranks


def test_greedy_falls_back_to_random_without_a_gain() -> None:
    game = dataclasses.replace(GAMES["seven_wonders"], gain=None)
    result, moves = play(game, "3p", b"no-gain", [GreedyBot] * 3, check_legal=True)
    assert result is not None and moves


# --- each game's gain prefers the obviously better command ------------------------------


def test_seven_wonders_gain_builds_a_five_point_blue_card_rather_than_discard_it() -> None:
    from games.seven_wonders.commands import Build, Discard

    game = GAMES["seven_wonders"]
    state = replay(game, game.setup(game.presets["3p"], Seed(b"blue")))
    hand = ("aqueduct", *[c for c in state.hands[0] if c not in ("aqueduct", "baths")][:6])
    city = replace(state.cities[0], built=("baths",))  # Aqueduct chains from Baths (§5.1)
    state = replace(state, hands=(hand, *state.hands[1:]), cities=(city, *state.cities[1:]))
    legal = game.legal_commands(state, 0)
    build = Build(card="aqueduct", left=0, right=0)
    assert build in legal and Discard(card="aqueduct") in legal
    assert game.gain(state, 0, build) == 5 * 3  # 5 VP, in coins
    assert game.gain(state, 0, Discard(card="aqueduct")) == 3
    assert max(game.gain(state, 0, c) for c in legal) == game.gain(state, 0, build)
    assert GreedyBot(b"blue", 0).choose(game, state, 0) == build


def test_arkadia_gain_completes_a_building_it_profits_from() -> None:
    from tests.unit.games.arkadia.test_completion import example_12_2

    game = GAMES["arkadia"]
    state = example_12_2().state
    completing = game.parse_command("workers 0 own 11,6")
    assert game.gain(state, 2, completing) == 6  # 2 workers + the token: 3 red seals at value 2
    assert game.gain(state, 2, game.parse_command("workers 1 own 7,2")) == 0
    choice = GreedyBot(b"arkadia", 2).choose(game, state, 2)
    assert game.gain(state, 2, choice) == max(game.gain(state, 2, c) for c in game.legal_commands(state, 2)) >= 6


def test_duel_gain_wins_by_military_supremacy() -> None:
    from games.seven_wonders_duel.commands import BuildWonder
    from games.seven_wonders_duel.events import GameEnded
    from games.seven_wonders_duel.heuristic import WIN

    game = GAMES["seven_wonders_duel"]
    state = replay(game, game.setup(game.presets["2p"], Seed(b"military")))
    rng = random.Random(1)
    while state.phase == "draft":
        seat = game.to_act(state)[0]
        for e in game.decide(state, seat, rng.choice(game.legal_commands(state, seat))):
            state = game.evolve(state, e)
    seat = game.to_act(state)[0]
    # The Colossus (2 shields) in the seat's hands with coins to spare, the pawn 8 steps
    # toward the opponent's capital: building it wins at once (§7).
    cities = [replace(c, wonders=tuple(w for w in c.wonders if w != "the_colossus")) for c in state.cities]
    cities[seat] = replace(cities[seat], wonders=("the_colossus",), coins=40)
    state = replace(state, cities=tuple(cities), pawn=8 if seat == 0 else -8)
    legal = game.legal_commands(state, seat)

    def wins(cmd) -> bool:
        out = game.decide(state, seat, cmd)
        return isinstance(out[-1], GameEnded) and out[-1].victory == "military" and out[-1].winners == (seat,)

    colossus = [c for c in legal if isinstance(c, BuildWonder)]
    assert colossus and all(wins(c) for c in colossus)
    for cmd in legal:  # a red card may win as well; everything else is worth less
        assert (game.gain(state, seat, cmd) == WIN) == wins(cmd), cmd
    assert wins(GreedyBot(b"military", seat).choose(game, state, seat))


# --- fairness ------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES.values(), ids=lambda g: g.id)
def test_gain_does_not_depend_on_hidden_information(game: GameDef) -> None:
    """Scramble every secret of the other seats (the secrecy tests' scramblers) and the
    acting seat's gain of each legal command stays the same."""
    scramble = SCRAMBLE[game.id]
    presets = {"seven_wonders": ["2p_free_city", "3p", "5p", "4p_edifice"], "seven_wonders_duel": ["2p", "2p_first_game", "2p"],
               "arkadia": ["2p", "3p", "4p"], "ora_et_labora": ["3p_short_ireland", "2p_france"]}[game.id]
    every = {"arkadia": 4, "ora_et_labora": 5}.get(game.id, 1)
    checked = 0
    for n, preset in enumerate(presets):
        rng = random.Random(n)
        state = replay(game, game.setup(game.presets[preset], Seed(f"secret-{n}".encode())))
        step = 0
        while game.result(state) is None:
            seat = game.to_act(state)[0]
            legal = game.legal_commands(state, seat)
            if step % every == 0:
                other = scramble(state, seat, rng)
                for cmd in rng.sample(legal, min(len(legal), 25)):
                    assert game.gain(state, seat, cmd) == game.gain(other, seat, cmd), (preset, seat, cmd)
                    checked += 1
            step += 1
            for e in game.decide(state, seat, rng.choice(legal)):
                state = game.evolve(state, e)
    assert checked > 1000


def test_arkadia_gain_runs_on_the_seats_own_picture_of_the_game() -> None:
    from games.arkadia.heuristic import seen_by

    game = GAMES["arkadia"]
    state = replay(game, game.setup(game.presets["4p"], Seed(b"picture")))
    rng = random.Random(4)
    for seat in range(4):
        assert seen_by(state, seat) == seen_by(SCRAMBLE["arkadia"](state, seat, rng), seat)
        assert seen_by(state, seat).screens[seat] == state.screens[seat]
