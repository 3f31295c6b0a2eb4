"""Finished games made in memory with the rules' own functions: each log is what the referee
would write (GameOpened, SeatsTaken when players are named, the setup from a seed, random
legal commands decided by the game, SeedRevealed), hash-chained. For the dashboard
benchmark and for tests that need many finished games fast (they land them through the
real store, as `tablestream import` does)."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator

import msgspec

from events.chain import GENESIS, link
from events.codec import META
from events.envelope import Envelope
from events.meta import GameOpened, SeatPlayer, SeatsTaken, SeedRevealed
from games.contract import GameDef, Seed
from games.rng import RNG_NAME, seed_commitment
from projections.table import codec

DAY_MS = 86_400_000


def finished_log(game: GameDef, game_id: str, preset: str, seed: int, start_ms: int, tokens: list[str] | None = None,
                 players: list[SeatPlayer] | None = None, max_commands: int = 5000) -> list[Envelope]:
    """One whole game of random legal moves; `tokens` (one per seat) are the seats' tokens
    whose hashes the opening records (default: unusable ones); `players`, who holds each
    seat (logged as SeatsTaken after the opening, as the referee does when told)."""
    rnd = random.Random(seed)
    deal = hashlib.sha256(f"{game_id}:{seed}".encode()).digest()
    opts = game.presets[preset]
    hashes = [hashlib.sha256(t.encode()).hexdigest() for t in tokens] if tokens else ["x" * 64] * opts.players
    opened = GameOpened(game_type=game.id, players=opts.players, options=msgspec.Raw(msgspec.json.encode(opts)),
                        preset=preset, rules_version=game.rules_version, seed_commitment=seed_commitment(deal),
                        rng=RNG_NAME, seat_token_hashes=hashes, fixture=False)
    cdc = codec(game)
    envs: list[Envelope] = []
    clock = start_ms

    def seal(events: list, command_id: str, seat: int) -> None:
        nonlocal clock
        clock += rnd.randrange(200, 4000)
        for ev in events:
            tag, v, data = META.encode(ev) if isinstance(ev, (GameOpened, SeedRevealed, SeatsTaken)) else cdc.encode(ev)
            envs.append(link(envs[-1].hash if envs else GENESIS, game_id=game_id, game_type=game.id, seq=len(envs) + 1,
                             type=tag, v=v, time=clock, command_id=command_id, seat=seat, data=data))

    state = game.initial
    setup = list(game.setup(opts, Seed(deal)))
    for ev in setup:
        state = game.evolve(state, ev)
    seated = [SeatsTaken(seats=players)] if players else []
    seal([opened, *seated, *setup], f"{game_id}:open", -1)
    for n in range(max_commands):
        if game.result(state) is not None:
            break
        seat = rnd.choice(list(game.to_act(state)))
        out = game.decide(state, seat, rnd.choice(list(game.legal_commands(state, seat))))
        assert isinstance(out, (list, tuple)) and out, out
        for ev in out:
            state = game.evolve(state, ev)
        seal(list(out), f"{game_id}:{n}", seat)
    assert game.result(state) is not None, f"{game_id} did not end in {max_commands} commands"
    seal([SeedRevealed(seed=deal.hex())], f"{game_id}:end", -1)
    return envs


NAMES = ("Ada", "Grace", "Alan", "Edsger", "Barbara")
"""The players of imported games: names given in a lobby, and two bot kinds."""


def _players(rnd: random.Random, n: int) -> list[SeatPlayer]:
    pool = [SeatPlayer(kind="name", id=name, name=name) for name in NAMES]
    pool += [SeatPlayer(kind="bot", id=k, name=f"{k} bot") for k in ("random", "greedy")]
    return rnd.sample(pool, n)


def finished_logs(game: GameDef, n: int, preset: str, now_ms: int, days: int = 5, prefix: str = "t",
                  named: bool = True) -> Iterator[list[Envelope]]:
    """`n` finished games started over the `days` days before `now_ms`, each seat held by
    one of `NAMES` or a bot kind (`named`; else the log names no players)."""
    for i in range(n):
        players = _players(random.Random(i), game.presets[preset].players) if named else None
        yield finished_log(game, f"{prefix}-{game.id}-{i:05d}", preset, seed=i,
                           start_ms=now_ms - (i % days) * DAY_MS - 3_600_000, players=players)
