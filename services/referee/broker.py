"""The referee's FastStream broker: its subscribers' reads go on connections of their own.

A referee's subscriber reads cmd:{s} once a batch (XREADGROUP), and below full load its
batches are small, so the read's fixed cost counts: on a connection held for the stream
(`events.held`) it costs about half what redis-py's `execute_command` does, and the
latency at half load is lower (figures: bench/RESULTS.md, the evening of 2026-12-01). The
broker's client sends each stream's XREADGROUP on a connection held for that stream, and
every other command as redis-py does. FastStream builds its client in its connection state, the hook its Cluster
and Sentinel brokers override; this broker overrides it to build this client on the same
pool.

On a Redis Cluster (`redis+cluster://` REDIS_URL) the broker is FastStream's
`RedisClusterBroker` on the URL's seed nodes, with the product's cluster client
(`services.redis_client.FailoverCluster`): each subscriber's XREADGROUP names one
`cmd:{s}`, a single slot, which its cluster client sends to the slot's master (and to
the new master after a failover); no held connections there.
"""

from __future__ import annotations

from typing import Any

import redis.asyncio as aioredis
from faststream.redis import RedisBroker, RedisClusterBroker
from faststream.redis.configs.state import RedisClusterConnectionState, RedisConnectionState

from events.held import NOT_SENT, HeldConnection
from services.config import cluster_nodes, is_cluster_url
from services.redis_client import FailoverCluster


class ReadsHeld(aioredis.Redis):
    """A redis-py client whose XREADGROUP of one stream, as FastStream's subscribers read,
    goes on a connection held for that stream (`events.held`); the same reply as redis-py's
    (parsed by the client's own callback). Anything else, or a read the held connection
    cannot make, goes through redis-py. Sent again after a lost connection, a read may have
    delivered entries the first time: they stay pending under this consumer until the
    claimer takes them over, as when redis-py retries a read itself."""

    @classmethod
    def over(cls, plain: aioredis.Redis) -> ReadsHeld:
        """A client on `plain`'s pool, which it takes over (closing it closes the pool)."""
        plain.auto_close_connection_pool = False
        return cls.from_pool(plain.connection_pool)

    async def xreadgroup(self, groupname: Any, consumername: Any, streams: Any, count: int | None = None,
                         block: int | None = None, noack: bool = False, **more: Any) -> Any:
        if more or noack or not isinstance(streams, dict) or len(streams) != 1:
            return await super().xreadgroup(groupname, consumername, streams, count=count, block=block,
                                            noack=noack, **more)
        ((name, last),) = streams.items()
        held = self.__dict__.setdefault("_held_reads", {})
        conn = held.get(name)
        if conn is None:
            conn = held[name] = HeldConnection(self)
        args: list[Any] = ["XREADGROUP", "GROUP", groupname, consumername]
        if count is not None:
            args += ["COUNT", count]
        if block is not None:
            args += ["BLOCK", block]
        got = await conn.call(*args, "STREAMS", name, last, extra_s=(block or 0) / 1000)
        if got is NOT_SENT:
            return await super().xreadgroup(groupname, consumername, streams, count=count, block=block)
        return self.response_callbacks["XREADGROUP"](got)


class _State(RedisConnectionState):
    """FastStream's connection state, building a `ReadsHeld` client on its pool."""

    __slots__ = ()

    async def connect(self) -> aioredis.Redis:
        self._client = ReadsHeld.over(await super().connect())
        return self._client


class RefereeBroker(RedisBroker):
    """A RedisBroker whose client is `ReadsHeld`."""

    def _make_connection_state(self, connection_options: dict[str, Any], kwargs: dict[str, Any]) -> Any:
        return _State(connection_options)


class _ClusterState(RedisClusterConnectionState):
    """FastStream's cluster connection state, building a `FailoverCluster` (the product's
    cluster client: it re-discovers the topology after any lost call, on connections that
    report a reset under a call as a ConnectionError) from the same options."""

    __slots__ = ()

    async def connect(self) -> Any:
        if not self._connected:
            options = {k: v for k, v in self._options.items() if v is not None}
            self._client = FailoverCluster(**options)
            self._connected = True
        return self._client


class RefereeClusterBroker(RedisClusterBroker):
    """A RedisClusterBroker whose client is a `FailoverCluster`."""

    def _make_connection_state(self, connection_options: dict[str, Any], kwargs: dict[str, Any]) -> Any:
        return _ClusterState(connection_options)


def make_broker(url: str, **options: Any) -> RedisBroker:
    """The referee's broker for `url`: a `RefereeBroker`, or on a `redis+cluster://` URL a
    `RedisClusterBroker` on its seed nodes."""
    if not is_cluster_url(url):
        return RefereeBroker(url, **options)
    nodes, user, password = cluster_nodes(url)
    host, port = nodes[0]
    return RefereeClusterBroker(f"redis://{host}:{port}", startup_nodes=nodes, username=user, password=password,
                              **options)
