"""The conformance suite: every registered game honours the contract (STYLE 3.5)."""

from __future__ import annotations

import random
from pathlib import Path

import msgspec
import pytest

from games.contract import Decided, GameDef, Rejection, Result, Seed
from games.fold import replay
from games.registry import GAMES

ROOT = Path(__file__).resolve().parents[3]
CASES = [(g, p) for g in GAMES.values() for p in g.presets]


CATALOG_ONLY: set[str] = set()
"""Game folders that hold only their catalog so far (no rules engine, not registered; README)."""


def test_every_game_folder_is_registered() -> None:
    folders = {p.name for p in (ROOT / "games").iterdir() if (p / "__init__.py").exists()}
    assert folders == set(GAMES) | CATALOG_ONLY
    assert not CATALOG_ONLY & set(GAMES)
    for gid in [*GAMES, *CATALOG_ONLY]:
        assert (ROOT / "seeds" / gid).is_dir(), f"seeds/{gid} is missing"


@pytest.mark.parametrize("game", GAMES.values(), ids=lambda g: g.id)
def test_definition_is_complete(game: GameDef) -> None:
    assert game.rules_version >= 1
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
        folds = []
        for e in out:
            assert dec.decode(enc.encode(e)) == e, "event does not round-trip the codec"
            state = game.evolve(state, e)
            folds.append(state)
        if isinstance(out, Decided):  # the shell takes these states instead of folding (games.fold.after)
            assert out.state == state, "Decided.state is not the fold of decide's events"
            assert list(out.states) == folds, "Decided.states are not the fold after each of decide's events"
        events += out
    else:
        pytest.fail("game did not finish")
    return events, state


@pytest.mark.parametrize("game,preset", CASES, ids=lambda x: getattr(x, "id", x))
def test_preset_plays_to_the_end_and_replays(game: GameDef, preset: str) -> None:
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


@pytest.mark.parametrize("game", GAMES.values(), ids=lambda g: g.id)
def test_evolve_never_mutates_its_input(game: GameDef) -> None:
    preset = next(iter(game.presets))
    events, _ = _play(game, preset, seed=7, check_every=50)
    state = game.initial
    for e in events:
        before = msgspec.json.encode(state)
        new = game.evolve(state, e)
        assert msgspec.json.encode(state) == before
        state = new


@pytest.mark.parametrize("game", GAMES.values(), ids=lambda g: g.id)
def test_setup_is_deterministic_from_the_seed(game: GameDef) -> None:
    preset = next(iter(game.presets))
    a = game.setup(game.presets[preset], Seed(b"same seed"))
    b = game.setup(game.presets[preset], Seed(b"same seed"))
    c = game.setup(game.presets[preset], Seed(b"other seed"))
    assert a == b and a != c


@pytest.mark.parametrize("game", GAMES.values(), ids=lambda g: g.id)
def test_to_act_and_view_are_total_between_the_events_of_one_command(game: GameDef) -> None:
    """A projector may fold a feed batch that ends inside a command: every state reached
    event by event must answer to_act, view and render without raising."""
    preset = next(iter(game.presets))
    events, _ = _play(game, preset, seed=11, check_every=10_000)
    state = game.initial
    seats = (None, *range(game.presets[preset].players))
    for e in events:
        state = game.evolve(state, e)
        game.to_act(state)
        for seat in seats:
            game.render(game.view(state, seat))


@pytest.mark.parametrize("game", GAMES.values(), ids=lambda g: g.id)
def test_decide_refuses_before_setup_after_the_end_and_for_strangers(game: GameDef) -> None:
    """Typed rejections, never exceptions: before setup (`not_started`), after the end
    (`game_over`), for a seat that is not at the table (`unknown_seat`), and no legal
    command for anyone once the game is over."""
    preset = next(iter(game.presets))
    events, over = _play(game, preset, seed=5, check_every=10_000)
    opening = replay(game, game.setup(game.presets[preset], Seed(b"strangers")))
    seat = game.to_act(opening)[0]
    cmd = game.legal_commands(opening, seat)[0]
    assert isinstance(out := game.decide(game.initial, seat, cmd), Rejection) and out.code == "not_started"
    assert isinstance(out := game.decide(over, seat, cmd), Rejection) and out.code == "game_over"
    assert isinstance(out := game.decide(opening, 99, cmd), Rejection) and out.code == "unknown_seat"
    assert all(game.legal_commands(over, s) == [] for s in range(game.presets[preset].players))
