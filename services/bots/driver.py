"""Plays whole games with bots through the service: open, then act until the result.

Each bot is an ordinary client: it holds its seat token, sends commands to cmd:{s} and
waits for their outcomes. To choose, it folds the game's log (read from Redis). Seats
that must act together (simultaneous choices) send their commands concurrently.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from events.envelope import Accepted
from events.meta import SeatPlayer
from events.store import EventStore
from games.contract import GameDef
from projections.table import Table, advance, empty
from services.bots.policies import Policy, player
from services.client import Client
from services.reconnect import retrying


@dataclass
class Played:
    """One finished game and what it took."""

    game_id: str
    table: Table
    bots: list[str]
    latencies_us: list[int] = field(default_factory=list)
    rejected: int = 0


def make_bots(kinds: Sequence[str], players: int, seed: bytes) -> list[Policy]:
    kinds = list(kinds) or ["random"]
    return [player(kinds[i % len(kinds)], seed, i) for i in range(players)]


async def play_game(client: Client, store: EventStore, game: GameDef, *, preset: str = "",
                    options: Any = None, seed: bytes = b"", bot_kinds: Sequence[str] = ("random",),
                    game_id: str | None = None, on_command: Callable[[], None] | None = None,
                    max_commands: int = 100_000) -> Played:
    n = options.players if options is not None else game.presets[preset or next(iter(game.presets))].players
    kinds = list(bot_kinds) or ["random"]
    seats = [SeatPlayer(kind="bot", id=kinds[i % len(kinds)], name=f"{kinds[i % len(kinds)]} bot") for i in range(n)]
    gid, tokens, out = await client.open(game, game_id=game_id, preset=preset, options=options, seats=seats)
    if not isinstance(out, Accepted):
        raise RuntimeError(f"could not open a game: {out}")
    bot_seed = hashlib.sha256(seed + gid.encode()).digest()
    bots = make_bots(bot_kinds, len(tokens), bot_seed)
    async def read(after_seq: int = 0) -> list[Any]:  # across a Redis restart, as the client's commands
        return await retrying(lambda: store.read(gid, after_seq=after_seq), client.timeout, f"bots of {gid}")

    table = advance(empty(gid, game), await read())
    played = Played(gid, table, [getattr(b, "name", "?") for b in bots])

    async def act(seat: int) -> None:
        bot = bots[seat]
        if getattr(bot, "slow", False):  # a search: off the event loop, the other games go on
            cmd = await asyncio.to_thread(bot.choose, game, table.state, seat)
        else:
            cmd = bot.choose(game, table.state, seat)
        t0 = time.perf_counter_ns()
        res = await client.act(game, gid, seat, tokens[seat], cmd)
        played.latencies_us.append((time.perf_counter_ns() - t0) // 1000)
        if not isinstance(res, Accepted):
            played.rejected += 1
        if on_command:
            on_command()

    sent = 0
    while game.result(table.state) is None and sent < max_commands:
        seats = game.to_act(table.state)
        if not seats:
            break
        await asyncio.gather(*(act(s) for s in seats))
        sent += len(seats)
        table = advance(table, await read(table.version))
    played.table = table
    return played
