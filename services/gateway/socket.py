"""WebSocket `/games/{id}/socket`: a game's views pushed as they change, `your_turn` to the
seat that must act, and commands on the same socket.

The client's first message subscribes: `{"type": "subscribe", "token": "<seat token>",
"after": SEQ}` (no token: a spectator; the token may come in an Authorization header
instead, never in the URL). The server then sends one `{"type": "view", "seq", "doc"}` per
command position after `after` (the viewer's view document there, as /log's entries), so a
client that reconnects with the last seq it saw gets every position it missed, none twice;
then `{"type": "your_turn", "seq"}` when its seat must act at the latest position. New
positions are looked for on the projector's `updated:{s}` notices (`notices.Notices`) and
every second. A seat's `{"type": "command", "command": ..., "key": ...}` is sent as POST
/commands sends it (`key` as its Idempotency-Key) and answered `{"type": "outcome", "key",
"outcome"}`. Refusals are `{"type": "error", "code", "message"}`; one that ends the socket
is followed by a close code: 4400 malformed, 4401 bad token, 4404 unknown game.

Fan-out: each new position's message is encoded once per viewer, with its WebSocket
frame, and the same frame queued for every socket of that viewer (written to each as it
is, `server.FanOutProtocol`) (`positions.Positions`: one read per game and notice, no
socket task woken but to send). Back-pressure: messages wait in a queue of
`gateway_ws_queue`; a socket whose queue is full when a position comes catches up on its
own, its views built one at a time as it drains, and a client that leaves it full for SLOW_S
seconds is dropped with close code 4008 (sent once it reads what was already written), so a slow client never
grows the server's memory beyond that queue and one write buffer.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

import msgspec
from litestar import WebSocket, websocket
from litestar.params import FromPath
from litestar.exceptions import WebSocketDisconnect

from projections.board import doc
from projections.table import Table, empty
from services.gateway import auth
from services.gateway.commands import check_key, run_command
from services.gateway.context import Gateway
from services.gateway.errors import ApiError
from services.gateway.positions import SEND_FRAME, Position, Shared, fold_positions
from services.gateway.tables import hashes

SLOW_S = 5.0
HELLO_S = 10.0
CLOSE_PATIENCE_S = 60.0
CLOSE = {"malformed": 4400, "bad_token": 4401, "token_in_url": 4401, "unknown_game": 4404,
         "unknown_game_type": 4404}


class Subscribe(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="subscribe",
                tag_field="type"):
    token: str | None = None
    after: int = 0


class SendCommand(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="command",
                  tag_field="type"):
    command: str | dict[str, Any]
    key: str | None = None


_hello = msgspec.json.Decoder(Subscribe)
_later = msgspec.json.Decoder(SendCommand)
_enc = msgspec.json.Encoder()


def _text(obj: Any) -> str:
    return _enc.encode(obj).decode()


class TooSlow(Exception):
    pass


class Session:
    """One subscribed socket: its queue, its viewer, the positions it has been sent.

    It folds on its own only to catch up (a subscription from an old seq, or after its queue
    was full); then it joins the game's shared positions (`positions.Positions.join`), whose
    reads hand it each new position's message without its own task waking to look."""

    def __init__(self, g: Gateway, ws: WebSocket, game_id: str, seat: int | None, token: str | None,
                 table: Table, after: int) -> None:
        self.g, self.ws, self.game_id, self.seat, self.token = g, ws, game_id, seat, token
        self.table = empty(game_id, table.game)
        self.after = after
        self.turn_told = -1
        self.q: asyncio.Queue[str | Shared] = asyncio.Queue(g.settings.gateway_ws_queue)
        self.alone = asyncio.Event()
        """Set when the game's reads let this socket go (its queue was full): it catches up on its own."""

    async def put(self, msg: str | Shared) -> None:
        if not self.q.full():
            self.q.put_nowait(msg)
            return
        try:
            await asyncio.wait_for(self.q.put(msg), SLOW_S)
        except (asyncio.TimeoutError, TimeoutError):
            raise TooSlow from None

    def offer(self, positions: list[Position]) -> bool:
        for p in positions:
            if p.table.version <= self.table.version:
                continue
            if self.q.full():
                return self._leave()
            self.table = p.table
            if p.table.version > self.after:
                self.q.put_nowait(p.shared(self.seat))
        turn = self._turn()
        if turn is not None:
            if self.q.full():
                return self._leave()
            self.turn_told = self.table.version
            self.q.put_nowait(turn)
        return True

    def _leave(self) -> bool:
        self.alone.set()
        self.g.metrics.catch_ups.inc()
        return False

    def _turn(self) -> str | None:
        """The `your_turn` message if this seat must act at its table and has not been told."""
        t = self.table
        if (self.seat is not None and not t.over and self.turn_told < t.version
                and self.seat in t.game.to_act(t.state)):
            return _text({"type": "your_turn", "seq": t.version})
        return None

    async def send_loop(self) -> None:
        # A position's message, shared by every socket of its viewer, goes out as its frame
        # built once where the server offers it (services.gateway.server.FanOutProtocol).
        direct = self.ws.scope.get("extensions", {}).get(SEND_FRAME, {}).get("send")
        while True:
            msg = await self.q.get()
            if isinstance(msg, Shared):
                if direct is not None:
                    await direct(msg.frame)
                    continue
                msg = msg.text
            await self.ws.send_data(msg, mode="text")

    async def push_loop(self) -> None:
        try:
            while True:
                self.alone.clear()
                await self._catch_up(time.monotonic())
                if self.g.positions.join(self):
                    await self.alone.wait()
        finally:
            self.g.positions.leave(self)

    async def _catch_up(self, woke: float) -> None:
        """Views of the positions after this socket's, from the gateway's shared positions
        (`positions.Positions`), or folded here when this socket is further behind."""
        shared = await self.g.positions.since(self.game_id, max(self.table.version, self.after), woke)
        if shared is not None:
            base, later = shared
            if base.version > self.table.version:  # a new socket starts at its `after`
                self.table = base
            for p in later:
                self.table = p.table
                if p.table.version > self.after:
                    await self.put(p.shared(self.seat))
        else:
            envs = await self.g.store.read(self.game_id, after_seq=self.table.version)
            for table in fold_positions(self.table, envs):
                self.table = table
                if table.version > self.after:
                    await self.put(_text({"type": "view", "seq": table.version,
                                          "doc": msgspec.Raw(doc(table, self.seat))}))
            self.g.positions.start(self.game_id, self.table)
        turn = self._turn()
        if turn is not None:
            self.turn_told = self.table.version
            await self.put(turn)

    async def command(self, msg: SendCommand) -> None:
        if self.seat is None or self.token is None:
            raise ApiError("bad_token", "a spectator sends no commands: subscribe with a seat token")
        key = check_key(msg.key)
        out = await run_command(self.g, self.game_id, self.seat, self.token, msg.command, key)
        await self.put(_text({"type": "outcome", "key": msg.key, "outcome": out}))


def _error(e: ApiError) -> dict[str, Any]:
    return {"type": "error", "code": e.problem.code, "message": e.problem.message}


async def _close(ws: WebSocket, code: int, reason: str, patience_s: float = 2.0) -> None:
    with contextlib.suppress(Exception):
        await asyncio.wait_for(ws.close(code=code, reason=reason), patience_s)


async def _subscribe(g: Gateway, ws: WebSocket, game_id: str) -> Session:
    try:
        raw = await asyncio.wait_for(ws.receive_data(mode="text"), HELLO_S)
    except (asyncio.TimeoutError, TimeoutError):
        raise ApiError("malformed", f"no subscribe message within {HELLO_S:.0f} s") from None
    try:
        hello = _hello.decode(raw)
    except (msgspec.DecodeError, msgspec.ValidationError) as e:
        raise ApiError("malformed", f"the first message subscribes: {e}") from None
    header = ws.headers.get("authorization")
    if header is not None and hello.token is not None:
        raise ApiError("malformed", "give the token in the header or in the subscribe message, not both")
    t = await g.tables.get(game_id)
    token = auth.bearer(ws) if header is not None else hello.token  # type: ignore[arg-type]
    seat = None
    if token is not None:
        seat = auth.seat_of(token, hashes(t)) if len(token) <= auth.MAX_TOKEN_CHARS else None
        if seat is None:
            raise ApiError("bad_token", "this token is not a seat token of this game", game_id=game_id)
    return Session(g, ws, game_id, seat, token, t, max(0, hello.after))


@websocket("/games/{game_id:str}/socket")
async def game_socket(socket: WebSocket, game_id: FromPath[str]) -> None:
    g: Gateway = socket.app.state.gateway
    await socket.accept()
    try:
        auth.refuse_token_in_url(socket)  # type: ignore[arg-type]
        session = await _subscribe(g, socket, game_id)
    except ApiError as e:
        with contextlib.suppress(Exception):
            await socket.send_data(_enc.encode(_error(e)).decode(), mode="text")
        await _close(socket, CLOSE.get(e.problem.code, 4400), e.problem.code)
        return
    except WebSocketDisconnect:
        return
    g.sockets += 1
    tasks = [asyncio.create_task(session.send_loop()), asyncio.create_task(session.push_loop())]
    receiver = asyncio.create_task(_receive(session))
    try:
        done, _ = await asyncio.wait([*tasks, receiver], return_when=asyncio.FIRST_COMPLETED)
        slow = any(t.exception() is not None and isinstance(t.exception(), TooSlow) for t in done)
    finally:
        g.sockets -= 1
        for t in (*tasks, receiver):
            t.cancel()
        await asyncio.gather(*tasks, receiver, return_exceptions=True)
    if slow:
        # The close frame waits behind what the client has not read yet (the server's
        # write buffer is over its mark): it goes out once the client reads, or never.
        await _close(socket, 4008, "too slow: messages piled up", CLOSE_PATIENCE_S)


async def _receive(session: Session) -> None:
    ws = session.ws
    while True:
        try:
            raw = await ws.receive_data(mode="text")
        except WebSocketDisconnect:
            return
        try:
            try:
                msg = _later.decode(raw)
            except (msgspec.DecodeError, msgspec.ValidationError) as e:
                raise ApiError("malformed", f"not a command message: {e}") from None
            await session.command(msg)
        except ApiError as e:
            await session.put(_text(_error(e)))


ROUTES = [game_socket]
