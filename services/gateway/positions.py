"""Each watched game's recent positions, read and folded once per gateway for all its sockets.

A thousand spectators of one game must not cost a thousand reads of its log, folds and view
documents at every move: the first socket to wake after a notice reads the new envelopes
(one XRANGE), folds them into command-end positions and keeps the last KEEP of them; the
others, woken by the same notice, find a read that started after they woke and take the
positions from here. A view document is built once per position and viewer, then shared.

It is a derivation of the log like `tables`: positions only ever advance by the envelopes
that follow them. A socket further behind than the window (a reconnect with an old seq, a
first subscription from the start) folds on its own (`None` from `since`).
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict, deque
from dataclasses import dataclass, field

from events.envelope import Envelope
from events.store import EventStore
from projections.board import doc
from projections.table import Table, advance

KEEP = 16
"""Positions kept per game: a socket more than this many commands behind folds on its own."""
GAMES = 200
"""Games kept (the least recently watched dropped first; a dropped game is read again whole)."""


@dataclass
class Position:
    table: Table
    docs: dict[int | None, bytes] = field(default_factory=dict)

    def doc(self, seat: int | None) -> bytes:
        got = self.docs.get(seat)
        if got is None:
            got = self.docs[seat] = doc(self.table, seat)
        return got


@dataclass
class _Game:
    recent: deque[Position]
    read_at: float
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


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
    def __init__(self, store: EventStore) -> None:
        self.store = store
        self._games: OrderedDict[str, _Game] = OrderedDict()

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
        g = self._games.get(game_id)
        if g is None:
            g = self._games[game_id] = _Game(deque(maxlen=KEEP), 0.0)
            while len(self._games) > GAMES:
                self._games.popitem(last=False)
        async with g.lock:
            if g.read_at >= woke:  # another socket read while this one waited
                return g
            started = time.monotonic()
            if g.recent:
                last = g.recent[-1].table
                g.recent.extend(Position(t) for t in fold_positions(last, await self.store.read(
                    game_id, after_seq=last.version)))
            g.read_at = started
        return g

    def start(self, game_id: str, table: Table) -> None:
        """Offer a table a socket folded on its own as the game's first position, if none
        is kept yet (the next `since` then reads what followed it)."""
        g = self._games.get(game_id)
        if g is None or not g.recent:
            g = self._games.setdefault(game_id, _Game(deque(maxlen=KEEP), 0.0))
            g.recent.append(Position(table))
            g.read_at = 0.0
