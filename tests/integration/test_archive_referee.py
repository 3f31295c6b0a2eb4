"""An archived game under a referee process that still holds it (issue #22 leftover): the
referee judged the game to its end and keeps its finished Table in memory; once
`tablestream archive` has moved the game to a file, a command to it and an open under its
id are both answered `game_archived`, never `game_over` / `game_exists` from the cache."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from events import keys
from events.envelope import Accepted, Rejected
from events.store import EventStore
from games.seven_wonders_duel import GAME as duel
from projections.table import advance, empty
from services.bots.driver import make_bots
from services.client import Client
from tests.integration.support_service import db_url

pytestmark = pytest.mark.integration


def _ts(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "REDIS_URL": db_url()}
    return subprocess.run([sys.executable, "-m", "services.cli", *args], capture_output=True, text=True, env=env,
                          timeout=300)


async def _wait_alive(r: aioredis.Redis) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if [k async for k in r.scan_iter(match=keys.alive("*"))]:
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the referee process did not start")


async def _play_to_the_end(c: Client, store: EventStore, gid: str, tokens: list[str]) -> object:
    """Random bots play the game to its end; the last command sent (resent later, new id)."""
    last: object = None
    table = advance(empty(gid, duel), await store.read(gid))
    bots = make_bots(["random"], len(tokens), b"archived")
    while duel.result(table.state) is None:
        cmds = {s: bots[s].choose(duel, table.state, s) for s in duel.to_act(table.state)}
        outs = await asyncio.gather(*(c.act(duel, gid, s, tokens[s], cmd) for s, cmd in cmds.items()))
        assert all(isinstance(o, Accepted) for o in outs), outs
        last = next(iter(cmds.values()))
        table = advance(table, await store.read(gid, after_seq=table.version))
    return last


async def _code(out: object) -> str:
    assert isinstance(out, Rejected), out
    return out.code


async def test_a_referee_holding_a_finished_game_answers_game_archived_once_it_is_archived(
        r: aioredis.Redis, tmp_path: Path) -> None:
    env = {**os.environ, "REDIS_URL": db_url()}
    up = subprocess.Popen([sys.executable, "-m", "services.cli", "up"], env=env,
                          stdout=open(tmp_path / "up.out", "w"), stderr=subprocess.STDOUT)
    try:
        await _wait_alive(r)
        store = EventStore(r)
        async with Client(r, timeout=10) as c:
            gid, tokens, out = await c.open(duel, preset="2p")
            assert isinstance(out, Accepted), out
            cmd = await _play_to_the_end(c, store, gid, tokens)
            # The referee holds the finished game: its cache answers these two.
            assert await _code(await c.act(duel, gid, 0, tokens[0], cmd)) == "game_over"
            assert await _code((await c.open(duel, game_id=gid, preset="2p"))[2]) == "game_exists"

            deadline = time.monotonic() + 30
            while True:  # the projector (in `up`) must have projected the end before archive
                done = _ts("archive", gid, "--dir", str(tmp_path / "archive"))
                if done.returncode == 0 or time.monotonic() > deadline:
                    break
                await asyncio.sleep(0.2)
            assert done.returncode == 0, done.stdout + done.stderr
            assert await r.hexists(keys.archived(0), gid)
            assert up.poll() is None  # the same referee process, its cache as it was

            for _ in range(2):  # and again, once the referee has seen the tombstone
                out = await c.act(duel, gid, 0, tokens[0], cmd)
                assert await _code(out) == "game_archived"
                assert isinstance(out, Rejected) and gid in out.message
                assert await _code(await c.act(duel, gid, 1, "not-a-token", cmd)) == "game_archived"
                assert await _code((await c.open(duel, game_id=gid, preset="2p"))[2]) == "game_archived"
            assert await store.version(gid) == 0  # nothing written under the archived id
            assert await r.exists(keys.secret(0, gid)) == 0
    finally:
        up.terminate()
        try:
            up.wait(10)
        except subprocess.TimeoutExpired:
            up.kill()
            up.wait()
