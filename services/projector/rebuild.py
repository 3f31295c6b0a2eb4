"""Rebuild every projection from the logs alone, beside the live projector: each game's
log folded and its views and statistics row swapped in (services.projector.runner's
`SWAP` script), the projections of games with no log swept, and the whole stored state
read back for comparing a rebuild with the live one."""

from __future__ import annotations

import asyncio
from typing import Any

import redis.asyncio as aioredis

from events import keys
from events.envelope import Envelope
from events.store import EventStore
from projections import stats
from projections.table import Table
from services import aggregates, forked
from services.projector import ratings as player_ratings
from services.projector.runner import SWAP, fold_log, store_finished, swap_args, swap_in
from services.reconnect import LOST
from services.redis_client import is_cluster

# Rebuild's sweep: KEYS: a view key (ARGV[1] "") or a stats hash (ARGV[1] the game id,
# ARGV[2] the game type's dashboard prefix), and the log of that game; the view or the
# game's row (and its dashboard contribution) is deleted if that log is gone.
_ORPHAN = aggregates.LUA + """
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
if ARGV[1] == '' then return redis.call('DEL', KEYS[1]) end
ts_row(KEYS[1], ARGV[1], '', ARGV[2], '')
return 1
"""


CHUNK = 50
"""Games a rebuild reads, and swaps in, per round trip."""


async def rebuild(redis: aioredis.Redis, store: EventStore, shards: int,
                  failed: dict[str, str] | None = None, jobs: int = 1) -> int:
    """Rebuild every projection from the logs alone (the live projector may keep running);
    the number of games rebuilt.

    Game by game, the log is folded beside the stored projections and the game's views and
    statistics row are swapped in by one script call (`SWAP`): a reader sees the old
    document or the new one, never none (the rebuild used to delete every view first).
    Views and rows of games that have no log are swept afterwards. A game whose log cannot
    be folded is left as it is, quarantined and named in `failed` (game id -> reason); a
    quarantined game that folds now leaves the quarantine. The games are shared among
    `jobs` processes (`services.forked`); each reads the logs, and sends the swaps, `CHUNK`
    games a round trip; a game whose log moved on since it was read is swapped in again
    alone (`swap_in`). The sweeps skip the games just swapped in (their logs existed; a
    game archived since deletes its own projections).
    """
    if is_cluster(redis):
        return await _rebuild_one_by_one(redis, store, shards, failed)
    games = [(s, g) for s in range(shards) for g in await store.game_ids(s)]
    count, rebuilt = 0, set()  # games swapped in: their projections are no orphans
    for n, part_failed, part_rebuilt in await forked.fan_out(
            redis, forked.split(games, jobs), lambda r, part: _rebuild_games(r, EventStore(r, store.shards), part)):
        count += n
        rebuilt |= part_rebuilt
        if failed is not None:
            failed.update(part_failed)
    for s in range(shards):
        await _sweep(redis, [(k, keys.log(s, g), [""])
                             async for k in redis.scan_iter(match=keys.views_pattern(s), count=1000)
                             if (g := keys.game_of_view(k.decode())) not in rebuilt])
    async for k in redis.scan_iter(match=keys.stats_pattern(), count=1000):
        dashboard = keys.dashboard(k.decode().split(":", 1)[1])
        await _sweep(redis, [(k, keys.log(keys.shard_of(g.decode(), shards), g.decode()), [g.decode(), dashboard])
                             async for g, _ in redis.hscan_iter(k) if g.decode() not in rebuilt])
    async for k in redis.scan_iter(match=keys.move_times_pattern(), count=1000):
        async for g, _ in redis.hscan_iter(k):
            if g.decode() not in rebuilt and not await redis.exists(keys.log(keys.shard_of(g.decode(), shards), g.decode())):
                await redis.hdel(k, g)
    await player_ratings.rebuild(redis)
    return count


Row = tuple[str, Table | None, list[Envelope], stats.GameRow | None]


async def _rebuild_games(redis: aioredis.Redis, store: EventStore,
                         games: list[tuple[int, str]]) -> tuple[int, dict[str, str], set[str]]:
    """`rebuild`'s folding and swapping for these (shard, game) pairs: the games swapped
    in, the failed ones (game id -> reason) and the ids swapped in. Redis and Python
    overlap: the next chunk is read, and the last one's swaps settled, while this one
    folds."""
    swap = redis.register_script(SWAP)
    count, failed, rebuilt = 0, {}, set()

    async def settle(s: int, pipe: Any, sent: list[Row]) -> None:
        """Send shard `s`'s chunk of swaps; a game whose log moved on is swapped in again alone."""
        nonlocal count
        swapped = iter(await pipe.execute())
        done = redis.pipeline(transaction=False)
        finished = []
        for g, table, envs, row in sent:
            if table is not None and not next(swapped):  # its log moved on: alone, again
                try:
                    table = await swap_in(redis, store, s, g)
                except LOST:
                    raise
                except Exception as e:
                    _quarantine(done, s, g, e, failed)
                    continue
            elif table is not None and row is not None:
                finished.append((table, envs, row))
            done.hdel(keys.quarantine(s), g)
            if table is not None:
                count += 1
                rebuilt.add(g)
        await done.execute()
        if finished:
            await store_finished(redis, finished)

    chunks = _by_shard(games)
    reading = asyncio.ensure_future(store.read_many(chunks[0][1])) if chunks else None
    settling: asyncio.Future[None] | None = None
    try:
        for n, (s, chunk) in enumerate(chunks):
            assert reading is not None
            logs = await reading
            reading = asyncio.ensure_future(store.read_many(chunks[n + 1][1])) if n + 1 < len(chunks) else None
            await asyncio.sleep(0)  # lets the read go out before the folding below
            pipe = redis.pipeline(transaction=False)
            sent: list[Row] = []
            for g, envs in zip(chunk, logs):
                try:
                    row = None
                    if (table := fold_log(g, envs)) is not None:
                        keys_, args, row, _ = swap_args(s, table, envs, False)
                        await swap(keys=keys_, args=args, client=pipe)
                except Exception as e:  # a log that does not fold is reported, not fatal
                    _quarantine(pipe, s, g, e, failed)
                    continue
                sent.append((g, table, envs, row))
            if settling is not None:
                await settling
            settling = asyncio.ensure_future(settle(s, pipe, sent))
            await asyncio.sleep(0)
        if settling is not None:
            await settling
    except BaseException:
        for task in (reading, settling):
            if task is not None:
                task.cancel()
        raise
    return count, failed, rebuilt


def _by_shard(games: list[tuple[int, str]]) -> list[tuple[int, list[str]]]:
    """(shard, up to `CHUNK` of its games) in order: a chunk never spans two shards."""
    out: list[tuple[int, list[str]]] = []
    for s, g in games:
        if not out or out[-1][0] != s or len(out[-1][1]) >= CHUNK:
            out.append((s, []))
        out[-1][1].append(g)
    return out


def _quarantine(pipe: object, s: int, g: str, e: Exception, failed: dict[str, str] | None) -> None:
    """Queue game `g`'s quarantine for the reason `e` and name it in `failed`."""
    reason = f"{type(e).__name__}: {e}"
    pipe.hset(keys.quarantine(s), g, reason)  # type: ignore[attr-defined]
    if failed is not None:
        failed[g] = reason


async def _sweep(redis: aioredis.Redis, candidates: list[tuple[bytes, str, list[str]]]) -> None:
    """`_ORPHAN` on each (key, its game's log, arguments), 1000 calls a round trip."""
    orphan = redis.register_script(_ORPHAN)
    for i in range(0, len(candidates), 1000):
        pipe = redis.pipeline(transaction=False)
        for k, log_key, args in candidates[i:i + 1000]:
            await orphan(keys=[k, log_key], args=args, client=pipe)
        await pipe.execute()


async def _rebuild_one_by_one(redis: aioredis.Redis, store: EventStore, shards: int,
                  failed: dict[str, str] | None = None) -> int:
    """`rebuild` on a Redis Cluster: the same promises, game by game (a pipeline there would
    span slots), each swapped in by its own `swap_in` script call."""
    orphan = redis.register_script(_ORPHAN)
    count = 0
    for s in range(shards):
        for g in await store.game_ids(s):
            try:
                table = await swap_in(redis, store, s, g)
            except LOST:
                raise
            except Exception as e:  # a log that does not fold is reported, not fatal
                reason = f"{type(e).__name__}: {e}"
                await redis.hset(keys.quarantine(s), g, reason)
                if failed is not None:
                    failed[g] = reason
                continue
            await redis.hdel(keys.quarantine(s), g)
            count += table is not None
        async for k in redis.scan_iter(match=keys.views_pattern(s), count=1000):
            await orphan(keys=[k, keys.log(s, keys.game_of_view(k.decode()))], args=[""])
    async for k in redis.scan_iter(match=keys.stats_pattern(), count=1000):
        async for g, _ in redis.hscan_iter(k):
            game_id, game_type = g.decode(), k.decode().split(":", 1)[1]
            log_key = keys.log(keys.shard_of(game_id, shards), game_id)
            if not is_cluster(redis):
                await orphan(keys=[k, log_key], args=[game_id, keys.dashboard(game_type)])
            elif not await redis.exists(log_key):  # another slot on a cluster: checked, then dropped
                await aggregates.drop_row(redis, game_type, game_id)
    async for k in redis.scan_iter(match=keys.move_times_pattern(), count=1000):
        async for g, _ in redis.hscan_iter(k):
            if not await redis.exists(keys.log(keys.shard_of(g.decode(), shards), g.decode())):
                await redis.hdel(k, g)
    await player_ratings.rebuild(redis)
    return count


async def all_projections(redis: aioredis.Redis, shards: int) -> dict[str, object]:
    """Every view and statistics row, for comparing a rebuild with the live state."""
    out: dict[str, object] = {}
    for s in range(shards):
        async for k in redis.scan_iter(match=keys.views_pattern(s), count=1000):
            out[k.decode()] = await redis.hgetall(k)
    async for k in redis.scan_iter(match=keys.stats_pattern(), count=1000):
        out[k.decode()] = await redis.hgetall(k)
    return out
