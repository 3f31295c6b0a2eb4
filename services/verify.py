"""Verify stored games: each log's hash chain, seed commitment, and its replay against the
stored views and statistics row (`projections.audit` judges; this module only reads).

Used by `tablestream verify`; returns findings per game so any door can report them.
"""

from __future__ import annotations

import redis.asyncio as aioredis

from events import keys
from events.codec import envelope_from_fields
from events.envelope import Envelope
from events.store import EventStore
from games.contract import GameDef
from games import registry
from projections import board
from projections.audit import projection
from projections.audit import verify as audit
from projections.table import advance, empty
from services.projector.runner import LIVE, load_views


async def verify_games(redis: aioredis.Redis, store: EventStore, game_ids: list[str]) -> dict[str, list[str]]:
    """Per game id, its problems as sentences (empty: the game verifies). A game that is
    not there, or whose log names an unknown game type, is a finding, not an error.

    Besides the log itself: a game the projector quarantined, and stored views or a row
    that are missing, stale or ahead of the log (`audit.projection`), judged against what
    the live projector has passed (its checkpoint and the feed entries after it: a game
    with entries still to project may lag behind by exactly those)."""
    out: dict[str, list[str]] = {}
    pending: dict[int, dict[str, int]] = {}  # shard -> game -> lowest seq not yet projected
    for g in game_ids:
        envs = await store.read(g)
        if not envs:
            out[g] = ["no such game"]
            continue
        try:
            game = registry.get(envs[0].game_type)
        except KeyError:
            out[g] = [f"the log is of an unknown game type {envs[0].game_type!r}"]
            continue
        s = store.shard(g)
        if s not in pending:
            pending[s] = await unprojected(redis, s)
        views, row, length = await _stored(redis, s, game, g, envs)
        out[g] = audit(game, envs, views, row)
        if reason := await redis.hget(keys.quarantine(s), g):
            out[g].append(f"quarantined by the projector: {reason.decode()}")
        lag = projection(game, envs, views, row, _projected_to(envs, pending[s].get(g)), length)
        if lag:  # the feed was read before this log: read both again, the log first
            envs = await store.read(g)
            fresh = await unprojected(redis, s)
            views, row, length = await _stored(redis, s, game, g, envs)
            lag = projection(game, envs, views, row, _projected_to(envs, fresh.get(g)), length)
        out[g] += lag
    return out


def _projected_to(envs: list[Envelope], pending_from: int | None) -> int:
    return envs[-1].seq if pending_from is None else min(pending_from - 1, envs[-1].seq)


async def _stored(redis: aioredis.Redis, s: int, game: GameDef, g: str,
                  envs: list[Envelope]) -> tuple[dict[int | None, bytes | None], bytes | None, int]:
    """The game's stored views and row, then its log's length (read after them)."""
    try:
        seats = board.seats(advance(empty(g, game), envs))
    except Exception:  # an imported log may not fold: the audit says why
        seats = []
    views = await load_views(redis, s, g, seats)
    row = await redis.hget(keys.stats(game.id), g)
    return views, row, await redis.xlen(keys.log(s, g))


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
