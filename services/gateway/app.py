"""The gateway's ASGI app: its routes, its error shape, its limits, its connection to Redis.

`create_app(settings, url)` builds a Litestar app; its lifespan connects to Redis at `url`
(the shard count checked against the deployment's, as every process does), opens the
gateway's command client (one client id per process), runs its bot worker (the bot seats
of lobbies, `botseats`) and closes them on shutdown.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from litestar import Litestar
from litestar.exceptions import HTTPException
from litestar.openapi import OpenAPIConfig

from events.store import EventStore
from services.client import Client
from services.config import Settings
from services.gcpolicy import freeze_startup
from services.gateway import (catalog, commands, games, history, identities, identity_events, identity_stats, lobby,
                              metrics, socket)
from services.gateway import dashboard, pages
from services.gateway.notices import Notices
from services.gateway.positions import Positions
from services.gateway.botseats import BotWorker
from services.gateway.context import Gateway
from services.gateway.errors import ApiError, on_api_error, on_http_error, on_unexpected
from services.gateway.limits import cors, rate_limits
from services.gateway.tables import Tables

OUTCOME_TIMEOUT_S = 10.0
"""How long a command request waits for the referee's outcome before answering `no_outcome`."""


def create_app(settings: Settings, url: str) -> Litestar:
    from services.redis_client import check_shards, client

    @contextlib.asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        r = client(url)
        try:
            await r.ping()
            await check_shards(r, settings.shards)
            store = EventStore(r, shards=settings.shards)
            async with Client(r, settings.shards, timeout=OUTCOME_TIMEOUT_S) as c:
                notices = Notices(r, settings.shards)
                gw = app.state.gateway = Gateway(settings=settings, redis=r, store=store, client=c,
                                                 tables=Tables(store), notices=notices,
                                                 positions=Positions(store, notices))
                # What is built by now (modules, the games' registries, the app) lives as long as the
                # process: frozen, a full collection no longer walks it (it took ~150 ms here and
                # stalled every socket's delivery), and full collections are ten times rarer (one
                # still took 17 ms at half load, the p99 of its round; bench/RESULTS.md)
                freeze_startup(collect=True)
                stop = asyncio.Event()
                workers = [asyncio.create_task(BotWorker(gw).run(stop)), asyncio.create_task(gw.notices.run(stop))]
                try:
                    yield
                finally:
                    stop.set()
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(asyncio.gather(*workers), 5)
        finally:
            await r.aclose()

    return Litestar(
        route_handlers=[*catalog.ROUTES, *games.ROUTES, *commands.ROUTES, *history.ROUTES, *lobby.ROUTES, *socket.ROUTES,
                      *metrics.ROUTES,
                      *identities.ROUTES, *identity_events.ROUTES, *identity_stats.ROUTES, *dashboard.ROUTES,
                      *pages.ROUTES],
        lifespan=[lifespan],
        exception_handlers={ApiError: on_api_error, HTTPException: on_http_error, Exception: on_unexpected},
        request_max_body_size=settings.gateway_max_body,
        middleware=rate_limits(settings.gateway_rate_address, settings.gateway_rate_token),
        cors_config=cors(settings.gateway_cors_origins),
        openapi_config=OpenAPIConfig(title="Tablestream gateway", version="1", path="/schema"),
        debug=False,
    )
