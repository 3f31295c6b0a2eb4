"""`python -m bench cluster`: the service on a local Redis Cluster (issue #26).

Starts the tests' local cluster (tests/integration/support_cluster.py: 6 redis-server
processes on loopback, 3 masters + 3 replicas, deploy/cluster/redis-cluster.conf), then
runs rounds of bots playing whole 7 Wonders games (3 players; `--games` at once, spread
over SHARDS=16 shards) through `tablestream up --no-projector` referee processes, a closed
loop: every seat sends its next command once the last outcome came. Per round: commands/s
(accepted commands over the round's wall time), p50/p99 publish->outcome as the bots saw
it, and the referees' CPU (psutil, user+system) per command.

`--compare wait`: rounds without WAIT and with TABLESTREAM_WAIT_REPLICAS=1, alternately
(one referee). `--compare referees`: one referee and two, alternately (no WAIT). Each
round starts its referees afresh and plays new games. The machine's state is printed with
the figures: the Python loop's speed (bench.machine.python_speed) and the load average.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

from bench.machine import python_speed
from events import keys
from events.store import EventStore
from games.seven_wonders import GAME as sw
from services.bots.driver import play_game
from services.client import Client
from services.redis_client import client as redis_client

SHARDS = 16


def pct(values: list[int], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] / 1000 if values else float("nan")


def _start_referees(url: str, n: int, wait: int, logs: Path, tag: str) -> list[subprocess.Popen]:
    procs = []
    for i in range(n):
        env = {**os.environ, "REDIS_URL": url, "SHARDS": str(SHARDS), "TABLESTREAM_CONSUMER": f"{tag}-{i}",
               "TABLESTREAM_WAIT_REPLICAS": str(wait), "TABLESTREAM_WAIT_TIMEOUT_MS": "1000"}
        procs.append(subprocess.Popen([sys.executable, "-m", "services.cli", "up", "--no-projector"], env=env,
                                      stdout=open(logs / f"{tag}-{i}.out", "w"), stderr=subprocess.STDOUT))
    return procs


async def _wait_alive(r, names: list[str], procs: list[subprocess.Popen]) -> None:
    deadline = time.monotonic() + 90
    while not all([await r.exists(keys.alive(n)) for n in names]):
        if time.monotonic() > deadline or any(p.poll() is not None for p in procs):
            raise RuntimeError("the referees did not start")
        await asyncio.sleep(0.1)


def _stop(procs: list[subprocess.Popen]) -> None:
    for p in procs:
        p.terminate()
    for p in procs:
        try:
            p.wait(20)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait(10)


def _cpu(procs: list[subprocess.Popen]) -> float:
    total = 0.0
    for p in procs:
        t = psutil.Process(p.pid).cpu_times()
        total += t.user + t.system
    return total


async def one_round(url: str, referees: int, wait: int, games: int, logs: Path, tag: str) -> dict[str, float]:
    procs = _start_referees(url, referees, wait, logs, tag)
    r = redis_client(url)
    try:
        await _wait_alive(r, [f"{tag}-{i}" for i in range(referees)], procs)
        store = EventStore(r, shards=SHARDS)
        async with Client(r, shards=SHARDS, timeout=120) as c:
            cpu0, t0 = _cpu(procs), time.perf_counter()
            played = await asyncio.gather(*(play_game(c, store, sw, preset="3p", seed=tag.encode(),
                                                      game_id=f"{tag}-g{i}") for i in range(games)))
            wall, cpu = time.perf_counter() - t0, _cpu(procs) - cpu0
        lat = [x for p in played for x in p.latencies_us]
        n = len(lat)
        return {"commands": n, "per_s": n / wall, "p50_ms": pct(lat, 0.5), "p99_ms": pct(lat, 0.99),
                "cpu_us": cpu / n * 1e6, "rejected": sum(p.rejected for p in played)}
    finally:
        await r.aclose()
        _stop(procs)


async def main(compare: str, rounds: int, games: int) -> None:
    from tests.integration.support_cluster import Cluster

    with tempfile.TemporaryDirectory(prefix="ts-bench-cluster-") as tmp:
        cluster = Cluster(Path(tmp) / "nodes").start()
        try:
            cases = [("no WAIT", 1, 0), ("WAIT 1", 1, 1)] if compare == "wait" else [("1 referee", 1, 0),
                                                                                   ("2 referees", 2, 0)]
            results: dict[str, list[dict[str, float]]] = {name: [] for name, _, _ in cases}
            for k in range(rounds):
                for name, n, wait in cases:
                    speed, load = python_speed(), os.getloadavg()[0]
                    got = await one_round(cluster.url, n, wait, games, Path(tmp), f"b{k}{n}{wait}")
                    results[name].append(got)
                    print(f"round {k + 1} {name:>10}: {got['commands']:.0f} commands, {got['per_s']:.0f}/s, "
                          f"p50 {got['p50_ms']:.1f} ms, p99 {got['p99_ms']:.1f} ms, referee CPU "
                          f"{got['cpu_us']:.0f} us/command, refused {got['rejected']:.0f} "
                          f"(loop step {speed:.0f} ns, load {load:.1f})", flush=True)
            base = cases[0][0]
            for name, _, _ in cases[1:]:
                ratios = [b["per_s"] / a["per_s"] for a, b in zip(results[base], results[name])]
                p50 = [b["p50_ms"] / a["p50_ms"] for a, b in zip(results[base], results[name])]
                cpu = [b["cpu_us"] / a["cpu_us"] for a, b in zip(results[base], results[name])]
                print(f"{name} / {base}, pair by pair: commands/s {', '.join(f'{x:.2f}' for x in ratios)}; "
                      f"p50 {', '.join(f'{x:.2f}' for x in p50)}; CPU a command {', '.join(f'{x:.2f}' for x in cpu)}")
        finally:
            cluster.stop()
