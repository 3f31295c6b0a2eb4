"""Reading game logs and shard feeds: what referees, projectors, gateways and verify read."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from events import keys
from redis.client import CaseInsensitiveDict

from events.codec import envelope_from_entry, envelope_from_fields
from events.envelope import Envelope
from events.store.base import StoreBase

_PAGE = 256  # entries per XREVRANGE when reading a log's tail


def _as_sent(response: object, **_: object) -> object:
    return response


def _raw_pipeline(redis: object) -> object:
    """A pipeline whose XRANGE replies are left as Redis sent them (entries of [id, flat
    field list]): redis-py's dict per entry is a tenth of a bulk read's time, and
    `envelope_from_entry` reads the list. (A cluster pipeline parses on its nodes and
    still returns dicts, which `envelope_from_entry` reads too.)"""
    pipe = redis.pipeline(transaction=False)  # type: ignore[attr-defined]
    callbacks = getattr(pipe, "response_callbacks", None)
    if isinstance(callbacks, CaseInsensitiveDict):
        callbacks = CaseInsensitiveDict(callbacks)
        callbacks["XRANGE"] = _as_sent
        pipe.response_callbacks = callbacks
    return pipe


def entry_order(entry_id: str) -> tuple[int, int]:
    """A stream entry id ("ms-n") as a pair that sorts as the stream does."""
    ms, _, n = entry_id.partition("-")
    return int(ms), int(n or 0)



class Reads(StoreBase):
    """Logs (whole, tail, first entry, length), cached games' state, feeds and game ids."""

    async def read(self, game_id: str, after_seq: int = 0) -> list[Envelope]:
        """The game's envelopes with seq > `after_seq`, in order ([] for an unknown game)."""
        key = keys.log(self.shard(game_id), game_id)
        if after_seq <= 0:
            return [envelope_from_fields(f) for _, f in await self._redis.xrange(key)]
        # Auto ids do not encode seqs, but seqs are dense from 1, so the envelopes after
        # `after_seq` are the newest ones: page backwards from the end and stop there
        # (a referee catching up from its cache reads only what is new).
        tail: list[Envelope] = []
        upper = "+"
        while True:
            rows = await self._redis.xrevrange(key, max=upper, min="-", count=_PAGE)
            for _, fields in rows:
                env = envelope_from_fields(fields)
                if env.seq <= after_seq:
                    return tail[::-1]
                tail.append(env)
            if len(rows) < _PAGE:
                return tail[::-1]
            upper = "(" + rows[-1][0].decode()

    async def read_many(self, game_ids: Sequence[str]) -> list[list[Envelope]]:
        """Each game's whole log ([] for an unknown game), in one round trip: what a
        rebuild or a verify of many games reads."""
        pipe: Any = _raw_pipeline(self._redis)
        for g in game_ids:
            pipe.xrange(keys.log(self.shard(g), g))
        return [[envelope_from_entry(f) for _, f in rows] for rows in await pipe.execute()]

    async def first(self, game_id: str) -> Envelope | None:
        """The game's opening envelope (seq 1: its game type and `ts.game_opened`), None for
        an unknown game; one entry read, however long the log."""
        rows = await self._redis.xrange(keys.log(self.shard(game_id), game_id), count=1)
        return envelope_from_fields(rows[0][1]) if rows else None

    async def load(self, shard: int, game_ids: Sequence[str]) -> list[tuple[list[Envelope], bytes | None, bool]]:
        """Each game's whole log, its undisclosed seed (None once revealed or if never
        drawn) and whether it was archived (its tombstone in `keys.archived`), in one round
        trip: what a referee rebuilds its cached games from. The log is read before the
        tombstone: `archive` deletes a log and leaves its tombstone in one transaction, and
        `restore` appends the log before removing the tombstone, so an archived game is
        never seen with neither."""
        pipe: Any = _raw_pipeline(self._redis)
        for g in game_ids:
            pipe.xrange(keys.log(shard, g))
            pipe.get(keys.secret(shard, g))
            pipe.hexists(keys.archived(shard), g)
        got = await pipe.execute()
        return [([envelope_from_entry(f) for _, f in got[3 * i]],
                 None if got[3 * i + 1] is None else bytes.fromhex(got[3 * i + 1].decode()),
                 bool(got[3 * i + 2]))
                for i in range(len(game_ids))]

    async def version(self, game_id: str) -> int:
        """The game's current version: the number of envelopes in its log."""
        return await self._redis.xlen(keys.log(self.shard(game_id), game_id))

    async def read_feed(
        self, shard: int, after_id: str = "0-0", count: int = 1000
    ) -> list[tuple[str, Envelope]]:
        """Up to `count` feed entries after `after_id` as (entry id, envelope): for rebuilds."""
        rows = await self._redis.xrange(keys.feed(shard), min=f"({after_id}", max="+", count=count)
        return [(entry_id.decode(), envelope_from_fields(f)) for entry_id, f in rows]

    async def game_ids(self, shard: int) -> list[str]:
        """The ids of the games opened on `shard`, oldest first."""
        return [g.decode() for g in await self._redis.zrange(keys.games(shard), 0, -1)]
