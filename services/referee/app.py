"""The referee process: a FastStream app over cmd:{s} of the shards it serves."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

from faststream import FastStream

from events import keys
from events.store import EventStore
from services import protocol
from services.config import Settings
from services.gcpolicy import freeze_startup
from services.redis_client import check_shards, client
from services.referee.broker import make_broker
from services.referee.referee import Referee, ms_clock
from services.referee.routes import build_router


HEARTBEAT_TTL_S = 3
LOG_EVERY_S = 10.0
"""A shard's short WAITs are logged at most this often (each is counted)."""
log = logging.getLogger("tablestream.referee")


class RefereeService:
    """Broker, app, Redis client and one Referee per shard, built together, started together."""

    def __init__(self, settings: Settings, url: str, shards: list[int] | None = None,
                 clock: Callable[[], int] = ms_clock) -> None:
        self.settings = settings
        self.redis = client(url)
        self.store = EventStore(self.redis, shards=settings.shards, feed_maxlen=settings.feed_maxlen,
                                wait_replicas=settings.wait_replicas, wait_timeout_ms=settings.wait_timeout_ms)
        self.store.on_short_wait = self._short_wait
        self.short_waits = 0
        self._short_logged: dict[int, tuple[float, int]] = {}  # shard -> (last log time, unlogged since)
        served = list(range(settings.shards)) if shards is None else shards
        self.referees = {s: Referee(self.redis, self.store, settings, s, clock=clock) for s in served}
        # No per-message INFO lines: at thousands of commands per second they cost more
        # than the rules. Errors still go to the "tablestream" and faststream loggers.
        # No FastDepends injection either: the handlers take the raw batch, and resolving
        # their signature cost 82k instructions a read (callgrind), about 40 µs here.
        self.broker = make_broker(url, logger=logging.getLogger("tablestream.broker"),
                                    log_level=logging.DEBUG, apply_types=False)
        self.broker.include_router(build_router(
            self.referees, settings.consumer, batch=settings.batch, poll_ms=settings.poll_ms,
            claim_idle_ms=settings.claim_idle_ms))
        self.app = FastStream(self.broker, logger=logging.getLogger("tablestream.app"))
        self.app.after_shutdown(self.redis.aclose)
        self._heartbeat: asyncio.Task[None] | None = None
        self._stopping = asyncio.Event()

    async def start(self) -> None:
        """Start consuming (for running inside another event loop, e.g. `play` or tests):
        heartbeat, then the commands left pending by this consumer name or by dead
        referees, in stream order, then new commands."""
        try:
            await check_shards(self.redis, self.settings.shards)
        except Exception:
            await self.redis.aclose()
            raise
        await self.store.beat(self.settings.consumer, HEARTBEAT_TTL_S)
        self._heartbeat = asyncio.create_task(self._beat())
        await self.recover()
        # Everything allocated so far (imports, catalogs, the recovered games) moves to the
        # permanent generation: full passes of the cyclic collector then walk only what the
        # referee creates from now on. They took 30-50 ms here and made the latency's p99.
        # The games are imported first so that their modules and catalogs are frozen too. A
        # full pass still walks the game caches the referee fills as it plays (payment
        # tables: some 10 ms here), so they are made ten times rarer than Python's default.
        from games import registry  # noqa: F401  (import for its side effect: the catalogs)

        freeze_startup()
        await self.broker.start()

    async def _short_wait(self, shard: int, acked: int) -> None:
        """An append's WAIT saw `acked` < TABLESTREAM_WAIT_REPLICAS replicas within the
        timeout; its outcomes were sent anyway (the writes are on the master). Counted in
        durability:{s} (the metric tablestream_wait_short_total) and logged, at most once
        per shard per LOG_EVERY_S (with the count since): after a failover every append
        waits the whole timeout until the new master has a replica."""
        self.short_waits += 1
        last, since = self._short_logged.get(shard, (0.0, 0))
        now = time.monotonic()
        if now - last >= LOG_EVERY_S:
            log.warning("shard %d: WAIT %d saw %d replica(s) within %d ms (%d such appends since the last "
                        "warning); the outcomes were sent, their writes are on the master only",
                        shard, self.settings.wait_replicas, acked, self.settings.wait_timeout_ms, since + 1)
            self._short_logged[shard] = (now, 0)
        else:
            self._short_logged[shard] = (last, since + 1)
        with contextlib.suppress(Exception):
            await self.redis.hincrby(keys.durability(shard), "wait_short", 1)

    async def _beat(self) -> None:
        # Stopped by an event, never cancelled: a cancellation that arrives while redis-py
        # awaits the SET can be swallowed there, and the loop then beat on forever (seen:
        # `stop` waiting for it, about one bench drain in ten).
        while True:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), HEARTBEAT_TTL_S / 3)
            if self._stopping.is_set():
                return
            with contextlib.suppress(Exception):
                await self.store.beat(self.settings.consumer, HEARTBEAT_TTL_S)
            # The commands every referee has acknowledged go from cmd:{s} (their outcomes,
            # events and records are kept elsewhere); pending and unread ones stay. So do
            # the feed entries the live projector has applied (the logs keep every event).
            for shard in self.referees:
                with contextlib.suppress(Exception):
                    await self.store.trim_acknowledged(keys.cmd(shard), protocol.GROUP)
                with contextlib.suppress(Exception):
                    await self.store.trim_projected(shard, keys.LIVE)

    async def recover(self) -> int:
        """Judge the commands a previous run left pending before any new one, so that a
        crash does not reorder a game's commands: first those of consumers with no
        heartbeat (taken over with XCLAIM), then this consumer name's own (a restart
        under the same TABLESTREAM_CONSUMER). Returns how many were judged."""
        me, judged = self.settings.consumer, 0
        for shard, referee in self.referees.items():
            stream = keys.cmd(shard)
            await self.store.ensure_group(stream, protocol.GROUP)
            await self.store.take_over_dead(stream, protocol.GROUP, me)
            last: bytes | str = "0-0"
            while entries := await self.store.own_pending(stream, protocol.GROUP, me, last, self.settings.batch):
                await referee.handle_reclaimed(entries)
                judged += len(entries)
                last = entries[-1][0]
        return judged

    async def stop(self) -> None:
        self._stopping.set()
        if self._heartbeat is not None:
            with contextlib.suppress(Exception):
                await self._heartbeat
        await self.broker.stop()
        for referee in self.referees.values():
            await referee.drain()  # the last batch lands (or stays pending) before we close
        with contextlib.suppress(Exception):
            await self.store.stop_beating(self.settings.consumer)
        await self.redis.aclose()
