"""What every handler of one gateway process shares: its Redis, its command client, its tables."""

from __future__ import annotations

from dataclasses import dataclass, field

import redis.asyncio as aioredis
from litestar import Request

from events.store import EventStore
from services.client import Client
from services.config import Settings
from services.gateway.metrics import GatewayMetrics
from services.gateway.notices import Notices
from services.gateway.positions import Positions
from services.gateway.tables import Tables


@dataclass
class Gateway:
    settings: Settings
    redis: aioredis.Redis
    store: EventStore
    client: Client
    """One client id per gateway process: the referee answers its commands on its reply streams."""
    tables: Tables
    notices: Notices
    """The `updated:{s}` notices, fanned out to the sockets watching each game."""
    positions: Positions
    """Each watched game's recent positions and view documents, shared by its sockets."""
    sockets: int = 0
    """Open WebSockets (for metrics)."""
    metrics: GatewayMetrics = field(default_factory=GatewayMetrics)
    """This process's command counter and latency histogram (GET /metrics)."""


def gw(request: Request) -> Gateway:
    return request.app.state.gateway  # set by the app's lifespan (services.gateway.app)
