"""The store's state and sharding, shared by its parts (reads, appends, admin).

It needs a client created with `decode_responses=False`: payloads are stored and hashed as
exact bytes.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import redis.asyncio as aioredis

from events import keys
from events.held import HeldConnection


class StoreBase:
    """One redis.asyncio client, the shard count and what the append path keeps."""

    def __init__(
        self,
        redis: aioredis.Redis,
        shards: int = 1,
        feed_maxlen: int = 1_000_000,
        done_ttl: int | None = None,
        wait_replicas: int = 0,
        wait_timeout_ms: int = 1000,
    ) -> None:
        """`feed_maxlen` trims each feed approximately (0: never); `done_ttl` expires
        idempotency records after that many seconds (None: keep them forever).

        `wait_replicas` > 0: every append call that settles commands (landings) is followed
        by `WAIT wait_replicas wait_timeout_ms` before their outcomes and acknowledgements
        are written (see `append_batch`); an append whose WAIT saw fewer replicas is still
        delivered (its writes are on the master) and reported to `on_short_wait`."""
        if shards < 1 or feed_maxlen < 0 or (done_ttl is not None and done_ttl < 1):
            raise ValueError("need shards >= 1, feed_maxlen >= 0 and done_ttl None or >= 1")
        if wait_replicas < 0 or wait_timeout_ms < 1:
            raise ValueError("need wait_replicas >= 0 and wait_timeout_ms >= 1 (WAIT 0 would never return)")
        self.wait_replicas = wait_replicas
        self.wait_timeout_ms = wait_timeout_ms
        self.on_short_wait: Callable[[int, int], Awaitable[None]] | None = None
        """Awaited with (shard, replicas that acknowledged) after a WAIT that saw fewer than asked."""
        encoder = getattr(redis, "get_encoder", None)
        if encoder is not None and encoder().decode_responses:
            raise ValueError("EventStore needs a client with decode_responses=False")
        self._redis = redis
        self.shards = shards
        self.feed_maxlen = feed_maxlen
        self.done_ttl = done_ttl
        self._sha: str | None = None
        self._held = HeldConnection(redis)  # the append script's own connection (see _script)
        self._checked: dict[str, int] = {}  # reply streams found in a shard's slot (key -> shard)

    def shard(self, game_id: str) -> int:
        """The shard holding `game_id`'s keys."""
        return keys.shard_of(game_id, self.shards)
