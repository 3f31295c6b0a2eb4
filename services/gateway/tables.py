"""The games' logs folded for reading (views, moves, results), cached per gateway process.

A cached Table is only ever advanced by the envelopes that follow it in the log (one XRANGE
after its version per read), so it is exactly what folding the whole log gives: the cache
is a derivation of Redis, never a source, and several gateways may each keep their own.

Sending a command needs less: the game's rules and its seats' token hashes, which its
opening envelope (seq 1) fixes for good. `seats` reads that one entry once per game and
keeps it, so a command costs the gateway no read of the log and no fold (the referee
judges the command against the log itself).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import NamedTuple

from events import keys
from events.store import EventStore
from events.meta import GameOpened
from games import registry
from games.contract import GameDef
from projections.table import Table, advance, decode, empty
from services.gateway.errors import ApiError

MAX_GAME_ID_CHARS = keys.GAME_ID_MAX


class Seats(NamedTuple):
    """What sending a command needs of a game (fixed by its opening)."""

    game: GameDef
    hashes: list[str]


def _known(game_id: str) -> None:
    if not game_id or len(game_id) > MAX_GAME_ID_CHARS:
        raise ApiError("unknown_game", "no such game", game_id=None)


def _game_of(game_id: str, game_type: str) -> GameDef:
    try:
        return registry.get(game_type)
    except KeyError:
        raise ApiError("unknown_game_type", f"game {game_id!r} is of a type this gateway does not know",
                       game_id=game_id) from None


class Tables:
    """Folded games, the most recently read `capacity` of them kept; and the seats of as many."""

    def __init__(self, store: EventStore, capacity: int = 2000) -> None:
        self.store = store
        self.capacity = capacity
        self._cache: OrderedDict[str, Table] = OrderedDict()
        self._seats: OrderedDict[str, Seats] = OrderedDict()

    async def seats(self, game_id: str) -> Seats:
        """The game's rules and seat token hashes, from its opening envelope (read once);
        ApiError unknown_game if there is none."""
        _known(game_id)
        got = self._seats.get(game_id)
        if got is None:
            first = await self.store.first(game_id)
            if first is None:
                raise ApiError("unknown_game", f"no game {game_id!r}", game_id=game_id)
            game = _game_of(game_id, first.game_type)
            opened = decode(game, first)
            got = Seats(game, list(opened.seat_token_hashes) if isinstance(opened, GameOpened) else [])
            self._seats[game_id] = got
            while len(self._seats) > self.capacity:
                self._seats.popitem(last=False)
        self._seats.move_to_end(game_id)
        return got

    async def get(self, game_id: str) -> Table:
        """The game's table folded to the end of its log; ApiError unknown_game if there is none."""
        _known(game_id)
        table = self._cache.get(game_id)
        envs = await self.store.read(game_id, after_seq=table.version if table else 0)
        if table is None:
            if not envs:
                raise ApiError("unknown_game", f"no game {game_id!r}", game_id=game_id)
            table = empty(game_id, _game_of(game_id, envs[0].game_type))
        if envs:
            table = advance(table, envs)
        held = self._cache.get(game_id)
        if held is None or held.version <= table.version:  # a concurrent read may have gone further
            self._cache[game_id] = table
        self._cache.move_to_end(game_id)
        while len(self._cache) > self.capacity:
            self._cache.popitem(last=False)
        return table


def hashes(table: Table) -> list[str]:
    return list(table.opened.seat_token_hashes) if table.opened is not None else []
