"""Consumer groups, heartbeats, claims, seeds and trimming: the bookkeeping around the logs."""

from __future__ import annotations

from collections.abc import Sequence

from redis.exceptions import ResponseError

from events import keys
from events.store.base import StoreBase
from events.store.reads import entry_order


def _text(v: bytes | str) -> str:
    return v.decode() if isinstance(v, bytes) else v


class Admin(StoreBase):
    """Seeds, delivery counts, heartbeats, dead consumers' claims, groups and trims."""

    async def draw_seeds(self, shard: int, drawn: dict[str, bytes], ttl_s: int | None = None) -> dict[str, bytes]:
        """The seed of each game: the one stored before (a redelivered open), else the one
        drawn here, stored now (before any event of the game), in one round trip. A new
        seed expires after `ttl_s` seconds unless the game's open lands (the append script
        then keeps it): a refused open leaves nothing behind."""
        pipe = self._redis.pipeline(transaction=False)
        for g, seed in drawn.items():
            k = keys.secret(shard, g)
            pipe.set(k, seed.hex(), nx=True, ex=ttl_s)
            pipe.get(k)
        got = await pipe.execute()
        return {g: bytes.fromhex(got[2 * i + 1].decode()) for i, g in enumerate(drawn)}

    async def deliveries(self, stream: str, group: str, entry_ids: Sequence[bytes]) -> dict[bytes, int]:
        """How often each pending entry of `stream` was delivered in `group` (1 if it is
        not pending), in one round trip."""
        pipe = self._redis.pipeline(transaction=False)
        for mid in entry_ids:
            pipe.xpending_range(stream, group, min=mid, max=mid, count=1)
        got = await pipe.execute()
        return {mid: int(p[0]["times_delivered"]) if p else 1 for mid, p in zip(entry_ids, got)}

    async def beat(self, consumer: str, ttl_s: int) -> None:
        """Set a consumer's heartbeat (`keys.alive`) for `ttl_s` seconds."""
        await self._redis.set(keys.alive(consumer), "1", ex=ttl_s)

    async def stop_beating(self, consumer: str) -> None:
        await self._redis.delete(keys.alive(consumer))

    async def take_over_dead(self, stream: str, group: str, me: str) -> None:
        """Claim for consumer `me` every entry of `stream` pending under a consumer of
        `group` that has no heartbeat (a dead referee), so that `me` judges them next."""
        summary = await self._redis.xpending(stream, group)
        for c in summary.get("consumers") or []:
            name = _text(c["name"])
            if name == me or await self._redis.exists(keys.alive(name)):
                continue
            seen: set[bytes] = set()
            while rows := await self._redis.xpending_range(stream, group, min="-", max="+", count=500,
                                                           consumername=name):
                ids = [x["message_id"] for x in rows]
                if seen.issuperset(ids):
                    break  # nothing more could be claimed (e.g. entries trimmed away)
                seen.update(ids)
                await self._redis.xclaim(stream, group, me, 0, ids, justid=True)

    async def own_pending(self, stream: str, group: str, me: str, after: bytes | str, count: int
                          ) -> list[tuple[bytes, dict[bytes, bytes]]]:
        """Up to `count` entries of `stream` pending under consumer `me`, after id `after`."""
        got = await self._redis.xreadgroup(group, me, {stream: after}, count=count)
        return got[0][1] if got else []

    async def trim_projected(self, shard: int, projector: str) -> int:
        """Drop the entries of feed:{s} that projector `projector` has applied (below its
        checkpoint); returns how many went. Nothing goes before a projector has a checkpoint."""
        got = await self._redis.get(keys.checkpoint(shard, projector))
        if got is None:
            return 0
        return int(await self._redis.xtrim(keys.feed(shard), minid=_text(got), approximate=False))

    async def ensure_group(self, stream: str, group: str, start_id: str = "0") -> None:
        """Create a consumer group (and the stream if missing); a no-op if it exists."""
        try:
            await self._redis.xgroup_create(stream, group, id=start_id, mkstream=True)
        except ResponseError as e:
            if "BUSYGROUP" not in str(e):
                raise

    async def trim_acknowledged(self, stream: str, group: str) -> int:
        """Drop the entries of `stream` that consumer group `group` has delivered and every
        consumer has acknowledged (a command stream would otherwise keep every command ever
        sent); returns how many went. Entries still pending (a referee died holding them)
        and entries not yet delivered stay.

        The floor is read in this order: first the group's last delivered id L, then the
        lowest pending id P. Everything up to L that is below P was delivered before L was
        read and was not pending after: acknowledged for good (an acknowledged entry is
        never pending again). Deliveries in between have ids above L. So the entries below
        min(L's successor, P) go: L too, once acknowledged (a 4 MiB command stayed behind as
        the last one). Only the group `group` is considered: a stream read by other groups
        must not be trimmed by it."""
        try:
            groups = await self._redis.xinfo_groups(stream)
        except ResponseError:  # no such stream
            return 0
        last = next((g["last-delivered-id"] for g in groups if _text(g["name"]) == group), None)
        if last is None or _text(last) == "0-0":
            return 0
        ms, seq = entry_order(_text(last))
        floor = f"{ms}-{seq + 1}"
        pending = await self._redis.xpending(stream, group)
        if pending["pending"] and entry_order(_text(pending["min"])) < entry_order(floor):
            floor = _text(pending["min"])
        return int(await self._redis.xtrim(stream, minid=floor, approximate=False))
