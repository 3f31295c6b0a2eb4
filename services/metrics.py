"""Prometheus metrics of a deployment's backlogs, read from Redis at each scrape.

Per shard: the commands the referee group has read and not yet settled (XPENDING of
`referee` on cmd:{s}), the commands it has not read yet (XINFO GROUPS `lag`; counted after
its last-delivered id when Redis cannot tell, and the whole stream before any referee made
the group) and the feed entries the live projector has not applied (after ckpt:{s}:live).
Served by the gateway's GET /metrics (services.gateway.metrics, with its own command
metrics) and by `tablestream up --metrics-port N` (`serve`). Labels are shard numbers only:
no game id, token, secret or seat.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import redis.asyncio as aioredis
from prometheus_client import CollectorRegistry, start_http_server
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from redis.exceptions import RedisError, ResponseError

from events import keys
from services.projector.runner import LIVE
from services.protocol import GROUP

PAGE = 1000
SCRAPE_S = 5.0
"""How long `up`'s metrics server waits for Redis before answering without the shard gauges."""


@dataclass(frozen=True)
class Backlog:
    shard: int
    pending: int
    """Commands the referee group has read and not settled (XPENDING)."""
    lag: int
    """Commands not yet read by the referee group."""
    projector_lag: int
    """Feed entries after the live projector's checkpoint."""
    wait_short: int = 0
    """Appends whose WAIT for replicas (TABLESTREAM_WAIT_REPLICAS) saw fewer than asked."""


def _text(v: bytes | str) -> str:
    return v.decode() if isinstance(v, bytes) else v


async def count_after(redis: aioredis.Redis, stream: str, after: str | None) -> int:
    """Entries of `stream` after id `after` (all of them for None), counted by pages."""
    if after is None:
        return int(await redis.xlen(stream))
    n, start = 0, "(" + after
    while rows := await redis.xrange(stream, min=start, max="+", count=PAGE):
        n += len(rows)
        start = "(" + _text(rows[-1][0])
    return n


async def _referee(redis: aioredis.Redis, s: int) -> tuple[int, int]:
    stream = keys.cmd(s)
    try:
        groups = await redis.xinfo_groups(stream)
    except ResponseError:  # no stream yet: nothing sent to this shard
        return 0, 0
    g = next((g for g in groups if _text(g["name"]) == GROUP), None)
    if g is None:  # no referee has ever read this shard
        return 0, await count_after(redis, stream, None)
    lag = g.get("lag")
    if lag is None:
        lag = await count_after(redis, stream, _text(g["last-delivered-id"]))
    return int(g["pending"]), int(lag)


async def read_backlogs(redis: aioredis.Redis, shards: int) -> list[Backlog]:
    """Every shard's backlog, read now."""
    out = []
    for s in range(shards):
        pending, lag = await _referee(redis, s)
        ckpt = await redis.get(keys.checkpoint(s, LIVE))
        short = await redis.hget(keys.durability(s), "wait_short")
        out.append(Backlog(s, pending, lag, await count_after(redis, keys.feed(s), _text(ckpt) if ckpt else None),
                           int(short or 0)))
    return out


def families(backlogs: list[Backlog] | None) -> list[Metric]:
    """The gauges of one reading; None (Redis did not answer) gives `tablestream_redis_up 0` only."""
    up = GaugeMetricFamily("tablestream_redis_up", "1 if Redis answered this scrape's reads, else 0")
    up.add_metric([], 0 if backlogs is None else 1)
    if backlogs is None:
        return [up]
    pending = GaugeMetricFamily("tablestream_referee_pending_commands",
                                "Commands read by the referee group and not yet settled (XPENDING)", labels=["shard"])
    lag = GaugeMetricFamily("tablestream_referee_lag_commands",
                            "Commands on cmd:{s} not yet read by the referee group", labels=["shard"])
    proj = GaugeMetricFamily("tablestream_projector_lag_entries",
                             "Feed entries after the live projector's checkpoint", labels=["shard"])
    short = CounterMetricFamily("tablestream_wait_short",
                                "Appends whose WAIT saw fewer replicas than TABLESTREAM_WAIT_REPLICAS within "
                                "its timeout (outcomes sent anyway)", labels=["shard"])
    for b in backlogs:
        pending.add_metric([str(b.shard)], b.pending)
        lag.add_metric([str(b.shard)], b.lag)
        proj.add_metric([str(b.shard)], b.projector_lag)
        short.add_metric([str(b.shard)], b.wait_short)
    return [up, pending, lag, proj, short]


class BacklogCollector(Collector):
    """A collector whose scrape calls `read` (None when Redis did not answer)."""

    def __init__(self, read: Callable[[], list[Backlog] | None]) -> None:
        self.read = read

    def collect(self) -> Iterator[Metric]:
        yield from families(self.read())


def serve(redis: aioredis.Redis, shards: int, port: int, loop: asyncio.AbstractEventLoop) -> None:
    """Serve the backlog gauges on 127.0.0.1:`port` (prometheus-client's server thread);
    each scrape reads Redis on `loop`, the caller's running loop, through its client."""

    def read() -> list[Backlog] | None:
        try:
            return asyncio.run_coroutine_threadsafe(read_backlogs(redis, shards), loop).result(SCRAPE_S)
        except (RedisError, OSError, TimeoutError, asyncio.TimeoutError):
            return None

    registry = CollectorRegistry(auto_describe=False)
    registry.register(BacklogCollector(read))
    start_http_server(port, addr="127.0.0.1", registry=registry)
