"""More than one shard: README "Key layout" and ARCHITECTURE.md (`{s}` is
`crc32(game_id) % SHARDS`). Games on three shards play to the end through one referee,
each game's keys on its own shard only; a process with another SHARDS is refused.
"""

from __future__ import annotations

import asyncio

import pytest

from events import keys
from events.store import EventStore
from games.seven_wonders import GAME as sw
from projections import board
from projections.audit import verify
from services.bots.driver import play_game
from services.client import Client
from services.projector.runner import Projector, load_views
from services.redis_client import ShardMismatch, check_shards

SHARDS = 3


def _one_id_per_shard() -> list[str]:
    ids: dict[int, str] = {}
    i = 0
    while len(ids) < SHARDS:
        gid = f"sharded-{i}"
        ids.setdefault(keys.shard_of(gid, SHARDS), gid)
        i += 1
    return [ids[s] for s in range(SHARDS)]


async def test_games_on_three_shards_play_to_the_end_each_on_its_own_shard(r, referee_factory):
    await referee_factory(shards=SHARDS)
    store = EventStore(r, shards=SHARDS)
    ids = _one_id_per_shard()
    async with Client(r, shards=SHARDS, timeout=20) as c:
        played = await asyncio.gather(*(play_game(c, store, sw, preset="3p", seed=b"s", game_id=gid) for gid in ids))
    for s in range(SHARDS):
        p = Projector(r, store, s, block_ms=10)
        while await p.step(block=False):
            pass
    for shard, p in enumerate(played):
        assert keys.shard_of(p.game_id, SHARDS) == shard
        assert sw.result(p.table.state) is not None and p.rejected == 0
        envs = await store.read(p.game_id)
        assert envs[-1].type == "ts.seed_revealed"
        assert await r.xlen(keys.log(shard, p.game_id)) == len(envs)
        assert [await r.exists(keys.log(o, p.game_id)) for o in range(SHARDS) if o != shard] == [0] * (SHARDS - 1)
        assert await r.zscore(keys.games(shard), p.game_id) is not None
        views = await load_views(r, shard, p.game_id, board.seats(p.table))
        assert all(v is not None for v in views.values())
        row = await r.hget(keys.stats(sw.id), p.game_id)
        assert row is not None and verify(sw, envs, views, row) == []
    assert [await r.xlen(keys.dead(s)) for s in range(SHARDS)] == [0] * SHARDS
    assert await r.get(keys.shards()) == b"3"


async def test_a_process_with_another_shard_count_is_refused_and_changes_nothing(r, referee_factory):
    await referee_factory(shards=SHARDS)
    with pytest.raises(ShardMismatch, match="laid out for SHARDS=3, this process has SHARDS=1"):
        await referee_factory(shards=1)
    assert await r.get(keys.shards()) == b"3"
    await check_shards(r, SHARDS)  # the deployment's own count passes


async def test_a_redis_with_games_beyond_the_count_is_refused_before_any_count_is_recorded(r):
    """Games written before the count was recorded: one on shard 4 means SHARDS > 4."""
    await r.zadd(keys.games(4), {"old-game": 1})
    with pytest.raises(ShardMismatch, match="holds games on shard 4"):
        await check_shards(r, 2)
    assert await r.get(keys.shards()) is None
    await check_shards(r, 5)
    assert await r.get(keys.shards()) == b"5"
