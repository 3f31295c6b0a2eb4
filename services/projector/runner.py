"""The projector: folds feed:{s} into view documents and statistics rows, with a checkpoint.

Each batch's writes (every changed view, the rows of games that finished, the checkpoint)
go through one script call, so a crash replays at most a batch whose effect was not
stored. Every view write is guarded by its `seq` (an older document never replaces a
newer one), so the live projector and a rebuild may run at the same time.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable

import redis.asyncio as aioredis

from events import keys
from events.codec import envelope_from_fields
from events.envelope import Envelope
from events.store import EventStore
from projections import board, stats
from projections.table import Table, advance, empty
from services.reconnect import LOST, Backoff
from services.referee.referee import lookup

log = logging.getLogger("tablestream.projector")

LIVE = "live"

# KEYS: checkpoint key ("" for none), then view keys; ARGV: checkpoint id, n views,
# then per view (seq, doc), then (stats key, game id, row) triples for finished games.
_WRITE = """
local a = 3
local n = tonumber(ARGV[2])
for i = 1, n do
  local cur = redis.call('HGET', KEYS[i + 1], 'seq')
  local seq = tonumber(ARGV[a])
  if (not cur) or tonumber(cur) <= seq then
    redis.call('HSET', KEYS[i + 1], 'seq', seq, 'doc', ARGV[a + 1])
  end
  a = a + 2
end
while a <= #ARGV do
  redis.call('HSET', ARGV[a], ARGV[a + 1], ARGV[a + 2])
  a = a + 3
end
if KEYS[1] ~= '' then
  redis.call('SET', KEYS[1], ARGV[1])
end
return n
"""


class Projector:
    """Projects one shard's feed; `step` handles one batch, `run` loops until stopped."""

    def __init__(self, redis: aioredis.Redis, store: EventStore, shard: int, name: str = LIVE,
                 batch: int = 500, block_ms: int = 100) -> None:
        self.redis = redis
        self.store = store
        self.shard = shard
        self.name = name
        self.batch = batch
        self.block_ms = block_ms
        self.tables: dict[str, Table] = {}
        self.position: str | None = None
        self._script = redis.register_script(_WRITE)
        self.applied = 0

    async def _start(self) -> None:
        got = await self.redis.get(keys.checkpoint(self.shard, self.name))
        self.position = got.decode() if got else "0-0"

    async def step(self, block: bool = True) -> int:
        """Read and project one batch of the feed; the number of envelopes read."""
        if self.position is None:
            await self._start()
        assert self.position is not None
        got = await self.redis.xread({keys.feed(self.shard): self.position}, count=self.batch,
                                     block=self.block_ms if block else None)
        if not got:
            return 0
        rows = got[0][1]
        changed: dict[str, Table] = {}
        last_command: dict[str, str] = {}
        for _, fields in rows:
            env = envelope_from_fields(fields)
            table = await self._table_before(env)
            if table is None:
                continue
            if env.seq == table.version + 1:
                table = advance(table, [env])
                self.tables[env.game_id] = table
                changed[env.game_id] = table
                last_command[env.game_id] = env.command_id
        if len(rows) >= self.batch:
            # A full batch may end inside a command: its other events are in the log already
            # (a command's events land atomically), and a position inside a command is no
            # state any seat ever saw (games need not be able to view it), so finish it.
            for game_id, command_id in last_command.items():
                table = await self._finish_command(changed[game_id], command_id)
                self.tables[game_id] = changed[game_id] = table
        last = rows[-1][0].decode()
        await write(self.redis, self._script, self.shard, changed.values(), self.store,
                    checkpoint=(keys.checkpoint(self.shard, self.name), last))
        self.position = last
        self.applied += len(rows)
        for game_id in changed:
            await self.redis.publish(keys.updates(self.shard), game_id)
        return len(rows)

    async def _finish_command(self, table: Table, command_id: str) -> Table:
        """`table` advanced over the rest of the command whose events it stopped within."""
        rest = []
        for e in await self.store.read(table.game_id, after_seq=table.version):
            if e.command_id != command_id:
                break
            rest.append(e)
        return advance(table, rest) if rest else table

    async def _table_before(self, env: Envelope) -> Table | None:
        """The game's table just before `env` (or after it, if already applied)."""
        table = self.tables.get(env.game_id)
        if table is not None and table.version >= env.seq - 1:
            return table
        game = lookup(env.game_type)
        if game is None:
            return None
        envs = await self.store.read(env.game_id)
        table = advance(empty(env.game_id, game), [e for e in envs if e.seq < env.seq])
        self.tables[env.game_id] = table
        return table

    async def run(self, stop: asyncio.Event) -> None:
        """Step until `stop`; a lost Redis (a restart) is waited out with back-off and one
        warning, and the step is taken again from the stored checkpoint's position."""
        backoff, lost = Backoff(), False
        while not stop.is_set():
            try:
                await self.step()
            except LOST as e:
                if not lost:
                    log.warning("projector of shard %d lost Redis (%s); reconnecting", self.shard, type(e).__name__)
                lost = True
                await backoff.wait()
                continue
            except Exception:
                log.exception("projector step failed; retrying")
                await asyncio.sleep(0.5)
            if lost:
                lost = False
                backoff.reset()

    async def idle(self) -> bool:
        """True when the checkpoint is at the end of the feed."""
        last = await self.redis.xrevrange(keys.feed(self.shard), count=1)
        return not last or (self.position or "0-0") == last[0][0].decode()


async def write(redis: aioredis.Redis, script: object, shard: int, tables: Iterable[Table],
                store: EventStore, checkpoint: tuple[str, str] | None = None) -> None:
    """Store the views of `tables` (seq-guarded), their rows if finished, and the checkpoint."""
    view_keys: list[str] = []
    args: list[object] = [checkpoint[1] if checkpoint else "", 0]
    extra: list[object] = []
    for t in tables:
        for seat, data in board.docs(t).items():
            view_keys.append(keys.view(shard, t.game_id, seat))
            args += (t.version, data)
        if t.game.result(t.state) is not None:
            envs = await store.read(t.game_id)
            envs = [e for e in envs if e.seq <= t.version]
            r = stats.row(t, envs)
            if r is not None:
                extra += (keys.stats(t.game.id), t.game_id, stats.encode_row(r))
    args[1] = len(view_keys)
    await script(keys=[checkpoint[0] if checkpoint else "", *view_keys], args=[*args, *extra])  # type: ignore[operator]


# Rebuild's swap of one game. KEYS: the game's log, then its view keys; ARGV: the log's
# length the documents were folded from, n views, per view (seq, doc), then the stats key,
# the game id and its row ("" for none). Nothing is written if the log has moved on since
# (the caller folds it again); otherwise every view is replaced whatever its seq (a stored
# view ahead of the log is stale too), so readers see the old document, then the new one.
_SWAP = """
if redis.call('XLEN', KEYS[1]) ~= tonumber(ARGV[1]) then return 0 end
local a = 3
for i = 1, tonumber(ARGV[2]) do
  redis.call('HSET', KEYS[i + 1], 'seq', ARGV[a], 'doc', ARGV[a + 1])
  a = a + 2
end
if ARGV[a + 2] ~= '' then
  redis.call('HSET', ARGV[a], ARGV[a + 1], ARGV[a + 2])
else
  redis.call('HDEL', ARGV[a], ARGV[a + 1])
end
return 1
"""

# Rebuild's sweep: KEYS: a view key (ARGV[1] "") or a stats hash (ARGV[1] the game id), and
# the log of that game; the view or the game's row is deleted if that log is gone.
_ORPHAN = """
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
if ARGV[1] == '' then return redis.call('DEL', KEYS[1]) end
return redis.call('HDEL', KEYS[1], ARGV[1])
"""


async def rebuild(redis: aioredis.Redis, store: EventStore, shards: int,
                  failed: dict[str, str] | None = None) -> int:
    """Rebuild every projection from the logs alone (the live projector may keep running);
    the number of games rebuilt.

    Game by game, the log is folded beside the stored projections and the game's views and
    statistics row are swapped in by one script call, which checks that the log is still as
    long as what was folded (else the game is folded again): a reader sees the old document
    or the new one, never none (the rebuild used to delete every view first). Views of games
    that have no log any more are swept afterwards. A game whose log cannot be folded is
    left as it is and named in `failed` (game id -> reason), and the others are rebuilt.
    """
    swap = redis.register_script(_SWAP)
    orphan = redis.register_script(_ORPHAN)
    count = 0
    for s in range(shards):
        for g in await store.game_ids(s):
            for _ in range(100):  # the log moved on while it was folded: fold it again
                envs = await store.read(g)
                if not envs or (game := lookup(envs[0].game_type)) is None:
                    break
                try:
                    table = advance(empty(g, game), envs)
                    docs = board.docs(table)
                    row = stats.row(table, envs) if game.result(table.state) is not None else None
                except Exception as e:  # a log that does not fold is reported, not fatal
                    if failed is not None:
                        failed[g] = f"{type(e).__name__}: {e}"
                    break
                view_keys = [keys.view(s, g, seat) for seat in docs]
                args: list[object] = [table.version, len(docs)]
                for data in docs.values():
                    args += (table.version, data)
                args += (keys.stats(game.id), g, stats.encode_row(row) if row is not None else "")
                if await swap(keys=[keys.log(s, g), *view_keys], args=args):
                    count += 1
                    break
        async for k in redis.scan_iter(match=keys.views_pattern(s), count=1000):
            await orphan(keys=[k, keys.log(s, keys.game_of_view(k.decode()))], args=[""])
    async for k in redis.scan_iter(match=keys.stats_pattern(), count=1000):
        async for g, _ in redis.hscan_iter(k):
            game_id = g.decode()
            await orphan(keys=[k, keys.log(keys.shard_of(game_id, shards), game_id)], args=[game_id])
    return count


async def load_views(redis: aioredis.Redis, shard: int, game_id: str, seats: list[int | None]) -> dict[int | None, bytes | None]:
    """The stored view documents of a game."""
    pipe = redis.pipeline(transaction=False)
    for s in seats:
        pipe.hget(keys.view(shard, game_id, s), "doc")
    return dict(zip(seats, await pipe.execute()))


async def all_projections(redis: aioredis.Redis, shards: int) -> dict[str, object]:
    """Every view and statistics row, for comparing a rebuild with the live state."""
    out: dict[str, object] = {}
    for s in range(shards):
        async for k in redis.scan_iter(match=keys.views_pattern(s), count=1000):
            out[k.decode()] = await redis.hgetall(k)
    async for k in redis.scan_iter(match=keys.stats_pattern(), count=1000):
        out[k.decode()] = await redis.hgetall(k)
    return out


