"""Every failure the gateway answers is a typed 4xx: `{"status": "rejected", "code", "message"}`.

The codes are the stream path's (`bad_token`, `unknown_game`, `malformed`, `oversized`,
`command_id_reused`, each game's own...) plus a few of HTTP's own (`not_found`,
`method_not_allowed`, `token_in_url`, `bad_idempotency_key`, `no_outcome`). Messages never
echo a token or a request body back, and no traceback ever leaves the process.
"""

from __future__ import annotations

import logging

import msgspec
from litestar import Request, Response
from litestar.exceptions import HTTPException

log = logging.getLogger("tablestream.gateway")

STATUS: dict[str, int] = {
    "bad_token": 401,
    "token_in_url": 400,
    "malformed": 400,
    "unknown_command": 400,
    "bad_notation": 400,
    "bad_options": 400,
    "unknown_seat": 400,
    "bad_idempotency_key": 400,
    "not_found": 404,
    "unknown_game": 404,
    "unknown_game_type": 404,
    "unknown_lobby": 404,
    "unknown_identity": 404,
    "method_not_allowed": 405,
    "command_id_reused": 409,
    "game_exists": 409,
    "lobby_full": 409,
    "seat_taken": 409,
    "game_over": 409,
    "game_archived": 410,
    "game_not_over": 409,
    "already_resigned": 409,
    "nothing_to_undo": 409,
    "undo_not_allowed": 409,
    "no_host": 409,
    "oversized": 413,
    "rate_limited": 429,
    "dead_letter": 503,
    "broken_log": 503,
    "storage_full": 503,
    "wrong_shard": 503,
    "no_outcome": 504,
    "internal": 500,
}
"""HTTP status per rejection code; a code not listed is a game's rules refusing the move: 422."""


def status_of(code: str) -> int:
    return STATUS.get(code, 422)


class Problem(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, tag="rejected", tag_field="status"):
    """The body of every refusal: the stream path's Rejected outcome (`status` "rejected",
    `code`, `message`), its command and game ids only where known."""

    code: str
    message: str
    command_id: str | None = None
    game_id: str | None = None


class ApiError(Exception):
    """Raised by a handler to answer with a Problem."""

    def __init__(self, code: str, message: str, *, game_id: str | None = None,
                 command_id: str | None = None) -> None:
        super().__init__(message)
        self.problem = Problem(code=code, message=message, game_id=game_id, command_id=command_id)


def problem_response(p: Problem, headers: dict[str, str] | None = None) -> Response[bytes]:
    if p.code == "bad_token":
        headers = {**(headers or {}), "WWW-Authenticate": 'Bearer realm="tablestream"'}
    return Response(msgspec.json.encode(p), status_code=status_of(p.code), media_type="application/json",
                    headers=headers)


def on_api_error(_: Request, exc: ApiError) -> Response[bytes]:
    return problem_response(exc.problem)


_HTTP_CODES = {400: "malformed", 401: "bad_token", 404: "not_found", 405: "method_not_allowed",
               413: "oversized", 429: "rate_limited"}


def on_http_error(_: Request, exc: HTTPException) -> Response[bytes]:
    """Litestar's own refusals (a body that does not decode or validate, an unknown path,
    a body over the limit) in the same shape; a request body's fields are named by their
    path only (msgspec's message), never echoed."""
    code = _HTTP_CODES.get(exc.status_code, "malformed" if exc.status_code < 500 else "internal")
    message = exc.detail or code
    extra = exc.extra
    if code == "malformed" and isinstance(extra, list) and extra and isinstance(extra[0], dict):
        message = "; ".join(str(e.get("message", "")) for e in extra if isinstance(e, dict)) or message
    elif code == "oversized":
        message = "the request body is over the gateway's limit"
    p = Problem(code=code, message=message)
    return Response(msgspec.json.encode(p), status_code=exc.status_code if exc.status_code < 500 else 500,
                    media_type="application/json", headers=exc.headers or None)


def on_unexpected(_: Request, exc: Exception) -> Response[bytes]:
    """A bug: logged with its traceback in the gateway's own log, answered without one."""
    log.error("gateway: unexpected %s", type(exc).__name__, exc_info=exc)
    return problem_response(Problem(code="internal", message="the gateway failed to answer; the fault is logged"))
