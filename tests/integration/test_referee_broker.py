"""The referee broker's client (`services.referee.broker.ReadsHeld`): its subscribers'
XREADGROUP on connections held per stream answers exactly as redis-py does, also when
reads overlap, when one is cancelled mid-block, and when the server drops the connection."""

from __future__ import annotations

import asyncio

import redis.asyncio as aioredis

from events import keys
from events.envelope import Accepted
from services.client import Client
from services.referee.broker import ReadsHeld
from tests.integration.support_service import db_url

STREAM = "test:held:stream"


def held_client() -> ReadsHeld:
    """A ReadsHeld client of the test database, made as the broker makes its own."""
    return ReadsHeld.over(aioredis.from_url(db_url()))


async def _fill(r: aioredis.Redis, n: int) -> list[bytes]:
    await r.xgroup_create(STREAM, "ga", id="0", mkstream=True)
    await r.xgroup_create(STREAM, "gb", id="0")
    return [await r.xadd(STREAM, {b"body": b"entry %d" % i, b"n": i}) for i in range(n)]


async def test_held_reads_answer_exactly_as_redis_py(r: aioredis.Redis) -> None:
    ids = await _fill(r, 5)
    held = held_client()
    try:
        for count in (3, 10):
            mine = await held.xreadgroup("ga", "c", {STREAM: ">"}, count=count, block=20)
            theirs = await r.xreadgroup("gb", "c", {STREAM: ">"}, count=count, block=20)
            assert mine == theirs
        assert [m for m, _ in mine[0][1]] == ids[3:]
        assert mine[0][1][0][1] == {b"body": b"entry 3", b"n": b"3"}
        # Nothing left: a read that blocks and times out answers an empty list, as redis-py's.
        empty = await held.xreadgroup("ga", "c", {STREAM: ">"}, count=10, block=20)
        assert empty == [] == await r.xreadgroup("gb", "c", {STREAM: ">"}, count=10, block=20)
        # The entries are pending for the reading consumer, as with any XREADGROUP.
        assert (await r.xpending(STREAM, "ga"))["pending"] == 5
        assert STREAM in held.__dict__["_held_reads"]  # the reads went on the held connection
    finally:
        await held.aclose()


async def test_overlapping_reads_of_one_stream_each_get_their_own_entries(r: aioredis.Redis) -> None:
    """Two reads in flight on one stream: the second goes through redis-py (the held
    connection is busy) and neither takes the other's reply."""
    await _fill(r, 0)
    held = held_client()
    try:
        first = asyncio.create_task(held.xreadgroup("ga", "c1", {STREAM: ">"}, count=1, block=2000))
        second = asyncio.create_task(held.xreadgroup("ga", "c2", {STREAM: ">"}, count=1, block=2000))
        await asyncio.sleep(0.1)  # both blocked on the server
        added = {await r.xadd(STREAM, {b"n": i}) for i in range(2)}
        got = await asyncio.wait_for(asyncio.gather(first, second), 5)
        read = [rows[0][1][0][0] for rows in got]
        assert set(read) == added and len(read) == 2
    finally:
        await held.aclose()


async def test_a_read_cancelled_mid_block_leaves_the_next_one_right(r: aioredis.Redis) -> None:
    """FastStream stops a subscriber by cancelling its blocked read: the held connection is
    then closed (redis-py closes a connection whose call is cancelled), so the next read
    gets its own reply, not the cancelled one's."""
    await _fill(r, 0)
    held = held_client()
    try:
        blocked = asyncio.create_task(held.xreadgroup("ga", "c", {STREAM: ">"}, count=10, block=5000))
        await asyncio.sleep(0.1)
        blocked.cancel()
        try:
            await blocked
        except asyncio.CancelledError:
            pass
        entry = await r.xadd(STREAM, {b"n": 1})
        got = await asyncio.wait_for(held.xreadgroup("ga", "c", {STREAM: ">"}, count=10, block=1000), 5)
        assert [m for m, _ in got[0][1]] == [entry]
        assert await held.xreadgroup("ga", "c", {STREAM: ">"}, count=10, block=20) == []
    finally:
        await held.aclose()


async def test_reads_go_on_after_the_server_drops_the_connection(r: aioredis.Redis) -> None:
    """A held connection the server closed (a restart, CLIENT KILL) fails the next read on
    it, which goes again through redis-py; the held connection is made anew after."""
    ids = await _fill(r, 3)
    held = held_client()
    try:
        got: list[bytes] = []
        for _ in range(3):
            rows = await held.xreadgroup("ga", "c", {STREAM: ">"}, count=1, block=100)
            got += [m for m, _ in rows[0][1]]
            await r.execute_command("CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes")
        assert got == ids
    finally:
        await held.aclose()


async def test_the_referee_reads_its_commands_through_a_held_connection(r: aioredis.Redis, toy,
                                                                       referee_factory) -> None:
    # No claimer within the test's time: the command is answered by the subscriber's read.
    svc = await referee_factory(claim_idle_ms=60_000)
    async with Client(r, timeout=5) as c:
        _, _, out = await c.open(toy, preset="2p")
        assert isinstance(out, Accepted), out
    client = svc.broker.config.broker_config.connection.client
    assert isinstance(client, ReadsHeld)
    assert keys.cmd(0) in client.__dict__["_held_reads"]
