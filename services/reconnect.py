"""Riding out a Redis restart or a cluster failover: retry a call on a lost connection,
with back-off, up to a deadline.

redis-py reconnects a pool's connection on the next call, but the call that met the
broken connection (or a server still loading its AOF: BusyLoadingError) raises. On a
Redis Cluster a master's loss shows as more errors than that while its replica is
promoted: refused connections to the dead node, CLUSTERDOWN / MASTERDOWN, TRYAGAIN,
redirections, a write refused by a demoted master (READONLY), a slot no node covers yet.
(redis-py's own `AttributeError` / `RuntimeError` on a connection reset under a call,
redis-py #4287, are turned into ConnectionError by `services.redis_client.ResetSafe`, and
its cluster client re-discovers the topology after any of these: `FailoverCluster`.)
Callers whose work must survive either (the client library, the bots, the projector, the
referee's batch loop) catch `LOST`; the calls they repeat are safe to repeat (reads, an
XADD of a command whose id the referee deduplicates, the projector's seq-guarded write,
the append script, whose command ids make a second run a duplicate).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

import redis.exceptions

T = TypeVar("T")

log = logging.getLogger("tablestream.reconnect")

LOST = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, ConnectionError, OSError,
        redis.exceptions.ClusterError, redis.exceptions.TryAgainError, redis.exceptions.AskError,
        redis.exceptions.ReadOnlyError, redis.exceptions.SlotNotCoveredError)
"""What a Redis restart or a cluster failover looks like to a client: refused or reset
connections, a server still loading its data (BusyLoadingError is a ConnectionError); on a
cluster also CLUSTERDOWN and MASTERDOWN (ClusterError, as is redis-py's "TTL exhausted"
after too many redirections), TRYAGAIN, MOVED/ASK that redis-py could not follow, READONLY
(a write that reached a master demoted to replica) and a slot not covered yet."""

FIRST_S = 0.02
MAX_S = 1.0


class Backoff:
    """Delays between attempts: 20 ms, doubling, at most 1 s."""

    def __init__(self) -> None:
        self.delay = FIRST_S

    async def wait(self) -> None:
        await asyncio.sleep(self.delay)
        self.delay = min(self.delay * 2, MAX_S)

    def reset(self) -> None:
        self.delay = FIRST_S


async def retrying(call: Callable[[], Awaitable[T]], give_up_s: float, what: str) -> T:
    """`await call()`, again after each lost connection, until `give_up_s` seconds have
    passed (then the last error is raised)."""
    deadline = time.monotonic() + give_up_s
    backoff = Backoff()
    while True:
        try:
            return await call()
        except LOST as e:
            if time.monotonic() + backoff.delay > deadline:
                raise
            log.warning("%s: Redis connection lost (%s); retrying", what, type(e).__name__)
            await backoff.wait()
