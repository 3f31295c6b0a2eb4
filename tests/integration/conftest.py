"""Fixtures for tests against a real Redis (REDIS_URL, default redis://127.0.0.1:6379/0).

Nothing here skips: an integration run without a reachable Redis is a failure, because a
skipped append-script test proves nothing about the append script.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator

import pytest
import redis.asyncio as aioredis

# The service fixtures (a flushed test database, the toy game, in-process referees) for
# every integration module, so that no module imports fixtures by name.
from tests.integration.support_service import r, referee_factory, toy

__all__ = ["redis", "r", "referee_factory", "toy"]

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")


@pytest.fixture
async def redis() -> AsyncIterator[aioredis.Redis]:
    """A client of the real Redis at REDIS_URL (bytes responses); fails if it is down."""
    client = aioredis.from_url(REDIS_URL)
    try:
        await client.ping()
    except Exception as e:  # any failure to reach Redis must read as one clear message
        await client.aclose()
        pytest.fail(
            f"integration tests need a real Redis at REDIS_URL={REDIS_URL!r}, "
            f"which did not answer PING: {e!r}",
            pytrace=False,
        )
    yield client
    await client.aclose()
