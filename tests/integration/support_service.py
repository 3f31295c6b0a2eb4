"""Fixtures for the service tests: a private Redis database, the toy game, a running referee.

The service's key names are fixed (cmd:{0}, feed:{0}, ...), so these tests use their own
database index (TS_TEST_DB, default 11) of the real Redis at REDIS_URL and flush it first:
they never see another suite's keys, and another suite's referee never eats their commands.
"""

from __future__ import annotations

import asyncio
import os
import sys
import types
from collections.abc import AsyncIterator, Callable
from urllib.parse import urlparse, urlunparse

import pytest
import redis.asyncio as aioredis

from services.config import Settings, unique_consumer
from tests.support_toygame import GAME as TOY

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
TEST_DB = int(os.environ.get("TS_TEST_DB", "11"))


def db_url(db: int = TEST_DB) -> str:
    u = urlparse(REDIS_URL)
    if u.scheme == "unix":
        return f"{REDIS_URL.split('?')[0]}?db={db}"
    return urlunparse(u._replace(path=f"/{db}"))


def registry() -> types.ModuleType:
    """games.registry, or a stand-in while the real one cannot import yet."""
    try:
        import games.registry as reg
    except ImportError:
        reg = types.ModuleType("games.registry")
        reg.GAMES = {}  # type: ignore[attr-defined]
        sys.modules["games.registry"] = reg
        import games

        games.registry = reg  # type: ignore[attr-defined]
    return reg


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch):
    """The toy game, registered for the duration of a test."""
    monkeypatch.setitem(registry().GAMES, TOY.id, TOY)
    return TOY


@pytest.fixture
async def r() -> AsyncIterator[aioredis.Redis]:
    """A client of the private, freshly flushed test database."""
    client = aioredis.from_url(db_url())
    try:
        await client.ping()
    except Exception as e:
        await client.aclose()
        pytest.fail(f"service tests need a real Redis at {REDIS_URL!r}: {e!r}", pytrace=False)
    await client.flushdb()
    yield client
    await client.aclose()


def settings(**kw: object) -> Settings:
    base: dict[str, object] = dict(redis_url=db_url(), consumer=unique_consumer("test"),
                                   claim_idle_ms=300, poll_ms=20)
    base.update(kw)
    return Settings(**base)  # type: ignore[arg-type]


@pytest.fixture
async def referee_factory() -> AsyncIterator[Callable[..., object]]:
    """Starts referee services on the test database; every one is stopped at the end."""
    from services.referee.app import RefereeService

    started: list[RefereeService] = []

    async def start(**kw: object) -> RefereeService:
        s = settings(**kw)
        svc = RefereeService(s, db_url())
        await svc.start()
        started.append(svc)
        return svc

    yield start
    for svc in started:
        try:
            await svc.stop()
        except Exception:
            pass


async def eventually(check: Callable[[], object], timeout: float = 10.0) -> None:
    """Waits until `check()` (sync or async) is truthy."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        got = check()
        if asyncio.iscoroutine(got):
            got = await got
        if got:
            return
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("condition not reached in time")
        await asyncio.sleep(0.02)
