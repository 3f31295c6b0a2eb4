"""A local copy of the conformance checks of tests/unit/games/test_contract.py, run on
GAME directly (the lead registers the game; until then the shared suite cannot see it)."""

from __future__ import annotations

import random

import msgspec
import pytest

from games.contract import Rejection, Result, Seed
from games.fold import replay
from games.seven_wonders_duel import GAME


def _play(preset: str, seed: int, check_every: int = 1):
    rng = random.Random(seed)
    events = list(GAME.setup(GAME.presets[preset], Seed(seed.to_bytes(8, "big"))))
    state = replay(GAME, events)
    enc = msgspec.json.Encoder()
    dec = msgspec.json.Decoder(GAME.events)
    for step in range(5000):
        if GAME.result(state) is not None:
            break
        seats = GAME.to_act(state)
        assert seats
        seat = rng.choice(seats)
        cmds = GAME.legal_commands(state, seat)
        assert cmds
        if step % check_every == 0:
            for cmd in cmds:
                assert not isinstance(GAME.decide(state, seat, cmd), Rejection), cmd
                assert GAME.parse_command(GAME.format_command(cmd)) == cmd
        out = GAME.decide(state, seat, rng.choice(cmds))
        assert not isinstance(out, Rejection), out
        for e in out:
            assert dec.decode(enc.encode(e)) == e
            state = GAME.evolve(state, e)
        events += out
    else:
        pytest.fail("game did not finish")
    return events, state


def test_definition_is_complete() -> None:
    assert GAME.id == "seven_wonders_duel" and GAME.rules_version >= 1 and GAME.players == (2, 2)
    assert GAME.presets and all(o.players == 2 for o in GAME.presets.values())
    for member in GAME.events.__args__:
        info = msgspec.inspect.type_info(member)
        assert isinstance(info.tag, str) and info.tag and member.version >= 1
    for member in GAME.commands.__args__:
        assert isinstance(msgspec.inspect.type_info(member).tag, str)


@pytest.mark.parametrize("preset", list(GAME.presets))
def test_preset_plays_to_the_end_and_replays(preset: str) -> None:
    events, state = _play(preset, seed=len(preset), check_every=3)
    assert replay(GAME, events) == state
    res = GAME.result(state)
    assert isinstance(res, Result) and GAME.to_act(state) == ()
    assert all(t == sum(row) for t, row in zip(res.totals, res.scores))
    assert min(res.ranks) == 1 and res.winners
    for seat in (None, 0, 1):
        msgspec.json.encode(GAME.view(state, seat))
        assert isinstance(GAME.render(GAME.view(state, seat)), str)
    assert len(GAME.facets(state)) == 2


def test_evolve_never_mutates_its_input() -> None:
    events, _ = _play("2p", seed=7, check_every=50)
    state = GAME.initial
    for e in events:
        before = msgspec.json.encode(state)
        new = GAME.evolve(state, e)
        assert msgspec.json.encode(state) == before
        state = new


def test_setup_is_deterministic_from_the_seed() -> None:
    a = GAME.setup(GAME.presets["2p"], Seed(b"same seed"))
    b = GAME.setup(GAME.presets["2p"], Seed(b"same seed"))
    c = GAME.setup(GAME.presets["2p"], Seed(b"other seed"))
    assert a == b and a != c


def test_decide_before_setup_and_after_the_end() -> None:
    out = GAME.decide(GAME.initial, 0, GAME.parse_command("build Baths"))
    assert isinstance(out, Rejection) and out.code == "not_started"
    _, state = _play("2p_first_game", seed=3, check_every=100)
    assert GAME.decide(state, 0, GAME.parse_command("build Baths")).code == "game_over"
    assert GAME.legal_commands(state, 0) == [] and GAME.legal_commands(state, 1) == []
