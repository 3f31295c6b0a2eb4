"""Issue #22 item 4: clients, the referee and the projector carry on across a Redis restart.

A real redis-server of the test's own (deploy/redis.conf, AOF on) is stopped with SIGTERM
and started again on the same port and directory while bots play; every command must get
its outcome, every game finish and verify, and the projector catch up with every log.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys

from events import keys
from events.store import EventStore
from games.seven_wonders_duel import GAME as duel
from projections.audit import verify
from services.bots.driver import play_game
from services.client import Client
from services.config import Settings, unique_consumer
from services.projector.runner import Projector, load_views
from services.redis_client import client as redis_client
from services.referee.app import RefereeService
from tests.integration.support_redis import free_port, restart_redis, start_redis

GAMES = 6


async def test_bots_referee_and_projector_survive_a_redis_restart_mid_game(tmp_path):
    port = free_port()
    url = f"redis://127.0.0.1:{port}/0"
    proc = await start_redis(tmp_path, port)
    svc = RefereeService(Settings(redis_url=url, consumer=unique_consumer("rst"), poll_ms=20), url)
    r = redis_client(url)
    store = EventStore(r)
    stop = asyncio.Event()
    projector = Projector(r, store, 0)
    proj_task = asyncio.create_task(projector.run(stop))
    sent = 0

    def count() -> None:
        nonlocal sent
        sent += 1

    try:
        await svc.start()
        async with Client(r, timeout=60) as c:
            games = [asyncio.create_task(play_game(c, store, duel, seed=b"rst%d" % i, on_command=count))
                     for i in range(GAMES)]
            while sent < 40:
                await asyncio.sleep(0.01)
            proc = await restart_redis(proc, tmp_path, port)
            restarted_at = sent
            played = await asyncio.wait_for(asyncio.gather(*games), 120)
        assert c.reconnects >= 1  # the reader lost Redis and read again
        assert sent > restarted_at  # commands were played after the restart, not only before
        for p in played:
            assert duel.result(p.table.state) is not None and p.rejected == 0
            log = await store.read(p.game_id)
            assert log[-1].seq == p.table.version and verify(duel, log) == []
        # The projector caught up with every game: its stored views are those of the log's end.
        for _ in range(400):
            if await projector.idle():
                break
            await asyncio.sleep(0.05)
        for p in played:
            views = await load_views(r, 0, p.game_id, [None, 0, 1])
            assert all(v is not None for v in views.values())
            assert verify(duel, await store.read(p.game_id), views) == []
    finally:
        stop.set()
        await asyncio.wait_for(proj_task, 10)
        await svc.stop()
        await r.aclose()
        proc.kill()
        proc.wait(10)


def _cli(*args: str, url: str) -> subprocess.Popen:
    env = {**os.environ, "REDIS_URL": url}
    return subprocess.Popen([sys.executable, "-m", "services.cli", *args], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


async def test_play_survives_a_redis_restart(tmp_path):
    """`tablestream play` (referee, projector and bots in one process) against a Redis that
    is restarted mid-run: it exited 4 ("the service did not answer"); now it finishes every
    game, and `verify --all` passes every game, stored views and statistics rows included."""
    port = free_port()
    url = f"redis://127.0.0.1:{port}/0"
    proc = await start_redis(tmp_path, port)
    r = redis_client(url)
    try:
        play = _cli("play", "--game", "seven_wonders_duel", "--games", "8", "--concurrency", "4", url=url)
        for _ in range(1200):  # until the games are well under way (the process starts in a few s)
            try:
                if await r.xlen(keys.feed(0)) > 150:
                    break
            except Exception:
                pass
            await asyncio.sleep(0.05)
        assert play.poll() is None, "play ended before the restart"
        proc = await restart_redis(proc, tmp_path, port)
        out, errors = await asyncio.get_running_loop().run_in_executor(None, lambda: play.communicate(timeout=240))
        assert play.returncode == 0, out + errors
        assert "8 games of seven_wonders_duel" in out and "unfinished" not in out
        check = _cli("verify", "--all", url=url)
        out, errors = check.communicate(timeout=240)
        assert check.returncode == 0 and "8 of 8 games verified" in out, out + errors
    finally:
        await r.aclose()
        proc.kill()
        proc.wait(10)
