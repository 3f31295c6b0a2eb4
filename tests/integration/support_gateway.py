"""Real processes for the gateway tests: `tablestream up` (referee + projector) and
`tablestream gateway` on a free loopback port, on a database of their own (TS_GATEWAY_DB,
default 13) of the Redis at REDIS_URL, flushed first."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
import redis

from tests.integration.support_service import db_url

GATEWAY_DB = int(os.environ.get("TS_GATEWAY_DB", "13"))
START_S = 90.0  # a cold start imports every game; the shared 2-core machine can be slow


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Deployment:
    url: str  # Redis
    procs: list[subprocess.Popen] = field(default_factory=list)
    gateways: list[str] = field(default_factory=list)  # base URLs
    logs: Path = Path(".")

    def start(self, name: str, *args: str, env: dict[str, str] | None = None) -> subprocess.Popen:
        env = {**os.environ, "REDIS_URL": self.url, "TABLESTREAM_CLAIM_IDLE_MS": "1000", **(env or {})}
        p = subprocess.Popen([sys.executable, "-m", "services.cli", *args], env=env,
                             stdout=open(self.logs / f"{name}.out", "w"), stderr=subprocess.STDOUT)
        self.procs.append(p)
        return p

    def start_gateway(self, env: dict[str, str] | None = None) -> str:
        port = free_port()
        p = self.start(f"gateway{len(self.gateways)}", "gateway", "--host", "127.0.0.1", "--port", str(port), env=env)
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + START_S
        while time.monotonic() < deadline:
            if p.poll() is not None:
                raise AssertionError(f"the gateway exited with {p.returncode}: "
                                     f"{(self.logs / f'gateway{len(self.gateways)}.out').read_text()}")
            try:
                if httpx.get(base + "/game-types", timeout=2).status_code == 200:
                    self.gateways.append(base)
                    return base
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise AssertionError("the gateway did not start")

    def wait_referee(self) -> None:
        r = redis.Redis.from_url(self.url)
        try:
            deadline = time.monotonic() + START_S
            while time.monotonic() < deadline:
                if any(True for _ in r.scan_iter(match="alive:referee:*")):
                    return
                time.sleep(0.1)
        finally:
            r.close()
        raise AssertionError("the referee did not start")

    def stop(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in self.procs:
            try:
                p.wait(15)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def flushed_db() -> str:
    """The gateway tests' database URL, flushed first (fails if Redis does not answer)."""
    url = db_url(GATEWAY_DB)
    r = redis.Redis.from_url(url)
    try:
        r.flushdb()
    except redis.RedisError as e:
        pytest.fail(f"gateway tests need a real Redis at {url!r}: {e!r}", pytrace=False)
    finally:
        r.close()
    return url


@pytest.fixture(scope="module")
def deployment(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    """Redis (flushed database), `tablestream up` and one gateway, for a whole test module."""
    d = Deployment(flushed_db(), logs=tmp_path_factory.mktemp("gateway"))
    try:
        d.start("up", "up")
        d.wait_referee()
        d.start_gateway()
        yield d
    finally:
        d.stop()
