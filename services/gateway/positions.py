"""Each watched game's recent positions, read and folded once per gateway and handed to all
its sockets.

A thousand spectators of one game must not cost a thousand reads of its log, folds, view
documents and JSON encodings at every move. One pump per watched game (`_pump`) waits for
the game's `updated:{s}` notice (or LOOK_S), reads the new envelopes (one XRANGE), folds them
into command-end positions and keeps the last KEEP of them. Each position builds its
WebSocket message (`{"type": "view", "seq", "doc"}`, already encoded) once per viewer; the
read hands the new positions, in the same step, to every socket that has joined the game
(`Member.offer`), which queues the shared message text without awaiting anything: one read
wakes each socket's sender once, and no socket reads or folds on its own.

It is a derivation of the log like `tables`: positions only ever advance by the envelopes
that follow them. A socket further behind than the window (a reconnect with an old seq, a
first subscription from the start) folds on its own (`None` from `since`) and joins when it
has caught up; one whose queue is full leaves (`offer` False) and catches up on its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

import msgspec

from events.envelope import Envelope
from events.store import EventStore
from projections.board import doc
from projections.table import Table, advance
from services.gateway.notices import Notices

KEEP = 16
"""Positions kept per game: a socket more than this many commands behind folds on its own."""
GAMES = 200
"""Games kept without sockets (the least recently watched dropped first; read again whole)."""
LOOK_S = 1.0
"""A pump also reads this often without a notice (a notice lost while Redis was away)."""

_enc = msgspec.json.Encoder()

SEND_FRAME = "tablestream.send_frame"
"""The scope extension (`{"send": coroutine function}`) by which the gateway's server lets a
socket write a text frame built once for all the sockets of one viewer (`Shared`;
`services.gateway.server.FanOutProtocol`)."""
log = logging.getLogger("tablestream.gateway.positions")


@dataclass
class Position:
    table: Table
    docs: dict[int | None, bytes] = field(default_factory=dict)

    def doc(self, seat: int | None) -> bytes:
        got = self.docs.get(seat)
        if got is None:
            got = self.docs[seat] = doc(self.table, seat)
        return got

    frames: dict[int | None, Shared] = field(default_factory=dict)

    def message(self, seat: int | None) -> str:
        """The socket message of this position for `seat`'s sockets (None: spectators),
        encoded once and shared by all of them."""
        return self.shared(seat).text

    def shared(self, seat: int | None) -> Shared:
        """`message(seat)` and its WebSocket text frame, built once for all those sockets."""
        got = self.frames.get(seat)
        if got is None:
            data = _enc.encode({"type": "view", "seq": self.table.version, "doc": msgspec.Raw(self.doc(seat))})
            got = self.frames[seat] = Shared(data.decode(), text_frame(data))
        return got


class Shared(NamedTuple):
    """A message many sockets are sent: its text and its whole WebSocket frame."""

    text: str
    frame: bytes


def text_frame(payload: bytes) -> bytes:
    """The server-to-client WebSocket frame of one whole text message (RFC 6455 section
    5.2: FIN and opcode 1, no mask, the payload length in 7, 16 or 64 bits)."""
    n = len(payload)
    if n < 126:
        return bytes((0x81, n)) + payload
    if n < 1 << 16:
        return b"\x81\x7e" + n.to_bytes(2, "big") + payload
    return b"\x81\x7f" + n.to_bytes(8, "big") + payload


class Member(Protocol):
    """A socket that takes a game's positions as they are read."""

    game_id: str
    table: Table

    def offer(self, positions: list[Position]) -> bool:
        """Queue the views of the positions after `table` without awaiting; False when the
        socket could not take them all (it leaves the game and catches up on its own)."""
        ...


@dataclass
class _Game:
    recent: deque[Position]
    read_at: float
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    members: set[Member] = field(default_factory=set)
    pump: asyncio.Task[None] | None = None


def fold_positions(table: Table, envs: list[Envelope]) -> list[Table]:
    """The table after each whole command of `envs` (a command's envelopes are one position)."""
    out: list[Table] = []
    block: list[Envelope] = []
    for i, e in enumerate(envs):
        block.append(e)
        if i + 1 < len(envs) and envs[i + 1].command_id == e.command_id:
            continue
        table = advance(table, block)
        block = []
        out.append(table)
    return out


class Positions:
    def __init__(self, store: EventStore, notices: Notices | None = None) -> None:
        self.store = store
        self.notices = notices
        self._games: OrderedDict[str, _Game] = OrderedDict()

    def _game(self, game_id: str) -> _Game:
        g = self._games.get(game_id)
        if g is None:
            g = self._games[game_id] = _Game(deque(maxlen=KEEP), 0.0)
            if len(self._games) > GAMES:  # drop the least recently watched games no socket has joined
                for gid in [k for k, v in self._games.items() if not v.members][:len(self._games) - GAMES]:
                    del self._games[gid]
        return g

    async def since(self, game_id: str, version: int, woke: float) -> tuple[Table, list[Position]] | None:
        """The newest kept position at or before `version` and the positions after it, up
        to the log's end as read since `woke` (a monotonic time at or after the notice that
        woke the caller); None when nothing that old is kept."""
        g = self._games.get(game_id)
        if g is None or g.read_at < woke:
            g = await self._read(game_id, woke)
        self._games.move_to_end(game_id)
        if not g.recent or g.recent[0].table.version > version:
            return None
        base = g.recent[0].table
        later = []
        for p in g.recent:
            if p.table.version <= version:
                base = p.table
            else:
                later.append(p)
        return base, later

    async def _read(self, game_id: str, woke: float) -> _Game:
        g = self._game(game_id)
        async with g.lock:
            if g.read_at >= woke:  # another socket read while this one waited
                return g
            started = time.monotonic()
            if g.recent:
                last = g.recent[-1].table
                new = [Position(t) for t in fold_positions(last, await self.store.read(
                    game_id, after_seq=last.version))]
                g.recent.extend(new)
                if new:  # in the same step as the window moves: no member misses a position
                    for m in [m for m in g.members if not m.offer(new)]:
                        g.members.discard(m)
            g.read_at = started
        return g

    def start(self, game_id: str, table: Table) -> None:
        """Offer a table a socket folded on its own as the game's first position, if none
        is kept yet (the next `since` then reads what followed it)."""
        g = self._game(game_id)
        if not g.recent:
            g.recent.append(Position(table))
            g.read_at = 0.0

    def join(self, m: Member) -> bool:
        """Make `m` take the game's positions as they are read, from those kept after its
        table on (offered now); False when the window has moved past its table (it folds
        the rest on its own first) or it could not take them."""
        g = self._games.get(m.game_id)
        if g is None or not g.recent or g.recent[0].table.version > m.table.version:
            return False
        if not m.offer([p for p in g.recent if p.table.version > m.table.version]):
            return False
        g.members.add(m)
        if g.pump is None or g.pump.done():
            g.pump = asyncio.create_task(self._pump(m.game_id, g))
        return True

    def leave(self, m: Member) -> None:
        g = self._games.get(m.game_id)
        if g is not None:
            g.members.discard(m)

    async def _pump(self, game_id: str, g: _Game) -> None:
        """Read the game at each notice (and every LOOK_S) while sockets have joined it."""
        notice = self.notices.watch(game_id) if self.notices is not None else asyncio.Event()
        try:
            woke = time.monotonic()
            while g.members and self._games.get(game_id) is g:
                notice.clear()
                try:
                    await self._read(game_id, woke)
                except Exception:  # Redis away for a moment: read again at the next look
                    log.warning("gateway: reading game %s for its sockets failed", game_id, exc_info=True)
                with contextlib.suppress(asyncio.TimeoutError, TimeoutError):
                    await asyncio.wait_for(notice.wait(), LOOK_S)
                woke = time.monotonic()
        finally:
            if self.notices is not None:
                self.notices.unwatch(game_id, notice)
