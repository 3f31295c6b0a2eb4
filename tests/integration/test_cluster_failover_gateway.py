"""The HTTP gateway across a master's loss on the local Redis Cluster (README "Redis
Cluster"): a referee, a projector and a gateway as processes (TABLESTREAM_WAIT_REPLICAS=1),
players over HTTP playing Seven Wonders Duel games on 16 shards (each move sent with an
Idempotency-Key, sent again with the same key after any answer that is not an outcome);
the master of shard 0's slot is SIGKILLed once 100 moves were accepted (its replica lagging
0.5 s first, as in test_cluster_failover.py), the node is restarted. Every 200 `accepted`
answer is then looked up in the logs: 0 lost, 0 applied twice; every game finishes."""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict

import httpx

from events import keys
from events.store import EventStore
from services.redis_client import client as redis_client
from tests.integration.support_cluster import Cluster
from tests.integration.support_gateway import Deployment
from tests.integration.test_cluster import one_id_per_shard, wait_alive
from tests.integration.test_cluster_failover import LAG_S, PLAY_S, SHARDS, _cli

GAMES = 8
MAX_TRIES = 600
"""Requests a game's players make at most (a Duel game takes about 60 moves)."""


async def _play(http: httpx.AsyncClient, gid: str, tokens: list[str], told: list[dict], log: list[str]) -> bool:
    """Play `gid` to its end with the first legal move each time; True once it is over."""
    n = 0
    for _ in range(MAX_TRIES):
        try:
            s = await http.get(f"/games/{gid}")
            if s.status_code != 200:
                log.append(f"summary {s.status_code}")
                await asyncio.sleep(0.2)
                continue
            if s.json()["over"]:
                return True
            seat = s.json()["to_act"][0]
            h = {"Authorization": f"Bearer {tokens[seat]}"}
            m = await http.get(f"/games/{gid}/moves", headers=h)
            if m.status_code != 200:
                log.append(f"moves {m.status_code}")
                await asyncio.sleep(0.2)
                continue
            move = m.json()["moves"][0]["text"]
            key = f"{gid}-{n}"
            n += 1
            while True:  # the same move under the same key until it has an outcome
                out = await http.post(f"/games/{gid}/commands", json={"command": move},
                                      headers={**h, "Idempotency-Key": key})
                if out.status_code == 200:
                    told.append(out.json())
                    break
                code = out.json().get("code") if out.headers.get("content-type", "").startswith("application/") else None
                log.append(f"command {out.status_code} {code}")
                if out.status_code < 500 and code != "no_outcome":
                    break  # refused: choose again from the position
                await asyncio.sleep(0.2)
        except httpx.HTTPError as e:
            log.append(f"http {type(e).__name__}")
            await asyncio.sleep(0.2)
    return False


async def test_gateway_players_across_a_master_kill(tmp_path) -> None:
    cluster = Cluster(tmp_path / "cluster", node_timeout_ms=1500).start()
    cluster.wait_replicated()  # every master's replica in sync before play (the test lags one)
    d = Deployment(cluster.url, logs=tmp_path)
    env = {"REDIS_URL": cluster.url, "SHARDS": str(SHARDS), "TABLESTREAM_CLAIM_IDLE_MS": "1000",
           "TABLESTREAM_WAIT_REPLICAS": "1", "TABLESTREAM_WAIT_TIMEOUT_MS": "10000"}
    r = None
    try:
        d.start("referee", "up", "--no-projector", env={**env, "TABLESTREAM_CONSUMER": "gw-ref"})
        d.start("projector", "up", "--no-referee", env=env)
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, wait_alive, cluster, ("gw-ref",))
        base = await loop.run_in_executor(None, lambda: d.start_gateway(env=env))
        told: list[dict] = []
        log: list[str] = []
        async with httpx.AsyncClient(base_url=base, timeout=60) as http:
            games = []
            for gid in one_id_per_shard("gw-failover")[:GAMES]:  # shards 0..7: shard 0's master is killed
                made = await http.post("/games", json={"game_type": "seven_wonders_duel", "game_id": gid})
                assert made.status_code == 201, made.text
                games.append((made.json()["game_id"], made.json()["tokens"]))
            tasks = [asyncio.ensure_future(_play(http, gid, tokens, told, log)) for gid, tokens in games]
            while len(told) < 100 and not all(t.done() for t in tasks):
                await asyncio.sleep(0.05)
            r = redis_client(cluster.url)
            await r.initialize()  # type: ignore[attr-defined]
            victim = r.get_node_from_key(keys.cmd(0)).port
            behind = cluster.replica_of(victim)
            cluster.pause(behind)
            cluster.cut_replicas(victim)
            await asyncio.sleep(LAG_S)
            at_kill = len(told)
            cluster.kill(victim)
            cluster.resume(behind)
            deadline = time.monotonic() + PLAY_S
            while not await loop.run_in_executor(None, cluster.failed_over, victim):
                assert time.monotonic() < deadline, "no replica was promoted"
                await asyncio.sleep(0.2)
            await loop.run_in_executor(None, cluster.restart, victim)
            finished = await asyncio.wait_for(asyncio.gather(*tasks), PLAY_S)
        store = EventStore(r, shards=SHARDS)
        seqs: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
        for gid, _ in games:
            for e in await store.read(gid):
                seqs[gid][e.command_id].append(e.seq)
        lost = [a for a in told if a["command_id"] not in seqs[a["game_id"]]]
        moved = [a for a in told if a["command_id"] in seqs[a["game_id"]] and seqs[a["game_id"]][a["command_id"]] != a["seqs"]]
        twice = [c for g in seqs.values() for c, s in g.items() if s != list(range(s[0], s[0] + len(s)))]
        print(f"\ngateway, WAIT=1: {len(told)} accepted answers ({at_kill} before the kill), {len(lost)} lost, "
              f"{len(moved)} at other seqs, {len(twice)} applied twice, {finished.count(True)} of {GAMES} games "
              f"finished; non-outcome answers: {dict((x, log.count(x)) for x in set(log))}")
        assert not lost and not moved and not twice
        assert all(finished)
        assert len(told) > at_kill
        for _ in range(60):
            got = await loop.run_in_executor(None, _cli, cluster, "verify", "--all")
            if got.returncode == 0:
                break
            await asyncio.sleep(0.5)
        assert got.returncode == 0, got.stdout + got.stderr
    finally:
        if r is not None:
            await r.aclose()
        d.stop()
        cluster.stop()
    for name, p in zip(("referee", "projector", "gateway0"), d.procs):
        assert p.returncode == 0, (name, (tmp_path / f"{name}.out").read_text()[-3000:])
