"""One subscription per gateway to every shard's `updated:{s}` notices, fanned out in
process to the sockets watching each game (so a thousand sockets cost one Redis
connection, not a thousand). Subscribed only while some game is watched: a gateway
serving HTTP alone reads no notices (one wake a projected command, for nobody)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict

import redis.asyncio as aioredis

from events import keys

log = logging.getLogger("tablestream.gateway.notices")

IDLE_S = 0.2
"""How often the subscription checks whether anything is still watched (and the stop)."""


class Notices:
    def __init__(self, redis: aioredis.Redis, shards: int) -> None:
        self.redis = redis
        self.shards = shards
        self.watchers: defaultdict[str, set[asyncio.Event]] = defaultdict(set)
        self._wanted = asyncio.Event()  # set once a game is watched

    def watch(self, game_id: str, ev: asyncio.Event | None = None) -> asyncio.Event:
        """An event set on the game's next notice (`ev`, or a new one: one event may watch many games)."""
        ev = ev if ev is not None else asyncio.Event()
        self.watchers[game_id].add(ev)
        self._wanted.set()
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
        """Subscribe while games are watched, unsubscribe once none is. A watcher reads its
        game after watching it, so a notice sent before the subscription took effect would
        be missed: every watched game is poked once the subscription is in place."""
        while not stop.is_set():
            if not self.watchers:
                self._wanted.clear()
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(self._wanted.wait(), IDLE_S)
                continue
            try:
                async with self.redis.pubsub(ignore_subscribe_messages=True) as ps:
                    await ps.subscribe(*(keys.updates(s) for s in range(self.shards)))
                    for game_id in list(self.watchers):
                        self.poke(game_id)
                    while self.watchers and not stop.is_set():
                        msg = await ps.get_message(timeout=IDLE_S)
                        if msg is not None and msg.get("type") == "message":
                            data = msg["data"]
                            self.poke(data.decode() if isinstance(data, bytes) else str(data))
            except Exception:  # Redis away for a moment: the sockets also look every second
                log.warning("gateway: the updated notices were interrupted", exc_info=True)
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(stop.wait(), 1.0)
