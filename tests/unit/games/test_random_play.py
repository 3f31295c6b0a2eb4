"""Random legal play of every game in the registry and every preset, one suite: seeded
random games to their end, Hypothesis prefixes with fuzzed commands, and a fuzz of the
notation. What every game must do is checked here; what only one game has comes from
its hooks (tests/unit/games/hooks/<game>.py: invariants, refusals, fuzz language, game
counts and their knobs SW_GAMES, DUEL_GAMES, ARK_GAMES, OEL_GAMES, the *_SOAK of
`pytest -m slow`).

For every game, at every step: someone acts and has a legal command; the chosen command
is accepted; the hooks' books of each event and invariants after each command hold. At
the steps checked (hooks' check_games and check_steps; every step with recheck_legal for
the determinism): legal_commands is deterministic, every legal command is accepted and
its notation reads back to it, and the hooks' illegal commands are refused. At the end: the game ends within max_steps,
replay equals the incremental state, the log survives its JSON encoding, totals are the
sums of the scores, nobody has a legal command, and the hooks' end checks hold."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.contract import GameDef, Rejection, Seed
from games.fold import replay
from games.registry import GAMES
from tests.unit.games.hooks import HOOKS, Hooks, cases, games_per_preset, seed_base

CASES = list(cases())


def play_one(game: GameDef, hooks: Hooks, preset: str, number: int, check: bool) -> tuple[list[Any], Any]:
    """Random game `number` of `preset` to its end, checking as the docstring says."""
    rng = random.Random(number)
    events = list(game.setup(game.presets[preset], Seed(hooks.seed(preset, number))))
    state = replay(game, events)
    for step in range(hooks.max_steps):
        if game.result(state) is not None:
            break
        seats = game.to_act(state)
        assert seats, "nobody acts in a game not over"
        if hooks.one_at_a_time:
            assert len(seats) == 1, seats
            seat = seats[0]
        else:
            seat = rng.choice(seats)
        cmds = list(game.legal_commands(state, seat))
        assert cmds, "a seat that must act has no legal command"
        checked = check and step % hooks.check_steps == 0
        if checked or hooks.recheck_legal:
            assert cmds == list(game.legal_commands(state, seat)), "legal_commands is not deterministic"
        if checked:
            for cmd in cmds:
                assert not isinstance(game.decide(state, seat, cmd), Rejection), cmd
                assert game.parse_command(game.format_command(cmd)) == cmd, cmd
            for bad in hooks.illegal(state, seat, rng, cmds) if hooks.illegal else ():
                out = game.decide(state, bad[1], cmds[0]) if isinstance(bad, tuple) else game.decide(state, seat, bad)
                assert isinstance(out, Rejection), bad
        out = game.decide(state, seat, hooks.choose(cmds, rng))
        assert not isinstance(out, Rejection), out
        for e in out:
            new = game.evolve(state, e)
            if hooks.after_event:
                hooks.after_event(state, new, e)
            state = new
        events += out
        if hooks.after_command:
            hooks.after_command(state, events)
    else:
        pytest.fail(f"{game.id} {preset} game {number} did not end in {hooks.max_steps} commands")
    assert replay(game, events) == state
    assert msgspec.json.decode(msgspec.json.encode(events), type=list[game.events]) == events
    res = game.result(state)
    assert res is not None and all(t == sum(r) for t, r in zip(res.totals, res.scores))
    assert all(list(game.legal_commands(state, s)) == [] for s in range(state.players))
    if hooks.at_end:
        hooks.at_end(state, events)
    return events, state


def play_many(game_id: str, preset: str, count: int, soak: bool) -> None:
    game, hooks = GAMES[game_id], HOOKS[game_id]
    base = seed_base(game_id, preset, soak)
    every = 5 if soak else hooks.check_games
    finals = [play_one(game, hooks, preset, base + i, check=i % every == 0)[1] for i in range(count)]
    assert len(finals) == count
    if hooks.over_games:
        hooks.over_games(preset, count, finals)


def test_every_game_has_hooks() -> None:
    assert set(HOOKS) == set(GAMES)


@pytest.mark.parametrize("game_id,preset", CASES)
def test_random_games_reach_the_end(game_id: str, preset: str) -> None:
    play_many(game_id, preset, games_per_preset(game_id, preset, HOOKS[game_id].games), soak=False)


@pytest.mark.slow
@pytest.mark.parametrize("game_id,preset", CASES)
def test_random_games_soak(game_id: str, preset: str) -> None:
    play_many(game_id, preset, games_per_preset(game_id, preset, HOOKS[game_id].soak), soak=True)


@pytest.mark.parametrize("game_id", list(GAMES))
@given(seed=st.binary(min_size=4, max_size=16), data=st.data())
def test_random_prefixes_keep_the_invariants(game_id: str, seed: bytes, data) -> None:
    """Hypothesis-driven prefixes (shrinkable) of any preset: a fuzzed command from any
    seat (-1 to players) gives events or a Rejection and never raises; an accepted one
    (among legal_commands when that is the whole language) is played (always, or as
    drawn: hooks' fuzz_played), else a
    legal command is, which is accepted; the hooks' checks hold; replay equals the
    incremental state and the log survives its JSON encoding."""
    game, hooks = GAMES[game_id], HOOKS[game_id]
    preset = data.draw(st.sampled_from(sorted(game.presets)))
    players = game.presets[preset].players
    events = list(game.setup(game.presets[preset], Seed(seed)))
    state = replay(game, events)
    for _ in range(data.draw(st.integers(1, hooks.prefix_steps))):
        seats = game.to_act(state)
        seat = seats[0] if len(seats) == 1 else data.draw(st.sampled_from(seats))
        fuzz = data.draw(hooks.fuzz)
        who = data.draw(st.integers(-1, players))
        out = game.decide(state, who, fuzz)
        assert isinstance(out, (list, Rejection))
        if isinstance(out, list) and hooks.fuzz_is_legal:
            assert fuzz in game.legal_commands(state, who), fuzz
        if isinstance(out, list) and (hooks.fuzz_played or data.draw(st.booleans())):
            cmd, seat = fuzz, who  # an accepted fuzzed command is played
        else:
            cmd = data.draw(st.sampled_from(list(game.legal_commands(state, seat))))
            out = game.decide(state, seat, cmd)
            assert not isinstance(out, Rejection), out
        for e in out:
            new = game.evolve(state, e)
            if hooks.after_event:
                hooks.after_event(state, new, e)
            state = new
        events += out
        if hooks.after_command:
            hooks.after_command(state, events)
        if game.result(state) is not None:
            break
    assert replay(game, events) == state
    assert msgspec.json.decode(msgspec.json.encode(events), type=list[game.events]) == events


@pytest.mark.parametrize("game_id", list(GAMES))
@given(text=st.text(max_size=40))
def test_parse_command_never_raises(game_id: str, text: str) -> None:
    game = GAMES[game_id]
    out = game.parse_command(text)
    if not isinstance(out, Rejection):
        assert game.parse_command(game.format_command(out)) == out
