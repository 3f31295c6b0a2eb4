"""The gateway's `updated:{s}` subscription (`services.gateway.notices`) on a real Redis: held
only while some game is watched, each watched game poked once it is in place (a notice sent
before it took effect is not missed), and a notice wakes the game's watchers only."""

from __future__ import annotations

import asyncio
import time

import pytest
import redis.asyncio as aioredis

from events import keys
from services.gateway.notices import Notices

pytestmark = pytest.mark.integration


SHARDS = 23  # counted on the last shard's channel, which no other test's deployment uses


async def _subscribers(r: aioredis.Redis) -> int:
    ((_, n),) = await r.pubsub_numsub(keys.updates(SHARDS - 1))
    return int(n)


async def _until(r: aioredis.Redis, want: int, within: float = 3.0) -> int:
    end = time.monotonic() + within
    n = await _subscribers(r)
    while n != want and time.monotonic() < end:
        await asyncio.sleep(0.02)
        n = await _subscribers(r)
    return n


async def test_subscribed_only_while_a_game_is_watched(redis: aioredis.Redis) -> None:
    base = await _subscribers(redis)  # other clients' subscriptions, if any, stay as they are
    notices, stop = Notices(redis, SHARDS), asyncio.Event()
    task = asyncio.create_task(notices.run(stop))
    try:
        await asyncio.sleep(0.5)
        assert await _subscribers(redis) == base  # nothing watched: no subscription

        watched = notices.watch("g-watched")
        assert await _until(redis, base + 1) == base + 1
        await asyncio.wait_for(watched.wait(), 2.0)  # poked once subscribed
        watched.clear()
        other = notices.watch("g-other")
        other.clear()
        await redis.publish(keys.updates(SHARDS - 1), "g-watched")
        await asyncio.wait_for(watched.wait(), 2.0)
        await asyncio.sleep(0.1)
        assert not other.is_set()  # a notice wakes its own game's watchers only

        notices.unwatch("g-watched", watched)
        notices.unwatch("g-other", other)
        assert await _until(redis, base) == base  # nothing watched again: unsubscribed
        again = notices.watch("g-watched")
        assert await _until(redis, base + 1) == base + 1
        await asyncio.wait_for(again.wait(), 2.0)
    finally:
        stop.set()
        await asyncio.wait_for(task, 3.0)
    assert await _until(redis, base) == base
