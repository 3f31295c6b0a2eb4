"""Verify stored games: each log's hash chain, seed commitment, and its replay against the
stored views and statistics row (`projections.audit` judges; this module only reads).

Used by `tablestream verify`; returns findings per game so any door can report them.
"""

from __future__ import annotations

import asyncio

import redis.asyncio as aioredis

from events import keys
from events.codec import envelope_from_fields
from events.envelope import Envelope
from events.store import EventStore
from games.contract import GameDef
from games import registry
from projections import board
from projections.audit import fold, projection
from projections.audit import verify as audit
from projections.table import Table
from services import forked
from services.projector.runner import LIVE


CHUNK = 50
"""Games read per round trip: their logs in one, then their stored views, rows, lengths
and quarantine entries in another."""


async def verify_games(redis: aioredis.Redis, store: EventStore, game_ids: list[str],
                       jobs: int = 1) -> dict[str, list[str]]:
    """Per game id, its problems as sentences (empty: the game verifies). A game that is
    not there, or whose log names an unknown game type, is a finding, not an error.

    Besides the log itself: a game the projector quarantined, and stored views or a row
    that are missing, stale or ahead of the log (`audit.projection`), judged against what
    the live projector has passed (its checkpoint and the feed entries after it: a game
    with entries still to project may lag behind by exactly those). Games are read
    `CHUNK` at a time, and each log is folded once for every check; the games are shared
    among `jobs` processes (`services.forked`), the findings given in `game_ids`' order."""
    out: dict[str, list[str]] = {}
    for part in await forked.fan_out(redis, forked.split(game_ids, jobs),
                                     lambda r, ids: _verify_part(r, EventStore(r, store.shards), ids)):
        out.update(part)
    return out


async def _verify_part(redis: aioredis.Redis, store: EventStore, game_ids: list[str]) -> dict[str, list[str]]:
    """`verify_games` in one process."""
    out: dict[str, list[str]] = {}
    pending: dict[int, dict[str, int]] = {}  # shard -> game -> lowest seq not yet projected
    chunks = [game_ids[i:i + CHUNK] for i in range(0, len(game_ids), CHUNK)]
    reading = asyncio.ensure_future(store.read_many(chunks[0])) if chunks else None
    try:
        for n, chunk in enumerate(chunks):
            assert reading is not None
            logs = await reading
            # The next chunk's logs are read while this one is judged.
            reading = asyncio.ensure_future(store.read_many(chunks[n + 1])) if n + 1 < len(chunks) else None
            await _judge(redis, store, chunk, logs, pending, out)
    except BaseException:
        if reading is not None:
            reading.cancel()
        raise
    return out


async def _judge(redis: aioredis.Redis, store: EventStore, chunk: list[str], logs: list[list[Envelope]],
                 pending: dict[int, dict[str, int]], out: dict[str, list[str]]) -> None:
    """`verify_games` on one chunk of games and their logs: findings into `out`."""
    for s in {store.shard(g) for g in chunk} - set(pending):
        pending[s] = await unprojected(redis, s)
    known: list[tuple[str, list[Envelope], GameDef, Table | None]] = []
    for g, envs in zip(chunk, logs):
        if not envs:
            out[g] = ["no such game"]
            continue
        try:
            game = registry.get(envs[0].game_type)
        except KeyError:
            out[g] = [f"the log is of an unknown game type {envs[0].game_type!r}"]
            continue
        known.append((g, envs, game, fold(game, envs)))
    stored = await _stored(redis, store, [(g, game, table) for g, _, game, table in known])
    for (g, envs, game, table), (views, row, length, reason) in zip(known, stored):
        s = store.shard(g)
        out[g] = audit(game, envs, views, row, table)
        if reason:
            out[g].append(f"quarantined by the projector: {reason.decode()}")
        lag = projection(game, envs, views, row, _projected_to(envs, pending[s].get(g)), length, table)
        if lag:  # the feed was read before this log: read both again, the log first
            envs = await store.read(g)
            fresh = await unprojected(redis, s)
            table = fold(game, envs)
            ((views, row, length, _),) = await _stored(redis, store, [(g, game, table)])
            lag = projection(game, envs, views, row, _projected_to(envs, fresh.get(g)), length, table)
        out[g] += lag


def _projected_to(envs: list[Envelope], pending_from: int | None) -> int:
    return envs[-1].seq if pending_from is None else min(pending_from - 1, envs[-1].seq)


Stored = tuple[dict[int | None, bytes | None], bytes | None, int, bytes | None]
"""A game's stored views, its row, its log's length (read after them) and its quarantine
entry."""


async def _stored(redis: aioredis.Redis, store: EventStore,
                  games: list[tuple[str, GameDef, Table | None]]) -> list[Stored]:
    """What is stored beside each game's log, in one round trip (an imported log that does
    not fold has no seats to read views of: the audit says why)."""
    pipe = redis.pipeline(transaction=False)
    audiences = []
    for g, game, table in games:
        s = store.shard(g)
        seats = board.seats(table) if table is not None else []
        audiences.append(seats)
        for seat in seats:
            pipe.hget(keys.view(s, g, seat), "doc")
        pipe.hget(keys.stats(game.id), g)
        pipe.xlen(keys.log(s, g))
        pipe.hget(keys.quarantine(s), g)
    got = iter(await pipe.execute())
    out: list[Stored] = []
    for seats in audiences:
        views = {seat: next(got) for seat in seats}
        out.append((views, next(got), next(got), next(got)))
    return out


async def unprojected(redis: aioredis.Redis, s: int) -> dict[str, int]:
    """Per game, the lowest seq in shard `s`'s feed after the live projector's checkpoint
    (the whole feed if no projector ever ran): what it has still to project."""
    got = await redis.get(keys.checkpoint(s, LIVE))
    start = "(" + got.decode() if got else "-"
    out: dict[str, int] = {}
    while rows := await redis.xrange(keys.feed(s), min=start, max="+", count=1000):
        for _, fields in rows:
            env = envelope_from_fields(fields)
            out[env.game_id] = min(out.get(env.game_id, env.seq), env.seq)
        start = "(" + rows[-1][0].decode()
    return out


async def all_game_ids(store: EventStore, shards: int) -> list[str]:
    """Every game id of the deployment, shard by shard."""
    ids: list[str] = []
    for s in range(shards):
        ids += await store.game_ids(s)
    return ids
