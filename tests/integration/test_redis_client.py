"""The service's Redis client (`services.redis_client.client`) against a real Redis."""

from __future__ import annotations

import asyncio
import uuid

import pytest
import redis.asyncio as aioredis

from services.redis_client import MAX_CONNECTIONS, client
from tests.integration.conftest import REDIS_URL

pytestmark = pytest.mark.integration


async def test_calls_beyond_the_pool_wait_for_a_connection_instead_of_failing(redis: aioredis.Redis) -> None:
    """`tablestream play` runs a hundred bots (20 games of 5) on one client by default:
    redis-py's own pool refuses the 101st call in flight (MaxConnectionsError, seen as "the
    service did not answer" in the middle of README's first command). Here more calls than
    the pool's maximum hold a connection at once (BLPOP on an empty list, 0.3 s each): all
    are served, the ones beyond the maximum after waiting for a free connection."""
    r = client(REDIS_URL)
    key = f"t:pool:{uuid.uuid4().hex}"
    try:
        n = MAX_CONNECTIONS + 44
        got = await asyncio.gather(*(r.blpop([key], timeout=0.3) for _ in range(n)))
        assert got == [None] * n
    finally:
        await r.aclose()
    assert not await redis.exists(key)
