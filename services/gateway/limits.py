"""The gateway's guards configured from Settings: rate limits (Litestar's rate-limit
middleware, per client address and per bearer token) and CORS (off unless origins are given).

Limits are counted per gateway process (Litestar's memory store): with several gateways
behind a balancer, each allows its own share. A token is counted under its SHA-256, never
kept itself. An exceeded limit is 429 `rate_limited` with the RateLimit-* headers.
"""

from __future__ import annotations

from typing import Any

from litestar import Request
from litestar.config.cors import CORSConfig
from litestar.middleware.rate_limit import RateLimitConfig, get_remote_address

from services import protocol

UNITS = ("second", "minute", "hour", "day")


def parse_rate(text: str) -> tuple[str, int] | None:
    """"N/unit" -> (unit, N); "off" or "" -> None. ValueError for anything else."""
    text = text.strip().lower()
    if text in ("", "off", "0"):
        return None
    n, _, unit = text.partition("/")
    if not n.isdigit() or int(n) < 1 or unit not in UNITS:
        raise ValueError(f"a rate is N/{'|'.join(UNITS)} or off, not {text!r}")
    return unit, int(n)  # type: ignore[return-value]


def _has_token(request: Request) -> bool:
    return request.headers.get("authorization") is not None


def _token_id(request: Request) -> str:
    return protocol.token_hash(request.headers.get("authorization", ""))


def rate_limits(address: str, token: str) -> list[Any]:
    """The rate-limit middlewares for these settings (none when both are off)."""
    out = []
    by_address = parse_rate(address)
    if by_address is not None:
        out.append(RateLimitConfig(rate_limit=by_address, identifier_for_request=get_remote_address,  # type: ignore[arg-type]
                                   store="rate_limit_address").middleware)
    by_token = parse_rate(token)
    if by_token is not None:
        out.append(RateLimitConfig(rate_limit=by_token, identifier_for_request=_token_id,  # type: ignore[arg-type]
                                   check_throttle_handler=_has_token, store="rate_limit_token").middleware)
    return out


def cors(origins: str) -> CORSConfig | None:
    allowed = [o.strip() for o in origins.split(",") if o.strip()]
    if not allowed:
        return None
    return CORSConfig(allow_origins=allowed, allow_methods=["GET", "POST"],
                      allow_headers=["Authorization", "Content-Type", "Idempotency-Key"])
