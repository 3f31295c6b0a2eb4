"""Serving the gateway with uvicorn on the embedded Redis (no REDIS_URL) or REDIS_URL."""

from __future__ import annotations

import asyncio
import signal
import socket
import sys
from typing import Any

import uvicorn
from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from services.config import Settings
from services.gateway.app import create_app
from services.gateway.positions import SEND_FRAME


async def _check(url: str, shards: int) -> None:
    from services.redis_client import check_shards, client

    r = client(url)
    try:
        await r.ping()
        await check_shards(r, shards)
    finally:
        await r.aclose()


class FanOutProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol, plus a way to write a whole prebuilt server
    text frame (unmasked, one fragment, uncompressed: valid whatever the connection
    negotiated, RFC 7692 section 6): a position's message goes to a thousand sockets as one
    kernel write each, without websockets' framing and the ASGI send path per socket (most
    of the gateway's CPU a delivered message besides the write itself). Optionally each
    connection's kernel send buffer is set to `sndbuf` bytes: a small one bounds what a
    client that stops reading can hold in the kernel, so it is dropped sooner (4008)."""

    sndbuf = 0

    def connection_made(self, transport: Any) -> None:
        sock = transport.get_extra_info("socket")
        if sock is not None and self.sndbuf > 0:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.sndbuf)
        super().connection_made(transport)

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:  # the handshake was accepted: the app runs on this scope
            scope["extensions"][SEND_FRAME] = {"send": self.send_frame}

    async def send_frame(self, frame: bytes) -> None:
        """Write `frame` (built by `positions.text_frame`) as `send` writes a text message:
        after the transport's back-pressure lets it, never after a close."""
        await self.writable.wait()
        if self.disconnected or self.close_sent or not self.handshake_complete or self.transport.is_closing():
            raise ClientDisconnected()
        self.transport.write(frame)


def ws_protocol(sndbuf: int) -> Any:
    """The gateway's WebSocket protocol class (`FanOutProtocol`), each connection's kernel
    send buffer set to `sndbuf` bytes (0: the kernel sizes it)."""
    return type("FanOut", (FanOutProtocol,), {"sndbuf": max(0, sndbuf)})


def _stopped(signum: int, frame: Any) -> None:
    raise SystemExit(0)


def serve(settings: Settings, host: str, port: int, loop: str = "uvloop") -> int:
    """Run until SIGINT/SIGTERM; 0 after a clean stop, 4 if it could not start (Redis down,
    the port taken). A shard count other than the deployment's raises ShardMismatch."""
    from services.redis_client import url_for

    url, emb = url_for(settings)
    try:
        asyncio.run(_check(url, settings.shards))
        config = uvicorn.Config(create_app(settings, url), host=host, port=port, loop=loop, lifespan="on",
                                ws=ws_protocol(settings.gateway_ws_sndbuf), access_log=False, log_level="warning",
                                server_header=False)
        server = uvicorn.Server(config)
        # uvicorn re-raises a SIGTERM or SIGINT it caught once it has shut down (the process
        # would end by the signal, -15, or with KeyboardInterrupt's traceback); with these
        # handlers in place that re-raise ends it with status 0.
        signal.signal(signal.SIGTERM, _stopped)
        signal.signal(signal.SIGINT, _stopped)
        print(f"tablestream gateway: http://{host}:{port} on {settings.shards} shard(s)", file=sys.stderr, flush=True)
        server.run()
        return 0 if server.started else 4
    finally:
        if emb is not None:
            emb.close()
