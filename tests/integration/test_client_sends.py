"""The client's sends (`services.client.Client._xadd`) on a real Redis: XADDs made while one
write is under way go out together on the client's held connection, and every one lands once
and in order; after that connection is killed under the sends they all land (through
redis-py's connection, then the held one again), and the held connection goes back to the
caller's pool when the client is done."""

from __future__ import annotations

import asyncio

import pytest
import redis.asyncio as aioredis

from events import keys
from services import protocol
from services.client import Client

pytestmark = pytest.mark.integration


def _env(c: Client, n: int):
    return c.envelope(game_id="g-sends", game_type="toy", seat=0, token="t", command=b'{"n":%d}' % n,
                      command_id=f"{c.id}-{n}")


async def _landed(r: aioredis.Redis) -> list[str]:
    return [f[protocol.ID].decode() for _, f in await r.xrange(keys.cmd(0))]


async def test_concurrent_sends_land_once_each_in_order(r: aioredis.Redis) -> None:
    async with Client(r, client_id="c-sends") as c:
        writes: list[int] = []
        held = c._held

        class Counted:  # the held connection, each write's XADDs counted
            async def call_many(self, calls, *a, **k):
                writes.append(len(calls))
                return await held.call_many(calls, *a, **k)

            async def release(self):
                await held.release()

        c._held = Counted()  # type: ignore[assignment]
        await asyncio.gather(*(c.send(_env(c, n)) for n in range(300)))
        assert await _landed(r) == [f"c-sends-{n}" for n in range(300)]
        assert sum(writes) == 300 and len(writes) < 10  # queued sends went out together


async def test_a_killed_connection_falls_back_and_the_connection_is_returned(r: aioredis.Redis) -> None:
    pool = r.connection_pool
    async with Client(r, client_id="c-kill") as c:
        await c.send(_env(c, 0))
        held = c._held._conn  # the connection the sends went on
        assert held is not None and held in pool._in_use_connections
        host, port = held._writer.get_extra_info("sockname")[:2]
        assert await r.client_kill_filter(addr=f"{host}:{port}") == 1  # as a dropped link leaves it
        await asyncio.gather(*(c.send(_env(c, n)) for n in range(1, 40)))
        await c.send(_env(c, 40))  # and sends go on after it
        assert await _landed(r) == [f"c-kill-{n}" for n in range(41)]
    assert c._held._conn is None and held not in pool._in_use_connections  # given back to the pool
