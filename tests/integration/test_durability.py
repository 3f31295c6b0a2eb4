"""What an accepted command survives: a Redis restart with deploy/redis.conf (AOF everysec)."""

from __future__ import annotations

import asyncio
import os
import subprocess

import pytest
import redis.asyncio as aioredis

from events.envelope import Accepted
from events.store import EventStore
from projections.audit import verify
from services.client import Client
from services.config import Settings, unique_consumer
from services.referee.app import RefereeService

from games.seven_wonders import GAME as sw
from bench.machine import server_binary
from tests.integration.support_redis import CONF, free_port as _free_port, start_redis as _start


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


START = CONF.parent / "start-redis.sh"


async def _start_deployed(tmp, port: int) -> subprocess.Popen:
    """Redis started by the deployment procedure (deploy/start-redis.sh), once it answers."""
    env = {**os.environ, "REDIS_SERVER": server_binary()}
    p = subprocess.Popen([str(START), str(tmp), "--port", str(port), "--bind", "127.0.0.1"], env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    c = aioredis.from_url(f"redis://127.0.0.1:{port}/0")
    try:
        for _ in range(200):
            try:
                await c.ping()
                return p
            except Exception:
                assert p.poll() is None, "the deployed Redis did not start"
                await asyncio.sleep(0.05)
    finally:
        await c.aclose()
    raise AssertionError("the deployed Redis did not answer")


async def _stop(p: subprocess.Popen) -> None:
    p.terminate()  # SIGTERM: Redis writes and fsyncs its AOF and exits
    await asyncio.get_running_loop().run_in_executor(None, p.wait, 20)


SCRIPT = "for i = 1, #KEYS do redis.call('SET', KEYS[i], ARGV[1]) end return #KEYS"


async def test_an_aof_cut_inside_a_script_block_never_loads_half_of_it(tmp_path):
    """Issue #22 item 3 (deployment): Redis 7.0 with `aof-load-truncated yes` dropped a cut
    MULTI/EXEC block on the first restart but left its MULTI, and a later restart loaded
    half of the block ("MULTI calls can not be nested"). With deploy/redis.conf and
    deploy/start-redis.sh: a torn AOF does not load as it is, the procedure cuts it back to
    its last whole block, and two later restarts keep every write made after that and none
    of the cut script's."""
    port = _free_port()
    url = f"redis://127.0.0.1:{port}/0"
    proc = await _start_deployed(tmp_path, port)
    r = aioredis.from_url(url)
    await r.set("before", 1)
    assert await r.eval(SCRIPT, 3, "k1", "k2", "k3", "torn") == 3
    await r.aclose()
    await _stop(proc)
    # Cut the AOF inside the script's block: after its MULTI and first writes, before EXEC.
    incr = next((tmp_path / "appendonlydir").glob("*.incr.aof"))
    data = incr.read_bytes()
    multi, end = data.rindex(b"MULTI"), data.rindex(b"EXEC")
    assert data.count(b"k1", multi) == 1 and data.index(b"k2", multi) < end
    incr.write_bytes(data[:data.index(b"k3", multi) - 4])
    # The server alone (deploy/redis.conf) refuses the torn file instead of loading it.
    plain = subprocess.Popen([server_binary(), str(CONF), "--port", str(port), "--dir", str(tmp_path),
                              "--bind", "127.0.0.1"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        refused = plain.wait(20) != 0
    except subprocess.TimeoutExpired:  # it loaded the torn file and is serving
        plain.kill()
        plain.wait(10)
        refused = False
    assert refused, "redis-server with deploy/redis.conf loaded an AOF cut inside a MULTI block"
    proc = await _start_deployed(tmp_path, port)
    try:
        assert list(tmp_path.glob("appendonlydir.torn-*")), "no copy of the torn AOF was kept"
        r = aioredis.from_url(url)
        assert await r.get("before") == b"1" and await r.mget("k1", "k2", "k3") == [None, None, None]
        assert await r.eval(SCRIPT, 2, "m1", "m2", "later") == 2
        await r.set("after", 1)
        await r.aclose()
        for _ in range(2):  # restarted twice: the later writes stay, the cut block stays out
            await _stop(proc)
            proc = await _start_deployed(tmp_path, port)
            r = aioredis.from_url(url)
            assert await r.mget("before", "after", "m1", "m2") == [b"1", b"1", b"later", b"later"]
            assert await r.mget("k1", "k2", "k3") == [None, None, None]
            await r.aclose()
    finally:
        proc.kill()
        proc.wait(10)
