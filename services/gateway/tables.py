"""The games' logs folded for reading (views, moves, results), cached per gateway process.

A cached Table is only ever advanced by the envelopes that follow it in the log (one XRANGE
after its version per read), so it is exactly what folding the whole log gives: the cache
is a derivation of Redis, never a source, and several gateways may each keep their own.
"""

from __future__ import annotations

from collections import OrderedDict

from events import keys
from events.store import EventStore
from games import registry
from projections.table import Table, advance, empty
from services.gateway.errors import ApiError

MAX_GAME_ID_CHARS = keys.GAME_ID_MAX


class Tables:
    """Folded games, the most recently read `capacity` of them kept."""

    def __init__(self, store: EventStore, capacity: int = 2000) -> None:
        self.store = store
        self.capacity = capacity
        self._cache: OrderedDict[str, Table] = OrderedDict()

    async def get(self, game_id: str) -> Table:
        """The game's table folded to the end of its log; ApiError unknown_game if there is none."""
        if not game_id or len(game_id) > MAX_GAME_ID_CHARS:
            raise ApiError("unknown_game", "no such game", game_id=None)
        table = self._cache.get(game_id)
        envs = await self.store.read(game_id, after_seq=table.version if table else 0)
        if table is None:
            if not envs:
                raise ApiError("unknown_game", f"no game {game_id!r}", game_id=game_id)
            try:
                game = registry.get(envs[0].game_type)
            except KeyError:
                raise ApiError("unknown_game_type", f"game {game_id!r} is of a type this gateway does not know",
                               game_id=game_id) from None
            table = empty(game_id, game)
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
