"""POST /games/{id}/commands: a seat's command, sent to the referee like any client's.

The body is `{"command": "<notation>"}` or `{"command": {structured}}`; the seat is the
bearer token's. An `Idempotency-Key` header becomes the command id, derived from a hash of
the bearer token and the key (`command_id`): a retry under the same key is the same command
id, and the referee answers it with its first outcome (or `command_id_reused` if the body
differs); another bearer's same key is another id, so no client can squat another's. The
answer is the outcome: 200 with the accepted seqs, or the rejection as a 4xx
(`errors.STATUS`).
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from typing import Any

import msgspec
from litestar import Request, Response, post
from litestar.params import FromPath, JSONBody

from events.envelope import Accepted, Outcome
from games.contract import Rejection
from services.client import parse_text
from services.protocol import LeaveRequest
from services.gateway import auth
from services.gateway.context import Gateway, gw
from services.gateway.errors import ApiError, problem_response, Problem

MAX_KEY_CHARS = 200


class SendCommand(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A command in the game's notation (a string) or as a structured object (as /moves lists it)."""

    command: str | dict[str, Any]


def command_id(token: str, key: str) -> str:
    """The command id of an Idempotency-Key: namespaced by the bearer's token, which only
    its holder knows, so one client's key can never name another's command."""
    h = hashlib.sha256(b"tablestream/idempotency\0%s\0%s" % (token.encode(), key.encode()))
    return "idem-" + h.hexdigest()[:32]


def _encode(game: Any, command: str | dict[str, Any], limit: int) -> bytes:
    if isinstance(command, str):
        parsed = parse_text(game, command, limit)
        if isinstance(parsed, Rejection):
            raise ApiError(parsed.code, parsed.message)
        return msgspec.json.encode(parsed)
    try:
        structured = msgspec.convert(command, game.commands)
    except msgspec.ValidationError as e:
        raise ApiError("malformed", f"not a {game.id} command: {e}") from None
    data = msgspec.json.encode(structured)
    if len(data) > limit:
        raise ApiError("oversized", f"a command may be at most {limit} bytes; this one has {len(data)}")
    return data


def outcome_response(out: Outcome) -> Response[bytes]:
    if isinstance(out, Accepted):
        return Response(msgspec.json.encode(out), status_code=200, media_type="application/json")
    return problem_response(Problem(code=out.code, message=out.message, command_id=out.command_id,
                                    game_id=out.game_id))


async def run_command(g: Gateway, game_id: str, seat: int, token: str, command: str | dict[str, Any],
                      key: str | None) -> Outcome:
    """Send one command of `seat` (its token checked by the caller) and wait for its outcome;
    ApiError for what the gateway refuses itself (bad notation, wrong shape, no answer)."""
    game = (await g.tables.seats(game_id)).game
    try:
        body = _encode(game, command, g.settings.max_command_bytes)
    except ApiError as e:
        g.metrics.command(game.id, e.problem.code)
        raise ApiError(e.problem.code, e.problem.message, game_id=game_id) from None
    env = g.client.envelope(game_id=game_id, game_type=game.id, seat=seat, token=token, command=body,
                            command_id=command_id(token, key) if key is not None else None)
    sent = time.perf_counter()
    try:
        out = await g.client.submit(env)
    except (asyncio.TimeoutError, TimeoutError):
        g.metrics.command(game.id, "no_outcome")
        raise ApiError("no_outcome", "the referee did not answer in time; send it again with the same "
                       "Idempotency-Key to learn its outcome", game_id=game_id, command_id=env.command_id) from None
    g.metrics.command(game.id, "accepted" if isinstance(out, Accepted) else out.code, time.perf_counter() - sent)
    return out


def check_key(key: str | None) -> str | None:
    if key is not None and (not 0 < len(key) <= MAX_KEY_CHARS or not key.isprintable()):
        raise ApiError("bad_idempotency_key", f"an Idempotency-Key is 1-{MAX_KEY_CHARS} printable characters")
    return key


@post("/games/{game_id:str}/commands", status_code=200,
      summary="Send the bearer's command (notation or structured); answers with its outcome")
async def send_command(request: Request, game_id: FromPath[str], data: JSONBody[SendCommand]) -> Response[bytes]:
    g = gw(request)
    key = check_key(request.headers.get("idempotency-key"))
    seat, token = auth.require_seat(request, (await g.tables.seats(game_id)).hashes, game_id)
    return outcome_response(await run_command(g, game_id, seat, token, data.command, key))


@post("/games/{game_id:str}/resign", status_code=200,
      summary="Resign the bearer's seat: a bot (body {\"bot\": \"greedy\"}, default random) plays it to the end "
              "and it ranks last; answers with the outcome")
async def resign(request: Request, game_id: FromPath[str]) -> Response[bytes]:
    g = gw(request)
    seats = await g.tables.seats(game_id)
    seat, token = auth.require_seat(request, seats.hashes, game_id)
    return await _submit(request, game_id, seats.game.id, "resign", seat, token, await _leave_body(request))


@post("/games/{game_id:str}/undo", status_code=200,
      summary="Take back the bearer's last command where the game's undo policy allows; answers with the outcome")
async def undo(request: Request, game_id: FromPath[str]) -> Response[bytes]:
    g = gw(request)
    seats = await g.tables.seats(game_id)
    seat, token = auth.require_seat(request, seats.hashes, game_id)
    return await _submit(request, game_id, seats.game.id, "undo", seat, token, b"null")


@post("/games/{game_id:str}/seats/{seat:int}/abandon", status_code=200,
      summary="The host (its bearer token) gives a seat up to a bot (body {\"bot\": ...}, default random); "
              "answers with the outcome")
async def abandon(request: Request, game_id: FromPath[str], seat: FromPath[int]) -> Response[bytes]:
    g = gw(request)
    seats = await g.tables.seats(game_id)
    token = auth.bearer(request)
    if token is None:  # the referee checks it against the host's logged hash
        raise ApiError("bad_token", "the host's token goes in 'Authorization: Bearer <token>'")
    if not 0 <= seat < len(seats.hashes):
        raise ApiError("unknown_seat", f"seat must be 0..{len(seats.hashes) - 1}")
    return await _submit(request, game_id, seats.game.id, "abandon", seat, token, await _leave_body(request))


async def _leave_body(request: Request) -> bytes:
    """The optional body of resign and abandon (`protocol.LeaveRequest`), checked here."""
    body = await request.body()
    if not body.strip():
        return b"null"
    try:
        return msgspec.json.encode(msgspec.json.decode(body, type=LeaveRequest))
    except (msgspec.DecodeError, msgspec.ValidationError) as e:
        raise ApiError("malformed", f"the body is {{\"bot\": \"random\" or \"greedy\"}} or nothing: {e}") from None


async def _submit(request: Request, game_id: str, game_type: str, kind: str, seat: int, token: str,
                  command: bytes) -> Response[bytes]:
    """A command of `kind` for `seat`, the Idempotency-Key honoured; answers with its outcome."""
    g = gw(request)
    key = check_key(request.headers.get("idempotency-key"))
    env = g.client.envelope(game_id=game_id, game_type=game_type, kind=kind, seat=seat, token=token,
                            command=command, command_id=command_id(token, key) if key is not None else None)
    try:
        out = await g.client.submit(env)
    except (asyncio.TimeoutError, TimeoutError):
        raise ApiError("no_outcome", "the referee did not answer in time; send it again with the same "
                       "Idempotency-Key to learn its outcome", game_id=game_id, command_id=env.command_id) from None
    g.metrics.command(game_type, "accepted" if isinstance(out, Accepted) else out.code)
    return outcome_response(out)


ROUTES = [send_command, resign, undo, abandon]
