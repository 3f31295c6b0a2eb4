"""TABLESTREAM_WAIT_REPLICAS (README "What an accepted command survives"): the referee's
append is followed by WAIT on the same connection, and the outcomes are written only once
WAIT has returned. A master and a replica of the test's own (redis-server processes on free
loopback ports); the replica is stopped with SIGSTOP so that it cannot acknowledge, which
makes "not delivered while WAIT waits" a state the test looks at, not a timing.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import time

import pytest
import redis
import redis.asyncio as aioredis

from events import keys
from events.envelope import Accepted
from events.store import EventStore
from services.client import Client
from services.config import Settings, unique_consumer
from services.referee.app import RefereeService
from tests.integration.support_cluster import cluster  # noqa: F401  (fixture)
from tests.integration.support_redis import free_port, start_redis
from tests.support_toygame import GAME as TOY
from tests.integration.support_service import toy  # noqa: F401  (fixture)

START_S = 30.0


async def _replica_of(tmp, port: int, master: int) -> subprocess.Popen:
    proc = await start_redis(tmp, port, "--replicaof", "127.0.0.1", str(master), "--appendonly", "no")
    c = aioredis.from_url(f"redis://127.0.0.1:{port}/0")
    try:
        deadline = time.monotonic() + START_S
        while (await c.info("replication")).get("master_link_status") != "up":
            assert time.monotonic() < deadline, "the replica did not connect to its master"
            await asyncio.sleep(0.05)
    finally:
        await c.aclose()
    return proc


@pytest.fixture
async def pair(tmp_path):
    """(master URL, replica URL, replica process): a master with one connected replica."""
    (tmp_path / "m").mkdir()
    (tmp_path / "r").mkdir()
    mp, rp = free_port(), free_port()
    master = await start_redis(tmp_path / "m", mp, "--appendonly", "no")
    replica = await _replica_of(tmp_path / "r", rp, mp)
    try:
        yield f"redis://127.0.0.1:{mp}/0", f"redis://127.0.0.1:{rp}/0", replica
    finally:
        for p in (replica, master):
            with_cont(p)
            p.terminate()
            p.wait(10)


def with_cont(p: subprocess.Popen) -> None:
    if p.poll() is None:
        os.kill(p.pid, signal.SIGCONT)


async def _service(url: str, **kw: object) -> RefereeService:
    svc = RefereeService(Settings(redis_url=url, consumer=unique_consumer("wait"), poll_ms=20, **kw), url)  # type: ignore[arg-type]
    await svc.start()
    return svc


async def test_outcome_is_written_only_after_the_replica_acknowledged(pair, toy) -> None:
    """With WAIT 1 and the replica stopped, a command's events are on the master but its
    outcome is not written and its entry not acknowledged; once the replica runs again the
    outcome arrives, and by then the replica holds the command's events."""
    url, replica_url, replica = pair
    svc = await _service(url, wait_replicas=1, wait_timeout_ms=120_000)
    r = aioredis.from_url(url)
    rr = aioredis.from_url(replica_url)
    try:
        async with Client(r, timeout=120) as c:
            gid, tokens, out = await c.open(TOY, players=2)
            assert isinstance(out, Accepted)
            opened = await r.xlen(keys.log(0, gid))
            assert await rr.xlen(keys.log(0, gid)) == opened  # the replica had acknowledged the open
            os.kill(replica.pid, signal.SIGSTOP)
            act = asyncio.ensure_future(c.act(TOY, gid, 0, tokens[0], "add 1"))
            # The script has run: the log holds the command's event ...
            deadline = time.monotonic() + START_S
            while await r.xlen(keys.log(0, gid)) <= opened:
                assert time.monotonic() < deadline, "the referee did not append the command"
                await asyncio.sleep(0.02)
            staged = [k async for k in r.scan_iter(match="stage:{0}:*")]
            # ... its outcome and acknowledgement are staged, not written: WAIT still waits.
            assert len(staged) == 1
            assert (await r.xpending(keys.cmd(0), "referee"))["pending"] == 1
            assert not act.done()
            os.kill(replica.pid, signal.SIGCONT)
            got = await act
            assert isinstance(got, Accepted) and got.seqs == [opened + 1]
            assert await rr.xlen(keys.log(0, gid)) == opened + 1  # on the replica before the client was told
            assert (await r.xpending(keys.cmd(0), "referee"))["pending"] == 0
            assert [k async for k in r.scan_iter(match="stage:{0}:*")] == []
            assert svc.short_waits == 0 and await r.hget(keys.durability(0), "wait_short") is None
    finally:
        with_cont(replica)
        await svc.stop()
        await r.aclose()
        await rr.aclose()


async def test_a_short_wait_still_answers_and_is_counted(pair, toy, caplog) -> None:
    """The documented choice: a WAIT that times out with fewer replicas than asked does not
    hold the outcome back (the write is on the master); it is counted in durability:{s}
    (tablestream_wait_short_total) and logged."""
    url, _, replica = pair
    svc = await _service(url, wait_replicas=1, wait_timeout_ms=200)
    r = aioredis.from_url(url)
    try:
        os.kill(replica.pid, signal.SIGSTOP)
        with caplog.at_level("WARNING", logger="tablestream.referee"):
            async with Client(r, timeout=30) as c:
                gid, tokens, out = await c.open(TOY, players=2)
                assert isinstance(out, Accepted)
                got = await c.act(TOY, gid, 0, tokens[0], "add 1")
                assert isinstance(got, Accepted) and len(got.seqs) == 1
        assert svc.short_waits >= 2
        assert int(await r.hget(keys.durability(0), "wait_short")) == svc.short_waits
        from services.metrics import families, read_backlogs

        fams = {f.name: f for f in families(await read_backlogs(r, 1))}
        assert [(s.name, s.labels, s.value) for s in fams["tablestream_wait_short"].samples] == [
            ("tablestream_wait_short_total", {"shard": "0"}, svc.short_waits)]
        assert any("WAIT 1 saw 0 replica(s)" in m for m in caplog.messages)
        assert [k async for k in r.scan_iter(match="stage:{0}:*")] == []
        store = EventStore(r)
        assert [e.seq for e in await store.read(gid)][-1] == got.seqs[0]
    finally:
        with_cont(replica)
        await svc.stop()
        await r.aclose()


async def test_without_wait_nothing_is_staged(pair, toy) -> None:
    """TABLESTREAM_WAIT_REPLICAS=0 (the default): outcomes are written by the append script
    itself, even with the replica stopped."""
    url, _, replica = pair
    svc = await _service(url)
    r = aioredis.from_url(url)
    try:
        os.kill(replica.pid, signal.SIGSTOP)
        async with Client(r, timeout=30) as c:
            gid, tokens, out = await c.open(TOY, players=2)
            assert isinstance(out, Accepted)
        assert svc.short_waits == 0 and await r.hget(keys.durability(0), "wait_short") is None
    finally:
        with_cont(replica)
        await svc.stop()
        await r.aclose()


def test_wait_settings_from_the_environment() -> None:
    from services.config import from_env

    s = from_env({"TABLESTREAM_WAIT_REPLICAS": "1", "TABLESTREAM_WAIT_TIMEOUT_MS": "250"})
    assert (s.wait_replicas, s.wait_timeout_ms) == (1, 250)
    assert (from_env({}).wait_replicas, from_env({}).wait_timeout_ms) == (0, 1000)
    for bad in ({"TABLESTREAM_WAIT_REPLICAS": "-1"}, {"TABLESTREAM_WAIT_TIMEOUT_MS": "0"},
                {"TABLESTREAM_WAIT_REPLICAS": "one"}):
        with pytest.raises(ValueError, match="TABLESTREAM_WAIT"):
            from_env(bad)


async def test_wait_on_a_cluster_goes_to_the_slot_master(cluster, toy) -> None:
    """On a Redis Cluster the script, WAIT and the delivery go to the node of the shard's
    slot (FailoverCluster.same_connection): WAIT 1 is answered by that master's replica
    (no short wait), and the replica of that slot holds the events once the client is told."""
    from services.redis_client import client as redis_client

    shards = 4
    svc = await _service(cluster.url, shards=shards, wait_replicas=1, wait_timeout_ms=10_000)
    r = redis_client(cluster.url)
    try:
        async with Client(r, shards=shards, timeout=60) as c:
            for n in range(shards * 3):
                gid, tokens, out = await c.open(TOY, players=2, game_id=f"waited-{n}")
                assert isinstance(out, Accepted)
                got = await c.act(TOY, gid, 0, tokens[0], "add 1")
                assert isinstance(got, Accepted)
                log = keys.log(keys.shard_of(gid, shards), gid)
                master = r.get_node_from_key(log)
                with redis.Redis(host=master.host, port=master.port) as m:
                    info = m.info("replication")
                assert info["connected_slaves"] == 1
                with redis.Redis(host="127.0.0.1", port=int(info["slave0"]["port"])) as rep:
                    rep.execute_command("READONLY")
                    assert rep.xlen(log) == got.seqs[-1]
        assert svc.short_waits == 0
    finally:
        await svc.stop()
        await r.aclose()
