"""Seat tokens as bearer tokens: which seat of a game a request speaks for.

A token travels only in `Authorization: Bearer <token>`; a request carrying one in its URL
(`?token=`) is refused before anything else, since URLs end up in logs and histories. The
seat is found by comparing the token's SHA-256 with every seat's recorded hash
(`GameOpened.seat_token_hashes`) with `hmac.compare_digest`, all seats every time, so the
answer's timing says nothing about which seat or how much of a hash matched.
"""

from __future__ import annotations

import hmac

from litestar import Request

from services import protocol
from services.gateway.errors import ApiError

MAX_TOKEN_CHARS = 256
URL_SECRETS = ("token", "access_token", "seat_token")


def refuse_token_in_url(request: Request) -> None:
    if any(name in request.query_params for name in URL_SECRETS):
        raise ApiError("token_in_url", "tokens go in the Authorization header (Bearer), never in a URL")


def bearer(request: Request) -> str | None:
    """The bearer token of the request, None without an Authorization header."""
    refuse_token_in_url(request)
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > MAX_TOKEN_CHARS:
        raise ApiError("bad_token", "the Authorization header must be 'Bearer <seat token>'")
    return token


def seat_of(token: str, hashes: list[str]) -> int | None:
    """The seat whose recorded hash is the token's, compared in constant time over all seats."""
    digest = protocol.token_hash(token).encode()
    found: int | None = None
    for seat, h in enumerate(hashes):
        if hmac.compare_digest(digest, h.encode()):
            found = seat
    return found


def require_seat(request: Request, hashes: list[str], game_id: str) -> tuple[int, str]:
    """The seat and token of a request that must speak for a seat of this game (401 if not)."""
    token = bearer(request)
    if token is None:
        raise ApiError("bad_token", "this resource needs a seat token: 'Authorization: Bearer <token>'",
                       game_id=game_id)
    seat = seat_of(token, hashes)
    if seat is None:
        raise ApiError("bad_token", "this token is not a seat token of this game", game_id=game_id)
    return seat, token


def optional_seat(request: Request, hashes: list[str], game_id: str) -> int | None:
    """The bearer's seat, or None (spectator) without a token; a wrong token is refused,
    never quietly served the spectator's view."""
    if request.headers.get("authorization") is None:
        refuse_token_in_url(request)
        return None
    return require_seat(request, hashes, game_id)[0]
