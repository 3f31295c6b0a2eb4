"""The chat service's ASGI app (`tablestream chat serve`): Discord's interactions endpoint
(`POST /discord/interactions`) and Slack's (`POST /slack/events`), each mounted when its
secrets are set, over one ChatCore; its lifespan connects to Redis, runs the core's watcher
(turn pings, announcements, results) and closes everything on shutdown."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from litestar import Litestar, Request, Response, get, post

from services.chat.config import ChatSettings
from services.chat.core import ChatCore

MAX_BODY = 64 * 1024


def create_app(settings: ChatSettings, redis_url: str) -> Litestar:
    from services.redis_client import client

    @contextlib.asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        r = client(redis_url)
        await r.ping()
        core = ChatCore(r, settings.gateway_url, poll_s=settings.poll_s, pictures=settings.pictures)
        closers = [core.aclose]
        if settings.discord:
            from services.chat.discord import DiscordInteractions, DiscordRest, PLATFORM as DISCORD
            rest = DiscordRest(settings)
            core.sinks[DISCORD] = rest
            app.state.discord = DiscordInteractions(settings, core, rest)
            closers.append(rest.aclose)
        if settings.slack:
            from services.chat.slack import PLATFORM as SLACK, SlackSink, bolt_app, web_client
            wc = web_client(settings)
            core.sinks[SLACK] = SlackSink(wc)
            app.state.slack = bolt_app(settings, core, wc)
        watcher = asyncio.create_task(core.watch())
        try:
            yield
        finally:
            watcher.cancel()
            with contextlib.suppress(BaseException):  # every step bounded: SIGTERM must stop the service
                await asyncio.wait_for(watcher, 3)
            for close in (*closers, r.aclose):
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(close(), 3)

    @post("/discord/interactions", status_code=200)
    async def discord_interactions(request: Request) -> Response[dict]:
        handler = getattr(request.app.state, "discord", None)
        if handler is None:
            return Response({"error": "Discord is not configured"}, status_code=404)
        status, body = await handler.handle(await request.body(), request.headers.get("x-signature-ed25519", ""),
                                            request.headers.get("x-signature-timestamp", ""))
        return Response(body, status_code=status)

    @post("/slack/events", status_code=200)
    async def slack_events(request: Request) -> Response[bytes]:
        from services.chat.slack import dispatch

        bolt = getattr(request.app.state, "slack", None)
        if bolt is None:
            return Response(b'{"error": "Slack is not configured"}', status_code=404, media_type="application/json")
        status, body, headers = await dispatch(bolt, await request.body(), dict(request.headers))
        return Response(body, status_code=status, headers=headers)

    @get("/health")
    async def health() -> dict:
        return {"ok": True}

    logging.getLogger("httpx").setLevel(logging.WARNING)  # its INFO lines carry URLs (Discord's interaction tokens)
    return Litestar(route_handlers=[discord_interactions, slack_events, health], lifespan=[lifespan],
                    request_max_body_size=MAX_BODY, debug=False, logging_config=None)
