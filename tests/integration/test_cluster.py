"""The service on a real Redis Cluster (README "Redis Cluster"): 6 local redis-server
processes (3 masters, 3 replicas; tests/integration/support_cluster.py), SHARDS=16, two
referee processes and a projector process (`tablestream up`, REDIS_URL=redis+cluster://...),
bots playing a whole game on every shard through the command streams, then `verify --all`.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from collections.abc import Callable

import redis

from events import keys
from events.store import EventStore
from games.seven_wonders import GAME as sw
from services.bots.driver import play_game
from services.client import Client
from services.redis_client import client as redis_client
from tests.integration.support_cluster import Cluster, cluster
from tests.integration.support_gateway import START_S, Deployment

__all__ = ["cluster"]

SHARDS = 16
REFEREES = ("cluster-ref-a", "cluster-ref-b")


def one_id_per_shard(prefix: str) -> list[str]:
    ids: dict[int, str] = {}
    i = 0
    while len(ids) < SHARDS:
        gid = f"{prefix}-{i}"
        ids.setdefault(keys.shard_of(gid, SHARDS), gid)
        i += 1
    return [ids[s] for s in range(SHARDS)]


def cluster_env(c: Cluster) -> dict[str, str]:
    return {"REDIS_URL": c.url, "SHARDS": str(SHARDS)}


def wait_alive(c: Cluster, consumers: tuple[str, ...]) -> None:
    """Until every named referee's heartbeat is set on the cluster."""
    rc = redis.RedisCluster(host="127.0.0.1", port=c.ports[0])
    try:
        deadline = time.monotonic() + START_S
        while time.monotonic() < deadline:
            if all(rc.exists(keys.alive(name)) for name in consumers):
                return
            time.sleep(0.2)
    finally:
        rc.close()
    raise AssertionError(f"the referees {consumers} did not start")


def cli(c: Cluster, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "services.cli", *args], env={**os.environ, **cluster_env(c)},
                          capture_output=True, text=True, timeout=START_S)


async def verify_all(run: Callable[..., subprocess.CompletedProcess[str]], c: Cluster, shards: int,
                     tries: int = 60) -> None:
    """`verify --all` (through `run(c, ...)`) until it passes, `tries` times 0.5 s apart (the
    projector may still be writing the last views); then it must have verified every game."""
    loop = asyncio.get_running_loop()
    for _ in range(tries):
        got = await loop.run_in_executor(None, run, c, "verify", "--all")
        if got.returncode == 0:
            break
        await asyncio.sleep(0.5)
    assert got.returncode == 0, got.stdout + got.stderr
    assert f"{shards} of {shards} games verified" in got.stdout


async def test_whole_games_on_every_shard_with_two_referees_verify(cluster: Cluster, tmp_path) -> None:
    d = Deployment(cluster.url, logs=tmp_path)
    try:
        for name in REFEREES:
            d.start(name, "up", "--no-projector", env={**cluster_env(cluster), "TABLESTREAM_CONSUMER": name})
        d.start("projector", "up", "--no-referee", env=cluster_env(cluster))
        await asyncio.get_running_loop().run_in_executor(None, wait_alive, cluster, REFEREES)

        r = redis_client(cluster.url)
        try:
            store = EventStore(r, shards=SHARDS)
            ids = one_id_per_shard("clustered")
            async with Client(r, shards=SHARDS, timeout=60) as c:
                played = await asyncio.gather(*(play_game(c, store, sw, preset="3p", seed=b"c", game_id=g)
                                                for g in ids))
            for p in played:
                assert sw.result(p.table.state) is not None and p.rejected == 0
            # Every shard's keys in its slot; the games spread over all three masters.
            nodes = {r.get_node_from_key(keys.log(keys.shard_of(g, SHARDS), g)).port for g in ids}
            assert len(nodes) == 3
            # Both referees read every shard's commands in the shared group.
            for s in range(SHARDS):
                names = {x["name"].decode() for x in await r.xinfo_consumers(keys.cmd(s), "referee")}
                assert set(REFEREES) <= names, (s, names)
                assert await r.xlen(keys.dead(s)) == 0
            # The projector has written every game's row (the last one of a batch too).
            deadline = time.monotonic() + START_S
            while len(await r.hkeys(keys.stats(sw.id))) < SHARDS and time.monotonic() < deadline:
                await asyncio.sleep(0.2)
            assert sorted(k.decode() for k in await r.hkeys(keys.stats(sw.id))) == sorted(ids)
            assert await r.smembers(keys.dashboard(sw.id) + ":buckets")
        finally:
            await r.aclose()

        loop = asyncio.get_running_loop()
        await verify_all(cli, cluster, SHARDS, tries=50)
        rebuilt = await loop.run_in_executor(None, cli, cluster, "projections", "rebuild")
        assert rebuilt.returncode == 0 and f"rebuilt the projections of {SHARDS} games" in rebuilt.stdout, rebuilt.stderr
        again = await loop.run_in_executor(None, cli, cluster, "verify", "--all")
        assert again.returncode == 0, again.stdout + again.stderr
    finally:
        d.stop()
    for name, p in zip((*REFEREES, "projector"), d.procs):
        assert p.returncode == 0, (name, (tmp_path / f"{name}.out").read_text())
