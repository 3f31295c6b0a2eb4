"""Serving the gateway with uvicorn on the embedded Redis (no REDIS_URL) or REDIS_URL."""

from __future__ import annotations

import asyncio
import sys

import uvicorn

from services.config import Settings
from services.gateway.app import create_app


async def _check(url: str, shards: int) -> None:
    from services.redis_client import check_shards, client

    r = client(url)
    try:
        await r.ping()
        await check_shards(r, shards)
    finally:
        await r.aclose()


def serve(settings: Settings, host: str, port: int, loop: str = "uvloop") -> int:
    """Run until SIGINT/SIGTERM; 0 after a clean stop, 4 if it could not start (Redis down,
    the port taken). A shard count other than the deployment's raises ShardMismatch."""
    from services.redis_client import url_for

    url, emb = url_for(settings)
    try:
        asyncio.run(_check(url, settings.shards))
        config = uvicorn.Config(create_app(settings, url), host=host, port=port, loop=loop, lifespan="on",
                                access_log=False, log_level="warning", server_header=False)
        server = uvicorn.Server(config)
        print(f"tablestream gateway: http://{host}:{port} on {settings.shards} shard(s)", file=sys.stderr, flush=True)
        server.run()
        return 0 if server.started else 4
    finally:
        if emb is not None:
            emb.close()
