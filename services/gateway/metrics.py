"""GET /metrics: the gateway's Prometheus metrics (text exposition format).

This process's command path: `tablestream_gateway_commands_total{game_type, outcome}`
(outcome: `accepted`, or the refusal's code, the gateway's own as `bad_notation` or
`no_outcome` included) and `tablestream_gateway_command_seconds{game_type}`, from publishing
a command to its outcome; `tablestream_gateway_websockets`, the sockets open now;
`tablestream_gateway_websocket_catch_ups_total`, the times a socket's queue was full when
its game's new positions were read, so that it left the shared reads to catch up on its own
(a slow client; it is dropped if it stays so, services.gateway.socket). Then the
deployment's backlogs per shard, read from Redis at each scrape (services.metrics). No
label carries a game id, token, secret or seat.
"""

from __future__ import annotations

from typing import Any

from litestar import Request, Response, get
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from redis.exceptions import RedisError

from services.metrics import BacklogCollector, read_backlogs

BUCKETS = (0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class GatewayMetrics:
    """One gateway process's command counter, latency histogram and socket gauge, on a
    registry of their own (so that several apps in one process never collide)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.commands = Counter("tablestream_gateway_commands", "Commands this gateway sent or refused itself, "
                                "by game type and outcome (accepted or the refusal's code)",
                                ["game_type", "outcome"], registry=self.registry)
        self.seconds = Histogram("tablestream_gateway_command_seconds", "From publishing a command to its outcome",
                                 ["game_type"], buckets=BUCKETS, registry=self.registry)
        self.sockets = Gauge("tablestream_gateway_websockets", "WebSockets open on this gateway",
                             registry=self.registry)
        self.catch_ups = Counter("tablestream_gateway_websocket_catch_ups", "Times a WebSocket's queue was full "
                                 "when its game's new positions were read (it then caught up on its own)",
                                 registry=self.registry)
        # Each label set's child, looked up once (`labels` takes a lock and builds a tuple
        # each call; there are only game types × outcome codes of them).
        self._counted: dict[tuple[str, str], Any] = {}
        self._timed: dict[str, Any] = {}

    def command(self, game_type: str, outcome: str, seconds: float | None = None) -> None:
        """Count one command's outcome; `seconds` from its publishing when the referee answered."""
        counted = self._counted.get((game_type, outcome))
        if counted is None:
            counted = self._counted[(game_type, outcome)] = self.commands.labels(game_type, outcome)
        counted.inc()
        if seconds is not None:
            timed = self._timed.get(game_type)
            if timed is None:
                timed = self._timed[game_type] = self.seconds.labels(game_type)
            timed.observe(seconds)


@get("/metrics", summary="Prometheus metrics: commands, latency, sockets, per-shard backlogs", include_in_schema=False)
async def metrics(request: Request) -> Response[bytes]:
    g = request.app.state.gateway  # services.gateway.context.Gateway (that module holds this one's metrics)
    try:
        backlogs = await read_backlogs(g.redis, g.settings.shards)
    except (RedisError, OSError):
        backlogs = None
    shard = CollectorRegistry(auto_describe=False)
    shard.register(BacklogCollector(lambda: backlogs))
    g.metrics.sockets.set(g.sockets)
    body = generate_latest(g.metrics.registry) + generate_latest(shard)
    return Response(body, status_code=200, media_type=CONTENT_TYPE_LATEST)


ROUTES = [metrics]
