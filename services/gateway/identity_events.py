"""One event stream per identity across all its games (as lichess's bot API): NDJSON at
`GET /identities/me/events` and the same lines on the WebSocket `/identities/me/socket`.

Each line is one JSON object: `{"type": "game_started", "game_id", "game_type", "seat"}`
(with `"token"`, the seat token, once, for a seat a host offered to the identity),
`{"type": "your_turn", "game_id", "seat", "seq"}` (once per log position at which the seat
must act), `{"type": "game_finished", "game_id", "seat", "result"}`, and `{"type":
"heartbeat"}` after HEARTBEAT_S seconds of silence. The games are the identity's recorded
seats (`keys.identity_seats`), looked at again every LOOK_S; a game is looked at on its
`updated:{s}` notices (the game socket's, `notices.Notices`) and every LOOK_S. Games
already over when the stream connects are not announced. Only the bearer identity's own
seats are ever read: no token gets another identity's events.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import msgspec
from litestar import Request, WebSocket, get, websocket
from litestar.exceptions import WebSocketDisconnect
from litestar.response import Stream

from events import keys
from services.gateway import auth, identities, lobby
from services.gateway.context import Gateway, gw
from services.gateway.errors import ApiError

LOOK_S = 1.0
HEARTBEAT_S = 5.0
HELLO_S = 10.0
_enc = msgspec.json.Encoder()


@dataclass
class _Seat:
    game_id: str
    seat: int
    started: bool = False
    finished: bool = False
    turn_told: int = -1


async def events(g: Gateway, ident: identities.Identity) -> AsyncIterator[dict[str, Any]]:
    """The identity's events, forever (heartbeats in the silences)."""
    seats: dict[str, _Seat] = {}
    wake = asyncio.Event()
    first = True
    quiet = 0.0
    try:
        while True:
            wake.clear()
            for member in map(bytes.decode, await g.redis.smembers(keys.identity_seats(ident.id))):
                if member not in seats:
                    seat_s, _, game_id = member.partition(":")
                    seats[member] = _Seat(game_id, int(seat_s))
                    g.notices.watch(game_id, wake)
            told = False
            for st in seats.values():
                if st.finished:
                    continue
                for event in await _look(g, st, first):
                    told = True
                    yield event
                if st.finished:
                    g.notices.unwatch(st.game_id, wake)
            first = False
            quiet = 0.0 if told else quiet + LOOK_S
            if quiet >= HEARTBEAT_S:
                quiet = 0.0
                yield {"type": "heartbeat"}
            with contextlib.suppress(asyncio.TimeoutError, TimeoutError):
                await asyncio.wait_for(wake.wait(), LOOK_S)
    finally:
        for st in seats.values():
            g.notices.unwatch(st.game_id, wake)


async def _look(g: Gateway, st: _Seat, first: bool) -> list[dict[str, Any]]:
    try:
        t = await g.tables.get(st.game_id)
    except ApiError:  # a lobby not started yet
        return []
    out: list[dict[str, Any]] = []
    if not st.started:
        st.started = True
        if first and t.over:
            st.finished = True
            return []
        started: dict[str, Any] = {"type": "game_started", "game_id": st.game_id, "game_type": t.game.id,
                                   "seat": st.seat}
        token = await lobby.hand_over(g.redis, g.store.shard(st.game_id), st.game_id, st.seat)
        if token is not None:
            started["token"] = token
        out.append(started)
    if t.over:
        st.finished = True
        out.append({"type": "game_finished", "game_id": st.game_id, "seat": st.seat,
                    "result": msgspec.Raw(msgspec.json.encode(t.game.result(t.state)))})
    elif st.turn_told < t.version and st.seat in t.game.to_act(t.state):
        st.turn_told = t.version
        out.append({"type": "your_turn", "game_id": st.game_id, "seat": st.seat, "seq": t.version})
    return out


@get("/identities/me/events", summary="The bearer identity's events across its games, as NDJSON (long-lived)")
async def identity_events(request: Request) -> Stream:
    g = gw(request)
    ident = await identities.require_identity(g, auth.bearer(request))

    async def lines() -> AsyncIterator[bytes]:
        async for event in events(g, ident):
            yield _enc.encode(event) + b"\n"

    return Stream(lines(), media_type="application/x-ndjson", headers={"Cache-Control": "no-store"})


class _Subscribe(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="subscribe",
                 tag_field="type"):
    token: str


@websocket("/identities/me/socket")
async def identity_socket(socket: WebSocket) -> None:
    """The same events on a WebSocket: the token in an Authorization header, or in a first
    message `{"type": "subscribe", "token": ...}`; a bad one is answered with an error
    message and close code 4401."""
    g: Gateway = socket.app.state.gateway
    await socket.accept()
    try:
        auth.refuse_token_in_url(socket)  # type: ignore[arg-type]
        if socket.headers.get("authorization") is not None:
            token = auth.bearer(socket)  # type: ignore[arg-type]
        else:
            try:
                raw = await asyncio.wait_for(socket.receive_data(mode="text"), HELLO_S)
                token = msgspec.json.decode(raw, type=_Subscribe).token
            except (asyncio.TimeoutError, TimeoutError, msgspec.DecodeError, msgspec.ValidationError):
                raise ApiError("malformed", "the first message subscribes: {\"type\": \"subscribe\", "
                                            "\"token\": \"<identity token>\"}") from None
        ident = await identities.require_identity(g, token)
    except ApiError as e:
        with contextlib.suppress(Exception):
            await socket.send_data(_enc.encode({"type": "error", "code": e.problem.code,
                                                "message": e.problem.message}).decode(), mode="text")
            await asyncio.wait_for(socket.close(code=4401 if e.problem.code in ("bad_token", "token_in_url")
                                                else 4400, reason=e.problem.code), 2)
        return
    except WebSocketDisconnect:
        return
    g.sockets += 1
    try:
        async for event in events(g, ident):
            await socket.send_data(_enc.encode(event).decode(), mode="text")
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        g.sockets -= 1


ROUTES = [identity_events, identity_socket]
