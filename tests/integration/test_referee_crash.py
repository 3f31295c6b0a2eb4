"""A referee killed mid-stream, and two referees on one shard: nothing lost, nothing twice."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time

import pytest

from events import keys
from events.envelope import Accepted
from events.store import EventStore
from projections.audit import verify
from projections.table import advance, empty
from services import protocol
from events.codec import decode_outcomes
from services.bots.backlog import interleave, script_game
from services.client import Client
from tests.integration.support_service import db_url

from games.seven_wonders import GAME as sw
GAMES = int(os.environ.get("TS_CRASH_GAMES", "6"))


async def _backlog(c: Client, store: EventStore, n: int):
    tokens, scripts = {}, {}
    for i in range(n):
        gid, toks, out = await c.open(sw, preset="4p")
        assert isinstance(out, Accepted)
        tokens[gid] = toks
        table = advance(empty(gid, sw), await store.read(gid))
        scripts[gid] = script_game(sw, table, b"crash%d" % i)
    return tokens, scripts, interleave(sw, scripts, tokens, c.id)


async def _send_all(r, envs) -> None:
    pipe = r.pipeline(transaction=False)
    for e in envs:
        pipe.xadd(keys.cmd(0), protocol.command_fields(e))
    await pipe.execute()


async def _check(store: EventStore, scripts, outcomes) -> None:
    assert all(isinstance(o, Accepted) for o in outcomes), [o for o in outcomes if not isinstance(o, Accepted)][:3]
    for gid, script in scripts.items():
        envs = await store.read(gid)
        assert verify(sw, envs) == []
        # every command's events form one block: a command applied twice would show twice
        blocks = [e.command_id for i, e in enumerate(envs) if i == 0 or envs[i - 1].command_id != e.command_id]
        assert len(blocks) == len(set(blocks)) == len(script) + 1
        assert sw.result(advance(empty(gid, sw), envs).state) is not None


def _referee_process(tmp_path, name: str, consumer: str | None = None) -> subprocess.Popen:
    # Batches of 25: the backlog (a few hundred commands) is drained in many batches, so
    # the kill lands mid-drain (with the default 400 it could all go in one or two batches
    # between two looks at the outcomes, and the test would kill an idle referee).
    env = {**os.environ, "REDIS_URL": db_url(), "TABLESTREAM_CLAIM_IDLE_MS": "300", "TABLESTREAM_BATCH": "25"}
    if consumer:
        env["TABLESTREAM_CONSUMER"] = consumer
    return subprocess.Popen([sys.executable, "-m", "services.cli", "up", "--no-projector"], env=env,
                            stdout=open(tmp_path / f"{name}.out", "w"), stderr=subprocess.STDOUT)


async def _wait_alive(r, n: int) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        found = [k async for k in r.scan_iter(match="alive:referee:*")]
        if len(found) >= n:
            return
        await asyncio.sleep(0.05)
    raise AssertionError("referee process did not start")


async def test_referee_killed_mid_stream_loses_nothing_and_applies_nothing_twice(r, tmp_path):
    """Bots keep sending while the referee process is SIGKILLed; a new one takes over."""
    from services.bots.driver import play_game

    store = EventStore(r)
    a = _referee_process(tmp_path, "a")
    procs = [a]
    sent = 0

    def count() -> None:
        nonlocal sent
        sent += 1

    try:
        await _wait_alive(r, 1)

        async def killer() -> None:
            while sent < 40 * GAMES:
                await asyncio.sleep(0.002)
            os.kill(a.pid, signal.SIGKILL)  # mid-stream: commands pending, others unread
            a.wait()
            await r.delete(*[k async for k in r.scan_iter(match="alive:referee:*")] or ["none"])
            await asyncio.sleep(0.3)
            procs.append(_referee_process(tmp_path, "b"))

        async with Client(r, timeout=60) as c:
            kill = asyncio.create_task(killer())
            played = await asyncio.wait_for(asyncio.gather(*(
                play_game(c, store, sw, preset="4p", seed=b"crash%d" % i, on_command=count)
                for i in range(GAMES))), 120)
            await kill
        assert len(procs) == 2
        assert all(p.rejected == 0 for p in played)
        for p in played:
            envs = await store.read(p.game_id)
            assert verify(sw, envs) == []
            blocks = [e.command_id for i, e in enumerate(envs) if i == 0 or envs[i - 1].command_id != e.command_id]
            assert len(blocks) == len(set(blocks))
            assert sw.result(advance(empty(p.game_id, sw), envs).state) is not None
    finally:
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGINT)
                try:
                    p.wait(10)
                except subprocess.TimeoutExpired:
                    p.kill()


async def _outcomes(r, client_id: str) -> list:
    return [o for _, f in await r.xrange(keys.replies(0, client_id)) for o in decode_outcomes(f[protocol.OUTCOMES])]


@pytest.mark.parametrize("restart", ["same_consumer_name", "new_consumer_name"])
async def test_referee_killed_while_draining_a_backlog(r, tmp_path, restart):
    """Every command of many games queued at once (a game's commands one after another);
    the referee process is SIGKILLed mid-drain. The next one first judges what the dead one
    left pending (its own name's entries, or those of a consumer whose heartbeat expired),
    then the rest: every command is accepted exactly once, in its game's order."""
    store = EventStore(r)
    a = _referee_process(tmp_path, "a", consumer="ref-a")
    procs = [a]
    try:
        await _wait_alive(r, 1)
        async with Client(r, timeout=60) as c:
            tokens, scripts, envs = await _backlog(c, store, GAMES)
            base = len(await _outcomes(r, c.id))
            await _send_all(r, envs)
            deadline = time.monotonic() + 30
            while len(await _outcomes(r, c.id)) - base < len(envs) // 4:
                assert time.monotonic() < deadline, "the referee did not start draining"
                await asyncio.sleep(0.001)
            os.kill(a.pid, signal.SIGKILL)
            a.wait()
            done_before = len(await _outcomes(r, c.id)) - base
            assert done_before < len(envs), "killed too late: nothing left to drain"
            if restart == "new_consumer_name":
                while await r.exists(keys.alive("ref-a")):  # its heartbeat expires (3 s)
                    await asyncio.sleep(0.1)
            procs.append(_referee_process(tmp_path, "b", consumer="ref-a" if restart == "same_consumer_name" else "ref-b"))
            while len(await _outcomes(r, c.id)) - base < len(envs):
                assert time.monotonic() < deadline + 60, "commands were lost"
                await asyncio.sleep(0.05)
            outcomes = (await _outcomes(r, c.id))[base:]
        by_id = {}
        for o in outcomes:
            by_id.setdefault(o.command_id, o)
        assert set(by_id) == {e.command_id for e in envs}
        await _check(store, scripts, list(by_id.values()))
    finally:
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGINT)
                try:
                    p.wait(10)
                except subprocess.TimeoutExpired:
                    p.kill()


async def test_two_referees_on_one_shard(r, referee_factory):
    """Simultaneous choices of one game land on both referees: conflicts are re-decided."""
    from services.bots.driver import play_game

    store = EventStore(r)
    one = await referee_factory(batch=4)
    two = await referee_factory(batch=4)
    async with Client(r, timeout=60) as c:
        played = await asyncio.gather(*(play_game(c, store, sw, preset="5p", seed=b"two%d" % i)
                                        for i in range(GAMES)))
    rej = await r.xrange(keys.rejections(0))
    assert all(p.rejected == 0 for p in played), rej[:3]
    for p in played:
        envs = await store.read(p.game_id)
        assert verify(sw, envs) == []
        blocks = [e.command_id for i, e in enumerate(envs) if i == 0 or envs[i - 1].command_id != e.command_id]
        assert len(blocks) == len(set(blocks))
        assert sw.result(advance(empty(p.game_id, sw), envs).state) is not None
    # both referees took part
    assert all(ref.handled > 0 for svc in (one, two) for ref in svc.referees.values())
