"""`tablestream play` waits for its in-process projectors before it ends (`catch_up`),
against a real Redis: README's first command followed by `stats` showed 0 or 6 of 20
games when the projector was behind the referee as the last game ended."""

from __future__ import annotations

import asyncio
import random
import uuid

import pytest
import redis.asyncio as aioredis

from events import keys
from events.store import EventStore
from services.cli.play import catch_up
from services.cli.shared import Runtime
from services.config import Settings
from services.projector.runner import Projector
from tests.integration.conftest import REDIS_URL
from tests.integration.test_store import events_for

pytestmark = pytest.mark.integration


async def _runtime(redis: aioredis.Redis) -> tuple[Runtime, Projector, list[str]]:
    """A runtime with one projector (not running) on a random shard whose feed holds a few
    appended commands; returns it, the projector and the keys to delete."""
    shards = 10_000
    store = EventStore(redis, shards=shards)
    projector = Projector(redis, store, random.randrange(5_000, shards), name=f"t{uuid.uuid4().hex[:8]}")
    made = [keys.feed(projector.shard), keys.games(projector.shard), keys.checkpoint(projector.shard, projector.name)]
    for _ in range(3):
        while store.shard(game_id := f"g{uuid.uuid4().hex[:10]}") != projector.shard:
            pass
        command_id = f"c{uuid.uuid4().hex[:10]}"
        assert (await store.append(game_id, expected=0, command_id=command_id,
                                   envelopes=events_for(game_id, command_id, None, 4))).status == "ok"
        made += [keys.log(projector.shard, game_id), keys.done(projector.shard, command_id)]
    rt = Runtime(Settings(redis_url=REDIS_URL), REDIS_URL, redis, store, projectors=[projector])
    return rt, projector, made


async def test_play_ends_once_its_projectors_have_projected_the_whole_feed(redis: aioredis.Redis) -> None:
    rt, projector, made = await _runtime(redis)
    stop = asyncio.Event()
    running: asyncio.Task[None] | None = None
    try:
        seen: list[int] = []
        waiting = asyncio.create_task(catch_up(rt, seen.append, patience_s=10))
        await asyncio.sleep(0.3)
        assert not waiting.done()  # the projector has not run: the feed is not projected
        assert seen == [0]  # progress is reported while it waits
        running = asyncio.create_task(projector.run(stop))
        assert await asyncio.wait_for(waiting, 10) is True
        last = (await redis.xrevrange(keys.feed(projector.shard), count=1))[0][0].decode()
        assert projector.position == last and projector.applied == 12
        assert (await redis.get(keys.checkpoint(projector.shard, projector.name))).decode() == last
    finally:
        stop.set()
        if running is not None:
            await asyncio.wait_for(running, 5)
        await redis.delete(*made)


async def test_play_gives_up_waiting_on_a_projector_that_makes_no_progress(redis: aioredis.Redis) -> None:
    rt, _, made = await _runtime(redis)
    try:
        assert await asyncio.wait_for(catch_up(rt, patience_s=0.3), 5) is False
    finally:
        await redis.delete(*made)
