"""Rebuild and verify speed (issue #23): events/s of `projections rebuild` and `verify --all`.

    python -m bench projections [--games 300] [--players 5] [--rounds 3] [--url URL]

Seeds `games` whole 7 Wonders games through the real path (the referee drains a backlog of
legal commands, `bench.run.referee_drain`; a projector then catches up with the feed, so
the live checkpoint is at its end as in a running deployment), then, `rounds` times, times
the functions the two verbs run (`services.projector.rebuild.rebuild`, then
`services.verify.verify_games` over every game) from the logs in Redis to the stored
projections and the findings: events/s = events in the logs / wall seconds. With `--cli`
it also times the verbs themselves in a process of their own (Python's start and imports
included). Each round times one process (`--jobs 1`) and the verbs' default, one process
per core (`services.forked`), alternately; `--jobs N` times only N. Every finding of verify is counted: a seeded deployment verifies clean, so a
non-zero count means the benchmark measured a broken path.

Without `--url` it starts its own redis-server (deploy/redis.conf) in a temporary folder;
with `--url` it uses that server and seeds only if it does not hold `games` games yet
(for alternating runs of two versions of the code on the same logs). Prints figures;
asserts nothing.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import redis.asyncio as aioredis

from bench.machine import python_speed, start_server
from bench.run import referee_drain
from events import keys
from events.store import EventStore
from services.forked import cores
from services.projector.rebuild import rebuild
from services.projector.runner import Projector
from services.verify import all_game_ids, verify_games


async def seed(url: str, games: int, players: int) -> int:
    """Play `games` whole games through the referee (unless the server holds them already)
    and project the feed to its end; the number of events in the logs."""
    r = aioredis.from_url(url)
    store = EventStore(r)
    try:
        if await r.zcard(keys.games(0)) < games:
            t0 = time.perf_counter()
            drain = await referee_drain(url, games, players, 10**9, "seed")
            print(f"seeded {games} games of {players} players through the referee in "
                  f"{time.perf_counter() - t0:.1f} s ({drain.rejected} commands refused)")
            projector = Projector(r, store, 0)
            while await projector.step(block=False):
                pass
        return sum([await r.xlen(keys.log(0, g)) for g in await store.game_ids(0)])
    finally:
        await r.aclose()


async def _timed_rebuild(url: str, jobs: int) -> float:
    r = aioredis.from_url(url)
    try:
        t0 = time.perf_counter()
        await rebuild(r, EventStore(r), 1, jobs=jobs)
        return time.perf_counter() - t0
    finally:
        await r.aclose()


async def _timed_verify(url: str, jobs: int) -> tuple[float, int]:
    r = aioredis.from_url(url)
    try:
        store = EventStore(r)
        t0 = time.perf_counter()
        found = await verify_games(r, store, await all_game_ids(store, 1), jobs=jobs)
        return time.perf_counter() - t0, sum(map(len, found.values()))
    finally:
        await r.aclose()


def _timed_cli(url: str, *verb: str) -> float:
    """Wall seconds of `python -m services.cli VERB...` on `url` (its start included)."""
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "services.cli", *verb], env={**os.environ, "REDIS_URL": url},
                   stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - t0


def _rates(events: int, seconds: list[float]) -> str:
    return ", ".join(f"{events / s:,.0f}" for s in seconds) + f" (median {events / statistics.median(seconds):,.0f})"


async def main(games: int, players: int, rounds: int, url: str | None, cli: bool, jobs: int | None = None) -> None:
    folder = proc = None
    if url is None:
        folder = tempfile.mkdtemp(prefix="ts-bench-proj-")
        proc, url = await start_server(folder)
    try:
        print(f"machine: a Python loop step takes {python_speed():.0f} ns (best of 3; compare runs and "
              "machines with it)")
        events = await seed(url, games, players)
        print(f"{games} games, {events} events in their logs; {rounds} rounds")
        # One process, then the verbs' default (one per core), alternately in each round.
        counts = [jobs] if jobs is not None else sorted({1, cores()})
        rebuilds: dict[int, list[float]] = {j: [] for j in counts}
        verifies: dict[int, list[float]] = {j: [] for j in counts}
        findings = 0
        cli_rebuilds, cli_verifies = [], []
        for _ in range(rounds):
            for j in counts:
                rebuilds[j].append(await _timed_rebuild(url, j))
                seconds, n = await _timed_verify(url, j)
                verifies[j].append(seconds)
                findings += n
            if cli:
                cli_rebuilds.append(_timed_cli(url, "projections", "rebuild"))
                cli_verifies.append(_timed_cli(url, "verify", "--all"))
        for j in counts:
            print(f"rebuild, --jobs {j}: {_rates(events, rebuilds[j])} events/s")
            print(f"verify --all, --jobs {j}: {_rates(events, verifies[j])} events/s ({findings} findings in all)")
        if cli:
            print(f"tablestream projections rebuild (own process, --jobs {cores()}): "
                  f"{_rates(events, cli_rebuilds)} events/s")
            print(f"tablestream verify --all (own process, --jobs {cores()}): {_rates(events, cli_verifies)} events/s")
    finally:
        if proc is not None:
            proc.kill()
            proc.wait(10)
            shutil.rmtree(folder or "", ignore_errors=True)


def run(games: int = 300, players: int = 5, rounds: int = 3, url: str | None = None, cli: bool = False,
        jobs: int | None = None) -> None:
    asyncio.run(main(games, players, rounds, url, cli, jobs))
