"""What an accepted command survives: a Redis restart with deploy/redis.conf (AOF everysec)."""

from __future__ import annotations

import asyncio

import pytest
import redis.asyncio as aioredis

from events.envelope import Accepted
from events.store import EventStore
from projections.audit import verify
from services.client import Client
from services.config import Settings, unique_consumer
from services.referee.app import RefereeService

from games.seven_wonders import GAME as sw
from tests.integration.support_redis import free_port as _free_port, start_redis as _start


@pytest.mark.parametrize("how", ["shutdown", "kill"])
async def test_accepted_commands_survive_a_redis_restart(tmp_path, how):
    port = _free_port()
    url = f"redis://127.0.0.1:{port}/0"
    proc = await _start(tmp_path, port)
    try:
        svc = RefereeService(Settings(redis_url=url, consumer=unique_consumer("dur"), poll_ms=20), url)
        await svc.start()
        r = aioredis.from_url(url)
        async with Client(r, timeout=10) as c:
            gid, tokens, out = await c.open(sw, preset="3p")
            assert isinstance(out, Accepted)
            store = EventStore(r)
            from projections.table import advance, empty

            st = advance(empty(gid, sw), await store.read(gid)).state
            accepted = [await c.act(sw, gid, s, tokens[s], sw.legal_commands(st, s)[0]) for s in (0, 1)]
            assert all(isinstance(a, Accepted) for a in accepted)
        before = await store.read(gid)
        await svc.stop()
        await r.aclose()
        if how == "shutdown":
            proc.terminate()  # SIGTERM: Redis flushes the AOF and exits
        else:
            await asyncio.sleep(1.5)  # appendfsync everysec: acknowledged > 1 s ago is on disk
            proc.kill()
        proc.wait(10)
        proc = await _start(tmp_path, port)
        r = aioredis.from_url(url)
        after = await EventStore(r).read(gid)
        await r.aclose()
        assert after == before and verify(sw, after) == []
    finally:
        proc.kill()
        proc.wait(10)
