"""Verify stored games: each log's hash chain, seed commitment, and its replay against the
stored views and statistics row (`projections.audit` judges; this module only reads).

Used by `tablestream verify`; returns findings per game so any door can report them.
"""

from __future__ import annotations

import redis.asyncio as aioredis

from events import keys
from events.store import EventStore
from games import registry
from projections import board
from projections.audit import verify as audit
from projections.table import advance, empty
from services.projector.runner import load_views


async def verify_games(redis: aioredis.Redis, store: EventStore, game_ids: list[str]) -> dict[str, list[str]]:
    """Per game id, its problems as sentences (empty: the game verifies). A game that is
    not there, or whose log names an unknown game type, is a finding, not an error."""
    out: dict[str, list[str]] = {}
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
        try:
            seats = board.seats(advance(empty(g, game), envs))
        except Exception:  # an imported log may not fold: the audit below says why
            seats = []
        views = await load_views(redis, s, g, seats)
        row = await redis.hget(keys.stats(game.id), g)
        out[g] = audit(game, envs, views, row)
    return out


async def all_game_ids(store: EventStore, shards: int) -> list[str]:
    """Every game id of the deployment, shard by shard."""
    ids: list[str] = []
    for s in range(shards):
        ids += await store.game_ids(s)
    return ids
