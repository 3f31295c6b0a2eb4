"""What `appendfsync always` costs against deploy/redis.conf's `everysec` (issue #22 item 3).

Starts its own redis-server with deploy/redis.conf (AOF on) on a free port in a temporary
folder, and alternates the two settings (CONFIG SET appendfsync), PAIRS times each:

* drain: the referee draining a backlog of legal 7 Wonders commands (bench.run's (b));
  with `always` Redis fsyncs the AOF before it answers each event-loop turn's writes, so a
  batch's one append script waits for one fsync;
* serial: one client's XADD round trips, one at a time (a lone player's command never
  shares its fsync with another): p50 and p99 in ms.

Prints figures, asserts nothing:  .venv/bin/python -m bench.fsync [--pairs 3] [--commands 4000]
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import tempfile
import time

import redis.asyncio as aioredis

from bench.machine import start_server
from bench.run import referee_drain


async def _serial(url: str, n: int) -> tuple[float, float]:
    r = aioredis.from_url(url)
    times = []
    try:
        for i in range(n):
            t0 = time.perf_counter()
            await r.xadd("bench:fsync", {"i": i})
            times.append((time.perf_counter() - t0) * 1000)
    finally:
        await r.delete("bench:fsync")
        await r.aclose()
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.99)]


async def main(pairs: int, commands: int, serial: int) -> None:
    folder = tempfile.mkdtemp(prefix="ts-fsync-")
    proc, url = await start_server(folder)
    r = aioredis.from_url(url)
    runs: dict[str, list[tuple[float, float, float]]] = {"everysec": [], "always": []}
    try:
        for k in range(pairs):
            for mode in (("everysec", "always") if k % 2 == 0 else ("always", "everysec")):
                await r.config_set("appendfsync", mode)
                d = await referee_drain(url, 40, 5, commands, f"fsync{k}{mode}")
                p50, p99 = await _serial(url, serial)
                runs[mode].append((d.rate, p50, p99))
                print(f"pair {k + 1} {mode:8}: drain {d.rate:7,.0f} commands/s ({d.rejected} rejected), "
                      f"serial XADD p50 {p50:.2f} ms p99 {p99:.2f} ms", flush=True)
        for mode, rows in runs.items():
            print(f"median {mode:8}: drain {statistics.median(x[0] for x in rows):7,.0f} commands/s, "
                  f"serial p50 {statistics.median(x[1] for x in rows):.2f} ms, "
                  f"p99 {statistics.median(x[2] for x in rows):.2f} ms")
        ratio = statistics.median(x[0] for x in runs["always"]) / statistics.median(x[0] for x in runs["everysec"])
        print(f"always / everysec drain: {ratio:.0%}")
    finally:
        await r.aclose()
        proc.terminate()
        proc.wait(20)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--commands", type=int, default=4000)
    ap.add_argument("--serial", type=int, default=500)
    a = ap.parse_args()
    asyncio.run(main(a.pairs, a.commands, a.serial))
