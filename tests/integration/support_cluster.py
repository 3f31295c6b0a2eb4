"""A local Redis Cluster for tests: 6 `redis-server` processes on loopback (3 masters, each
with a replica), made one cluster by `redis-cli --cluster create`, in a temporary folder,
each started with deploy/cluster/redis-cluster.conf (the node timeout shortened).

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
CONF = Path(__file__).resolve().parents[2] / "deploy" / "cluster" / "redis-cluster.conf"
"""The shipped cluster node configuration (AOF on, as deployed); the tests shorten the node timeout."""
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

    def __init__(self, folder: Path, ports: list[int] | None = None, node_timeout_ms: int = 2000) -> None:
        self.folder = folder
        self.ports = ports or cluster_ports()
        self.node_timeout_ms = node_timeout_ms
        self.procs: dict[int, subprocess.Popen] = {}

    @property
    def url(self) -> str:
        return "redis+cluster://" + ",".join(f"127.0.0.1:{p}" for p in self.ports)

    def _spawn(self, port: int) -> None:
        d = self.folder / str(port)
        d.mkdir(parents=True, exist_ok=True)
        self.procs[port] = subprocess.Popen(
            [_binary("redis-server"), str(CONF), "--port", str(port), "--bind", "127.0.0.1", "--dir", str(d),
             "--cluster-node-timeout", str(self.node_timeout_ms), "--daemonize", "no",
             "--logfile", str(d / "redis.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def start(self) -> Cluster:
        for port in self.ports:
            self._spawn(port)
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

    def replica_of(self, port: int) -> int:
        """The port of master `port`'s (first) replica."""
        with redis.Redis(port=port) as c:
            return int(c.info("replication")["slave0"]["port"])

    def pause(self, port: int) -> None:
        """SIGSTOP a node: it stays connected but reads nothing (a replica falls behind)."""
        os.kill(self.procs[port].pid, signal.SIGSTOP)

    def cut_replicas(self, port: int) -> None:
        """Master `port` drops its replicas' links (CLIENT KILL TYPE replica): what it writes
        from now on reaches them only once they sync again."""
        with redis.Redis(port=port) as c:
            c.execute_command("CLIENT", "KILL", "TYPE", "replica")

    def resume(self, port: int) -> None:
        os.kill(self.procs[port].pid, signal.SIGCONT)

    def restart(self, port: int) -> None:
        """Start a killed node again on its port and folder (its nodes.conf): it rejoins the
        cluster, as a replica of the node promoted in its place."""
        self._spawn(port)
        self._wait(lambda: redis.Redis(port=port).ping())

    def failed_over(self, dead: int) -> bool:
        """Whether every live node is in state ok and none gives `dead` slots any more (its
        replica was promoted and took them)."""
        for port, proc in self.procs.items():
            if port == dead or proc.poll() is not None:
                continue
            with redis.Redis(port=port) as c:
                info = c.execute_command("CLUSTER", "INFO")
                nodes = c.execute_command("CLUSTER", "NODES")
            text = info.decode() if isinstance(info, bytes) else str(info)
            table = nodes.decode() if isinstance(nodes, bytes) else str(nodes)
            if "cluster_state:ok" not in text:
                return False
            for line in table.splitlines():
                parts = line.split()
                if f":{dead}@" in parts[1] and len(parts) > 8:  # it still serves slots
                    return False
        return True

    def wait_replicated(self) -> None:
        """Until every master has a connected replica."""
        def ok() -> bool:
            masters = self.masters()
            if len(masters) != 3:
                return False
            for port in masters:
                with redis.Redis(port=port) as c:
                    info = c.info("replication")
                if info.get("connected_slaves", 0) < 1 or "online" not in str(info.get("slave0", {}).get("state", "")):
                    return False
            return True
        self._wait(ok)

    def stop(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                os.kill(proc.pid, signal.SIGCONT)
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
