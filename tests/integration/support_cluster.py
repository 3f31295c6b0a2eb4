"""A local Redis Cluster for tests: 6 `redis-server` processes on loopback (3 masters, each
with a replica), made one cluster by `redis-cli --cluster create`, in a temporary folder.

Each node listens on a free port whose cluster bus port (port + 10000) is free too. The
cluster is ready once every node reports `cluster_state:ok` and knows all 6 nodes, so a test
starts on a cluster that routes every slot. `Cluster.kill(port)` SIGKILLs one node (a
failover test), `stop()` ends every process. The URL the product takes is `url`
(`redis+cluster://127.0.0.1:p1,127.0.0.1:p2,...`, README "Redis Cluster").
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

NODES = 6
START_S = 60.0


def _port_free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def cluster_ports(n: int = NODES) -> list[int]:
    """`n` free loopback ports whose bus ports (+10000) are free as well."""
    found: list[int] = []
    while len(found) < n:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port < 55000 and port not in found and _port_free(port + 10000):
            found.append(port)
    return found


def _binary(name: str) -> str:
    path = shutil.which(name)
    if path is None:  # a failure, never a skip: the cluster tests must run in CI
        pytest.fail(f"the cluster tests need {name} on PATH", pytrace=False)
    return path


class Cluster:
    """Six redis-server processes made one cluster; `url` for the product, `ports` per node."""

    def __init__(self, folder: Path, ports: list[int] | None = None) -> None:
        self.folder = folder
        self.ports = ports or cluster_ports()
        self.procs: dict[int, subprocess.Popen] = {}

    @property
    def url(self) -> str:
        return "redis+cluster://" + ",".join(f"127.0.0.1:{p}" for p in self.ports)

    def start(self) -> Cluster:
        server = _binary("redis-server")
        for port in self.ports:
            d = self.folder / str(port)
            d.mkdir(parents=True, exist_ok=True)
            self.procs[port] = subprocess.Popen(
                [server, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(d),
                 "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                 "--cluster-node-timeout", "2000", "--save", "", "--appendonly", "no",
                 "--daemonize", "no", "--logfile", str(d / "redis.log")],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for port in self.ports:
            self._wait(lambda p=port: redis.Redis(port=p).ping())
        subprocess.run([_binary("redis-cli"), "--cluster", "create",
                        *(f"127.0.0.1:{p}" for p in self.ports), "--cluster-replicas", "1", "--cluster-yes"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=START_S)
        for port in self.ports:
            self._wait(lambda p=port: self._ready(p))
        return self

    def _ready(self, port: int) -> bool:
        with redis.Redis(port=port) as c:
            info = c.execute_command("CLUSTER", "INFO")
        text = info.decode() if isinstance(info, bytes) else str(info)
        return "cluster_state:ok" in text and f"cluster_known_nodes:{len(self.ports)}" in text

    def _wait(self, check: object) -> None:
        deadline = time.monotonic() + START_S
        while True:
            try:
                if check():  # type: ignore[operator]
                    return
            except redis.RedisError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                pytest.fail("the local Redis Cluster did not come up", pytrace=False)
            time.sleep(0.05)

    def masters(self) -> list[int]:
        """Ports of the nodes that are masters now."""
        out = []
        for port, proc in self.procs.items():
            if proc.poll() is None:
                with redis.Redis(port=port) as c:
                    if c.info("replication").get("role") == "master":
                        out.append(port)
        return out

    def kill(self, port: int) -> None:
        """SIGKILL one node (no goodbye to the cluster: its replica is promoted after the
        node timeout)."""
        proc = self.procs[port]
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)

    def stop(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs.values():
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """A fresh local cluster for the module's tests, stopped after them."""
    c = Cluster(tmp_path_factory.mktemp("cluster")).start()
    try:
        yield c
    finally:
        c.stop()
