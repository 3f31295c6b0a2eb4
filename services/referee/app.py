"""The referee process: a FastStream app over cmd:{s} of the shards it serves."""

from __future__ import annotations

import logging
from collections.abc import Callable

import redis.asyncio as aioredis
from faststream import FastStream
from faststream.redis import RedisBroker

from events.store import EventStore
from services.config import Settings
from services.referee.referee import Referee, ms_clock
from services.referee.routes import build_router


class RefereeService:
    """Broker, app, Redis client and one Referee per shard, built together, started together."""

    def __init__(self, settings: Settings, url: str, shards: list[int] | None = None,
                 clock: Callable[[], int] = ms_clock) -> None:
        self.settings = settings
        self.redis = aioredis.from_url(url, decode_responses=False)
        self.store = EventStore(self.redis, shards=settings.shards, feed_maxlen=settings.feed_maxlen)
        served = list(range(settings.shards)) if shards is None else shards
        self.referees = {s: Referee(self.redis, self.store, settings, s, clock=clock) for s in served}
        # No per-message INFO lines: at thousands of commands per second they cost more
        # than the rules. Errors still go to the "tablestream" and faststream loggers.
        self.broker = RedisBroker(url, logger=logging.getLogger("tablestream.broker"),
                                  log_level=logging.DEBUG)
        self.broker.include_router(build_router(
            self.referees, settings.consumer, batch=settings.batch, poll_ms=settings.poll_ms,
            claim_idle_ms=settings.claim_idle_ms))
        self.app = FastStream(self.broker, logger=logging.getLogger("tablestream.app"))
        self.app.after_shutdown(self.redis.aclose)

    async def start(self) -> None:
        """Start consuming (for running inside another event loop, e.g. `play` or tests)."""
        await self.broker.start()

    async def stop(self) -> None:
        await self.broker.stop()
        await self.redis.aclose()
