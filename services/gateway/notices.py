"""One subscription per gateway to every shard's `updated:{s}` notices, fanned out in
process to the sockets watching each game (so a thousand sockets cost one Redis
connection, not a thousand)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict

import redis.asyncio as aioredis

from events import keys

log = logging.getLogger("tablestream.gateway.notices")


class Notices:
    def __init__(self, redis: aioredis.Redis, shards: int) -> None:
        self.redis = redis
        self.shards = shards
        self.watchers: defaultdict[str, set[asyncio.Event]] = defaultdict(set)

    def watch(self, game_id: str, ev: asyncio.Event | None = None) -> asyncio.Event:
        """An event set on the game's next notice (`ev`, or a new one: one event may watch many games)."""
        ev = ev if ev is not None else asyncio.Event()
        self.watchers[game_id].add(ev)
        return ev

    def unwatch(self, game_id: str, ev: asyncio.Event) -> None:
        got = self.watchers.get(game_id)
        if got is not None:
            got.discard(ev)
            if not got:
                del self.watchers[game_id]

    def poke(self, game_id: str) -> None:
        for ev in self.watchers.get(game_id, ()):
            ev.set()

    async def run(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            try:
                async with self.redis.pubsub(ignore_subscribe_messages=True) as ps:
                    await ps.subscribe(*(keys.updates(s) for s in range(self.shards)))
                    while not stop.is_set():
                        msg = await ps.get_message(timeout=0.2)
                        if msg is not None and msg.get("type") == "message":
                            data = msg["data"]
                            self.poke(data.decode() if isinstance(data, bytes) else str(data))
            except Exception:  # Redis away for a moment: the sockets also look every second
                log.warning("gateway: the updated notices were interrupted", exc_info=True)
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(stop.wait(), 1.0)
