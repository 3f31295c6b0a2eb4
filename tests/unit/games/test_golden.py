"""Golden replays (STYLE 3.8 #4): recorded command lists are replayed through `decide`; the
emitted events and the result must equal the stored files byte for byte, so any change of
behaviour is a visible diff. `pytest --update-golden` rewrites them (review the diff).

Also a perft-style count per game: the number of legal command sequences to depth 2 (3 for
Duel and Arkadia) from a fixed seed, a cheap and very sensitive check on `legal_commands`.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import msgspec
import pytest

from games.contract import Rejection, Seed
from games.fold import replay
from games.registry import GAMES

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
CASES = [("seven_wonders", "3p", b"golden-3"), ("seven_wonders", "5p_side_b", b"golden-5b"),
         ("seven_wonders", "7p", b"golden-7"), ("ora_et_labora", "3p_short_france", b"golden-oel-3s"),
         ("ora_et_labora", "1p_ireland", b"golden-oel-1"),
         ("seven_wonders_duel", "2p", b"golden-duel"),
         ("seven_wonders_duel", "2p_first_game", b"golden-duel-fg"),
         ("arkadia", "2p", b"golden-ark-2"), ("arkadia", "4p_random_lot", b"golden-ark-4r")]
PERFT_PRESET = {"seven_wonders": "3p", "ora_et_labora": "4p_france", "seven_wonders_duel": "2p_first_game",
                "arkadia": "3p"}
"""Duel's first-game wonders skip the draft, so the count walks the card structure and the wonders."""
PERFT_DEPTH = {"seven_wonders_duel": 3, "arkadia": 3}
"""Depth 2 unless listed: Duel's and Arkadia's first turns are narrow enough for depth 3."""


def _record(game_id: str, preset: str, seed: bytes) -> list[dict]:
    """A seeded random game, as notation lines (used only to (re)generate goldens)."""
    game = GAMES[game_id]
    state = replay(game, game.setup(game.presets[preset], Seed(seed)))
    rng = random.Random(seed)
    lines = []
    while game.result(state) is None:
        seat = rng.choice(game.to_act(state))
        cmd = rng.choice(game.legal_commands(state, seat))
        lines.append({"seat": seat, "command": game.format_command(cmd)})
        for e in game.decide(state, seat, cmd):
            state = game.evolve(state, e)
    return lines


def _run(game_id: str, preset: str, seed: bytes, lines: list[dict]):
    game = GAMES[game_id]
    events = list(game.setup(game.presets[preset], Seed(seed)))
    state = replay(game, events)
    for line in lines:
        cmd = game.parse_command(line["command"])
        assert not isinstance(cmd, Rejection), line
        out = game.decide(state, line["seat"], cmd)
        assert not isinstance(out, Rejection), (line, out)
        events += out
        for e in out:
            state = game.evolve(state, e)
    return events, game.result(state)


@pytest.mark.parametrize("game_id,preset,seed", CASES, ids=[f"{g}-{p}" for g, p, _ in CASES])
def test_golden_replay(game_id: str, preset: str, seed: bytes, request) -> None:
    base = GOLDEN / game_id / preset
    cmds, log, res = (base.with_suffix(s) for s in (".cmds.jsonl", ".log.jsonl", ".result.json"))
    if request.config.getoption("--update-golden"):
        base.parent.mkdir(parents=True, exist_ok=True)
        header = {"preset": preset, "seed": seed.hex()}
        lines = _record(game_id, preset, seed)
        cmds.write_text("\n".join(json.dumps(x) for x in [header, *lines]) + "\n")
        events, result = _run(game_id, preset, seed, lines)
        log.write_text("\n".join(msgspec.json.encode(e).decode() for e in events) + "\n")
        res.write_text(msgspec.json.encode(result).decode() + "\n")
    header, *lines = [json.loads(x) for x in cmds.read_text().splitlines()]
    assert header == {"preset": preset, "seed": seed.hex()}
    events, result = _run(game_id, preset, seed, lines)
    assert [msgspec.json.encode(e).decode() for e in events] == log.read_text().splitlines()
    assert msgspec.json.encode(result).decode() == res.read_text().strip()
    # the stored log alone folds to the same result (replay never re-runs decide)
    stored = [msgspec.json.decode(x, type=GAMES[game_id].events) for x in log.read_text().splitlines()]
    assert GAMES[game_id].result(replay(GAMES[game_id], stored)) == result


def _perft(game_id: str, preset: str, seed: bytes, depth: int) -> int:
    game = GAMES[game_id]
    root = replay(game, game.setup(game.presets[preset], Seed(seed)))

    def walk(state, d: int) -> int:
        if d == 0 or game.result(state) is not None:
            return 1
        seat = game.to_act(state)[0]
        total = 0
        for cmd in game.legal_commands(state, seat):
            s = state
            for e in game.decide(state, seat, cmd):
                s = game.evolve(s, e)
            total += walk(s, d - 1)
        return total

    return walk(root, depth)


@pytest.mark.parametrize("game_id", sorted({g for g, _, _ in CASES}))
def test_perft(game_id: str, request) -> None:
    path = GOLDEN / game_id / "perft.json"
    preset, depth = PERFT_PRESET[game_id], PERFT_DEPTH.get(game_id, 2)
    got = {"preset": preset, "seed": "perft", "depth": depth, "count": _perft(game_id, preset, b"perft", depth)}
    if request.config.getoption("--update-golden"):
        path.write_text(json.dumps(got) + "\n")
    assert got == json.loads(path.read_text())


def _frozen() -> list[Path]:
    return sorted(GOLDEN.glob("*/frozen/*.log.jsonl"))


@pytest.mark.parametrize("log", _frozen(), ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_frozen_logs_still_fold_to_their_result(log: Path) -> None:
    """Logs written by older code are never regenerated: they must still decode (additive
    schema changes, upcasters) and fold to the result stored beside them."""
    game = GAMES[log.parent.parent.name]
    events = [msgspec.json.decode(x, type=game.events) for x in log.read_text().splitlines()]
    result = game.result(replay(game, events))
    stored = log.with_name(log.name.replace(".log.jsonl", ".result.json")).read_text().strip()
    assert msgspec.json.encode(result).decode() == stored
