"""A shard's projector lease: several projector processes share the shards, one at a time on each.

A projector steps its shard only while its process holds the shard's lease
(`keys.projector_lease`: SET NX with an expiry, renewed while held), so any number of
`tablestream up` processes, and `play`'s in-process projectors beside them, project every
shard once, never two at a time. A shard whose holder died is taken over once its lease
lapses, from the checkpoint. A holder that finds its lease gone (a pause longer than the
lease, or a failover that lost the key) stops stepping and drops its cache; a clean stop
releases the lease at once. Were two ever to project a shard for a moment, nothing would
break: view writes are guarded by seq and log length, rows replace, ratings fold again.
"""

from __future__ import annotations

import time

import redis.asyncio as aioredis

from events import keys

_RENEW = ("if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end "
          "return 0")
_RELEASE = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0"


class Lease:
    """The lease on one shard's projection for holder `me` (a process's consumer name)."""

    def __init__(self, redis: aioredis.Redis, shard: int, name: str, me: str, ms: int) -> None:
        self.redis = redis
        self.key = keys.projector_lease(shard, name)
        self.me = me
        self.ms = ms
        self.held = False
        self._renewed = 0.0

    @property
    def retry_s(self) -> float:
        """How long a process without the lease waits before asking again."""
        return self.ms / 3000

    async def hold(self) -> bool:
        """Whether this process holds the lease now: taken if free, renewed once a third of
        its time has passed. Raises what Redis raises (a lost connection)."""
        now = time.monotonic()
        if not self.held:
            self.held = bool(await self.redis.set(self.key, self.me, nx=True, px=self.ms))
            self._renewed = now
        elif now - self._renewed >= self.ms / 3000:
            self.held = bool(await self.redis.eval(_RENEW, 1, self.key, self.me, self.ms))
            self._renewed = now
        return self.held

    async def release(self) -> None:
        """Give the lease up if held (another process takes the shard at once)."""
        if self.held:
            self.held = False
            await self.redis.eval(_RELEASE, 1, self.key, self.me)
