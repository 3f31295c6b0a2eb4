"""The conformance checks of tests/unit/games/test_contract.py, run on Arkadia directly
(the game is registered by the lead; until then the shared suite does not see it)."""

from __future__ import annotations

import random
from pathlib import Path

import msgspec
import pytest

from games.arkadia import GAME
from games.contract import GameDef, Rejection, Result, Seed
from games.fold import replay

ROOT = Path(__file__).resolve().parents[4]


def test_seed_folder_exists() -> None:
    assert (ROOT / "seeds" / GAME.id).is_dir() and (ROOT / "games" / GAME.id / "__init__.py").exists()


def test_definition_is_complete() -> None:
    game: GameDef = GAME
    assert game.id == "arkadia" and game.rules_version >= 1
    assert game.presets and all(hasattr(o, "players") for o in game.presets.values())
    for member in game.events.__args__:
        info = msgspec.inspect.type_info(member)
        assert isinstance(info.tag, str) and info.tag, f"{member.__name__} has no explicit tag"
        assert isinstance(member.version, int) and member.version >= 1
    for member in game.commands.__args__:
        assert isinstance(msgspec.inspect.type_info(member).tag, str)


def _play(game: GameDef, preset: str, seed: int, check_every: int = 1):
    rng = random.Random(seed)
    events = list(game.setup(game.presets[preset], Seed(seed.to_bytes(8, "big"))))
    state = replay(game, events)
    enc = msgspec.json.Encoder()
    dec = msgspec.json.Decoder(game.events)
    for step in range(5000):
        if game.result(state) is not None:
            break
        seats = game.to_act(state)
        assert seats, "no seat to act before the game is over"
        seat = rng.choice(seats)
        cmds = game.legal_commands(state, seat)
        assert cmds, f"seat {seat} must act but has no legal command"
        if step % check_every == 0:
            for cmd in cmds:
                out = game.decide(state, seat, cmd)
                assert not isinstance(out, Rejection), (cmd, out)
                assert game.parse_command(game.format_command(cmd)) == cmd
        cmd = rng.choice(cmds)
        out = game.decide(state, seat, cmd)
        assert not isinstance(out, Rejection), (cmd, out)
        for e in out:
            assert dec.decode(enc.encode(e)) == e, "event does not round-trip the codec"
            state = game.evolve(state, e)
        events += out
    else:
        pytest.fail("game did not finish")
    return events, state


@pytest.mark.parametrize("preset", sorted(GAME.presets))
def test_preset_plays_to_the_end_and_replays(preset: str) -> None:
    game = GAME
    events, state = _play(game, preset, seed=len(preset), check_every=7)
    assert replay(game, events) == state, "replay from zero differs from the incremental state"
    res = game.result(state)
    assert isinstance(res, Result)
    assert game.to_act(state) == ()
    assert all(t == sum(row) for t, row in zip(res.totals, res.scores))
    assert min(res.ranks) == 1 and res.winners
    for seat in (None, *range(game.presets[preset].players)):
        msgspec.json.encode(game.view(state, seat))
        assert isinstance(game.render(game.view(state, seat)), str)
    assert set(game.summary(state)) >= {"turns", "end"}
    assert len(game.facets(state)) == game.presets[preset].players


def test_evolve_never_mutates_its_input() -> None:
    events, _ = _play(GAME, "3p", seed=7, check_every=50)
    state = GAME.initial
    for e in events:
        before = msgspec.json.encode(state)
        new = GAME.evolve(state, e)
        assert msgspec.json.encode(state) == before
        state = new


def test_setup_is_deterministic_from_the_seed() -> None:
    a = GAME.setup(GAME.presets["3p"], Seed(b"same seed"))
    b = GAME.setup(GAME.presets["3p"], Seed(b"same seed"))
    c = GAME.setup(GAME.presets["3p"], Seed(b"other seed"))
    assert a == b and a != c


def test_decide_before_setup_and_for_strangers() -> None:
    assert GAME.decide(GAME.initial, 0, GAME.parse_command("end")).code == "not_started"
    state = replay(GAME, GAME.setup(GAME.presets["2p"], Seed(b"x")))
    other = 1 - state.active
    assert GAME.decide(state, other, GAME.parse_command("end")).code == "not_your_turn"
    assert GAME.decide(state, 5, GAME.parse_command("end")).code == "unknown_seat"
    assert GAME.legal_commands(state, other) == []
