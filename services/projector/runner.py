"""The projector: folds feed:{s} into view documents and statistics rows, with a checkpoint.

Each batch's writes (every changed view, the rows of games that finished, the checkpoint)
go through one script call, so a crash replays at most a batch whose effect was not
stored. Every view write is guarded by its `seq` (an older document never replaces a
newer one), so the live projector and a rebuild may run at the same time, and by its
game's log (never a view beyond the log's end: after a lost write, the game is projected
again from its log).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterable

import redis.asyncio as aioredis

from events import keys
from events.codec import envelope_from_fields
from events.envelope import Envelope
from events.store import EventStore
from games.contract import GameDef
from projections import board, movetimes, ratings, stats
from projections.table import Table, advance, empty
from services import aggregates
from services.projector import ratings as player_ratings
from services.projector.lease import Lease
from services.protocol import lookup
from services.reconnect import LOST, Backoff
from services.redis_client import is_cluster

log = logging.getLogger("tablestream.projector")

LIVE = keys.LIVE

_TIMERS = """
local function ts_timers(tkey, a, write)
  local n = tonumber(ARGV[a])
  if n == 0 then return a + 1 end
  if write then
    local suffix = ':' .. ARGV[a + 1]
    for s = 1, n do
      local d = tonumber(ARGV[a + 1 + s])
      if d > 0 then redis.call('ZADD', tkey, d, (s - 1) .. suffix) else redis.call('ZREM', tkey, (s - 1) .. suffix) end
    end
  end
  return a + 2 + n
end
"""
"""`ts_timers(timers key, a, write)`: ARGV[a] = n seats of a clock (0: no clock, nothing
follows), then "<game type>:<game id>", then per seat its running decision's deadline (0:
none); if `write`, each seat's member "<seat>:<game type>:<game id>" of `keys.timers` is set
to it or removed. Returns the index after them."""


def timer_args(table: Table) -> list[object]:
    """`ts_timers`' arguments for a table: its seats' deadlines, or none without a clock."""
    clock = table.clock
    if clock is None:
        return [0]
    return [len(clock.seats), f"{table.game.id}:{table.game_id}", *(clock.deadline(s) or 0 for s in range(len(clock.seats)))]


# KEYS: checkpoint key ("" for none), the shard's timers key, then per game its log key and
# its view keys; ARGV: checkpoint id, n games, the notice channel ("" for none: each game
# written is PUBLISHed there, after its views, in the same call), then per game (game id, n
# views, seq, the views' docs, `ts_timers`' arguments: the deadlines of its clock's running
# decisions), then
# (stats key, game id, row, dashboard prefix, contribution) for finished games
# (services.aggregates: the row and the dashboard's counters together).
# A game whose log is shorter than the seq its views were folded at gets nothing written,
# neither views nor row: its table holds entries the log no longer has (after a failover
# without WAIT, this very call may run on the promoted replica, sent again by the cluster
# client, while the entries it was folded from died with the old master).
# Returns {games (1-based) of which a newer view is stored, games whose log is behind}.
_WRITE = aggregates.LUA + _TIMERS + """
local k, a = 3, 4
local newer, behind, skip, written = {}, {}, {}, {}
for g = 1, tonumber(ARGV[2]) do
  local gid, nv, seq = ARGV[a], tonumber(ARGV[a + 1]), tonumber(ARGV[a + 2])
  a = a + 3
  if redis.call('XLEN', KEYS[k]) < seq then
    behind[#behind + 1] = g
    skip[gid] = true
  else
    local stale = false
    for i = 1, nv do
      local key = KEYS[k + i]
      local cur = redis.call('HGET', key, 'seq')
      if (not cur) or tonumber(cur) <= seq then
        redis.call('HSET', key, 'seq', seq, 'doc', ARGV[a + i - 1])
      else
        stale = true
      end
    end
    if stale then newer[#newer + 1] = g end
    written[#written + 1] = gid
  end
  k = k + 1 + nv
  a = a + nv
  a = ts_timers(KEYS[2], a, not skip[gid])
end
while a <= #ARGV do
  if not skip[ARGV[a + 1]] then ts_row(ARGV[a], ARGV[a + 1], ARGV[a + 2], ARGV[a + 3], ARGV[a + 4]) end
  a = a + 5
end
if KEYS[1] ~= '' then
  redis.call('SET', KEYS[1], ARGV[1])
end
if ARGV[3] ~= '' then
  for _, gid in ipairs(written) do redis.call('PUBLISH', ARGV[3], gid) end
end
return {newer, behind}
"""


LINGER_S = 0.002
"""How long `run` waits before its next read after a batch smaller than `LINGER_BELOW`
(none after an idle wait: a command that comes alone is projected at once). While commands
come fast, the projector then reads a few entries at a time instead of one: each read and
write has a fixed cost, paid in the process the referees share (measured: up's CPU a
command and the gateway's half-load p99 both lower with it, bench/RESULTS.md)."""
LINGER_BELOW = 32


class Projector:
    """Projects one shard's feed; `step` handles one batch, `run` loops until stopped."""

    def __init__(self, redis: aioredis.Redis, store: EventStore, shard: int, name: str = LIVE,
                 batch: int = 500, block_ms: int = 100, linger_s: float = LINGER_S) -> None:
        self.redis = redis
        self.store = store
        self.shard = shard
        self.name = name
        self.batch = batch
        self.block_ms = block_ms
        self.linger_s = linger_s
        self.tables: dict[str, Table] = {}
        self.position: str | None = None
        self._script = redis.register_script(_WRITE)
        self.applied = 0
        self.reprojected = 0  # games projected again from their log (a log went backwards, ...)
        self.quarantined: set[str] = set()  # games whose log does not fold: skipped

    async def _start(self) -> None:
        got = await self.redis.get(keys.checkpoint(self.shard, self.name))
        self.position = got.decode() if got else "0-0"

    async def step(self, block: bool = True) -> int:
        """Read and project one batch of the feed; the number of envelopes read.

        The batch's tables replace the cached ones only once its write has landed, so a
        failed write (a lost connection) is projected again from the same position. An
        envelope that does not follow the cached table (a seq at or below its version that
        is not in the log as the table saw it, or a `prev_hash` that is not its last hash)
        means the log went backwards or was rewritten: the game is projected again from its
        log alone (`reproject`); a game whose log cannot be folded is quarantined."""
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
        checked: set[tuple[str, int]] = set()  # (game, version) found to be the log's, this batch
        for _, fields in rows:
            env = envelope_from_fields(fields)
            g = env.game_id
            if g in self.quarantined:
                if await self.redis.hexists(keys.quarantine(self.shard), g):
                    continue
                self.quarantined.discard(g)  # a rebuild folded it since: project it again
                self.tables.pop(g, None)
            try:
                table = changed.get(g) or await self._table_before(env)
                if table is None:
                    continue
                if env.seq == table.version + 1 and env.prev_hash == table.last_hash:
                    changed[g] = advance(table, [env])
                    last_command[g] = env.command_id
                elif env.seq <= table.version and ((g, table.version) in checked or await self._in_log(table)):
                    checked.add((g, table.version))  # seen before: a redelivered entry
                else:
                    changed.pop(g, None)
                    last_command.pop(g, None)
                    if (table := await self.reproject(g)) is not None:
                        checked.add((g, table.version))
            except LOST:
                raise
            except Exception as e:  # a log that does not fold: fold it whole, else quarantine
                changed.pop(g, None)
                last_command.pop(g, None)
                log.warning("projector of shard %d: %s does not fold at seq %d (%s); projecting it again "
                            "from its log", self.shard, g, env.seq, type(e).__name__)
                if (table := await self.reproject(g)) is not None:
                    checked.add((g, table.version))
        if len(rows) >= self.batch:
            # A full batch may end inside a command: its other events are in the log already
            # (a command's events land atomically), and a position inside a command is no
            # state any seat ever saw (games need not be able to view it), so finish it.
            for game_id, command_id in last_command.items():
                changed[game_id] = await self._finish_command(changed[game_id], command_id)
        last = rows[-1][0].decode()
        notices = keys.updates(self.shard)
        ahead, behind = await write(self.redis, self._script, self.shard, changed.values(), self.store,
                                    checkpoint=(keys.checkpoint(self.shard, self.name), last), notices=notices)
        self.tables.update(changed)
        self.position = last
        self.applied += len(rows)
        again = set(behind)  # the script wrote (and announced) nothing of these
        for game_id in behind:  # its log is shorter than its table: entries were lost
            await self.reproject(game_id)
        for game_id in ahead - behind:  # a stored view newer than what its log folds to
            if await self._view_ahead_of_log(game_id):
                await self.reproject(game_id)
                again.add(game_id)
        for game_id in again:  # their views were replaced after the script's notices
            await self.redis.publish(notices, game_id)
        return len(rows)

    async def _in_log(self, table: Table) -> bool:
        """Whether the log still holds `table`'s last envelope (same seq, same hash)."""
        if table.version == 0:
            return True
        tail = await self.store.read(table.game_id, after_seq=table.version - 1)
        return bool(tail) and tail[0].seq == table.version and tail[0].hash == table.last_hash

    async def _view_ahead_of_log(self, game_id: str) -> bool:
        seq = await self.redis.hget(keys.view(self.shard, game_id, None), "seq")
        return seq is not None and int(seq) > await self.redis.xlen(keys.log(self.shard, game_id))

    async def reproject(self, game_id: str) -> Table | None:
        """Project one game again from its log alone, replacing its stored views and
        statistics row whatever their seq (rebuild's swap); None if the log cannot be
        folded, and then the game is quarantined: named with the reason in `quarantine:{s}`,
        counted, its feed entries skipped until a rebuild folds it, and the others go on."""
        self.reprojected += 1
        self.tables.pop(game_id, None)
        try:
            table = await swap_in(self.redis, self.store, self.shard, game_id)
        except LOST:
            raise
        except Exception as e:
            reason = f"{type(e).__name__}: {e}"
            self.quarantined.add(game_id)
            await self.redis.hset(keys.quarantine(self.shard), game_id, reason)
            log.error("projector of shard %d: quarantined %s, its log does not fold: %s", self.shard, game_id, reason)
            return None
        if table is not None:
            self.tables[game_id] = table
        log.warning("projector of shard %d: projected %s again from its log (seq %d)", self.shard, game_id,
                    table.version if table else 0)
        return table

    def forget(self) -> None:
        """Drop every cached table (after Redis came back: its logs may be shorter than the
        tables); each game is folded from its log when next seen. The position is read
        again from the stored checkpoint: after a failover the new master holds what its
        replica had, which may end before what this projector read from the old one."""
        self.tables.clear()
        self.position = None

    async def _finish_command(self, table: Table, command_id: str) -> Table:
        """`table` advanced over the rest of the command whose events it stopped within."""
        rest = []
        for e in await self.store.read(table.game_id, after_seq=table.version):
            if e.command_id != command_id:
                break
            rest.append(e)
        return advance(table, rest) if rest else table

    async def _table_before(self, env: Envelope) -> Table | None:
        """The game's cached table, or, if there is none or it is behind `env`, the table of
        its log just before `env`."""
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

    async def run(self, stop: asyncio.Event, lease: Lease | None = None) -> None:
        """Step until `stop`; a lost Redis (a restart) is waited out with back-off and one
        warning, and the step is taken again from the stored checkpoint's position. With a
        `lease`, only while this process holds it (`services.projector.lease`): taken from
        the stored checkpoint each time it is taken, the cache dropped when it is lost, and
        released at the end."""
        backoff, lost = Backoff(), False
        try:
            while not stop.is_set():
                try:
                    if lease is not None and not await self._holds(lease):
                        with contextlib.suppress(asyncio.TimeoutError):
                            await asyncio.wait_for(stop.wait(), lease.retry_s)
                        continue
                    n = await self.step()
                    if 0 < n < LINGER_BELOW and self.linger_s > 0:
                        await asyncio.sleep(self.linger_s)
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
                    self.forget()  # a crashed Redis may have come back with shorter logs
        finally:
            if lease is not None:
                with contextlib.suppress(Exception):
                    await lease.release()

    async def _holds(self, lease: Lease) -> bool:
        """Whether this process holds the shard's lease now (taken or renewed); the cache is
        dropped whenever it changes hands (another process may have moved the checkpoint on)."""
        had = lease.held
        held = await lease.hold()
        if had and not held:
            log.warning("projector of shard %d: its lease was lost; another process projects it now", self.shard)
        if had != held:
            self.forget()
        return held

    async def idle(self) -> bool:
        """True when the checkpoint is at the end of the feed."""
        last = await self.redis.xrevrange(keys.feed(self.shard), count=1)
        return not last or (self.position or "0-0") == last[0][0].decode()


async def write(redis: aioredis.Redis, script: object, shard: int, tables: Iterable[Table],
                store: EventStore, checkpoint: tuple[str, str] | None = None,
                notices: str = "") -> tuple[set[str], set[str]]:
    """Store the views of `tables` (seq-guarded), their rows if finished, and the checkpoint;
    each game written is announced on the channel `notices` (if any) by the same script call,
    which spares a PUBLISH round trip a changed game (at one command a batch, ~10% of `up`'s
    CPU here: bench/RESULTS.md).

    Returns (the games of which a newer view than the one offered was stored, the games whose
    log is shorter than their table: nothing of them was written, and they are not to be
    cached: the caller projects them again from their logs)."""
    script_keys: list[str] = [checkpoint[0] if checkpoint else "", keys.timers(shard)]
    owners: list[str] = []
    args: list[object] = [checkpoint[1] if checkpoint else "", 0, notices]
    extra: list[object] = []
    finished: dict[str, list[tuple[str, ratings.Result]]] = {}
    done: list[tuple[str, str, bytes]] = []  # finished games' rated results and move times
    for t in tables:
        docs = board.docs(t)
        owners.append(t.game_id)
        script_keys.append(keys.log(shard, t.game_id))
        args += (t.game_id, len(docs), t.version)
        for seat, data in docs.items():
            script_keys.append(keys.view(shard, t.game_id, seat))
            args.append(data)
        args += timer_args(t)
        if t.game.result(t.state) is not None:
            envs = await store.read(t.game_id)
            envs = [e for e in envs if e.seq <= t.version]
            r = stats.row(t, envs)
            if r is not None:
                extra += aggregates.row_args(t.game, t.game_id, r)
                done += _extras(t.game, t.game_id, envs, r, times=True)
                if (res := ratings.result(r)) is not None:
                    finished.setdefault(t.game.id, []).append((t.game_id, res))
    args[1] = len(owners)
    if is_cluster(redis) and extra:
        # Rows first, in their game types' slots, then views and checkpoint in the shard's:
        # a crash in between writes the same rows again (`ts_row` replaces a game's row). A
        # game found behind its log below is projected again, which replaces its row.
        await aggregates.write_rows(redis, extra)
        extra = []
    newer, behind = await script(keys=script_keys, args=[*args, *extra])  # type: ignore[operator]
    late = {owners[int(i) - 1] for i in behind}
    await _store_extras(redis, [x for x in done if x[1] not in late])
    for game_type, results in finished.items():
        fresh = [res for gid, res in results if gid not in late]
        if fresh:
            await player_ratings.update(redis, game_type, fresh)
    return {owners[int(i) - 1] for i in newer}, late


# Rebuild's swap of one game. KEYS: the game's log, its view keys, the shard's timers; ARGV: the log's
# length the documents were folded from, n views, per view (seq, doc), `ts_timers`'
# arguments, then the stats key, the game id, its row ("" for none), the dashboard prefix
# and the row's contribution (a stats key "": no row here; on a cluster the row is written
# apart, in its own slot).
# Nothing is written if the log has moved on since
# (the caller folds it again); otherwise every view is replaced whatever its seq (a stored
# view ahead of the log is stale too), so readers see the old document, then the new one.
SWAP = aggregates.LUA + _TIMERS + """
if redis.call('XLEN', KEYS[1]) ~= tonumber(ARGV[1]) then return 0 end
local a = 3
local n = tonumber(ARGV[2])
for i = 1, n do
  redis.call('HSET', KEYS[i + 1], 'seq', ARGV[a], 'doc', ARGV[a + 1])
  a = a + 2
end
a = ts_timers(KEYS[n + 2], a, true)
if ARGV[a] ~= '' then ts_row(ARGV[a], ARGV[a + 1], ARGV[a + 2], ARGV[a + 3], ARGV[a + 4]) end
return 1
"""

def swap_args(shard: int, table: Table, envs: list[Envelope], cluster: bool
               ) -> tuple[list[str], list[object], stats.GameRow | None, list[object]]:
    """`SWAP`'s keys and arguments for one folded game (its documents, and off a cluster
    its row, written only while its log is as long), its row (None while the game is not
    over) and the row's own arguments (`aggregates.row_args`: on a cluster, written apart
    in its slot after the swap)."""
    game, game_id = table.game, table.game_id
    docs = board.docs(table)
    row = stats.row(table, envs) if game.result(table.state) is not None else None
    args: list[object] = [table.version, len(docs)]
    for data in docs.values():
        args += (table.version, data)
    args += timer_args(table)
    row_args = aggregates.row_args(game, game_id, row)
    args += ["", game_id, "", "", ""] if cluster else row_args
    return ([keys.log(shard, game_id), *(keys.view(shard, game_id, seat) for seat in docs), keys.timers(shard)],
            args, row, row_args)


def fold_log(game_id: str, envs: list[Envelope]) -> Table | None:
    """A whole log folded; None for an empty log or an unknown game type."""
    if not envs or (game := lookup(envs[0].game_type)) is None:
        return None
    return advance(empty(game_id, game), envs)


async def swap_in(redis: aioredis.Redis, store: EventStore, shard: int, game_id: str) -> Table | None:
    """Fold one game's whole log and swap its views and statistics row in (the `SWAP`
    script: written whatever the stored seqs, only if the log is still as long as what was
    folded, else folded again). The table, or None for an empty log or unknown game type;
    raises what folding raises for a log that does not fold."""
    swap = redis.register_script(SWAP)
    cluster = is_cluster(redis)
    for _ in range(100):  # the log moved on while it was folded: fold it again
        envs = await store.read(game_id)
        if (table := fold_log(game_id, envs)) is None:
            return None
        keys_, args, row, row_args = swap_args(shard, table, envs, cluster)
        if await swap(keys=keys_, args=args):
            if cluster:
                await aggregates.write_rows(redis, row_args)
            if row is not None:
                await store_finished(redis, [(table, envs, row)])
            return table
    raise RuntimeError(f"{game_id}: its log kept moving while it was folded")


async def store_finished(redis: aioredis.Redis, games: list[tuple[Table, list[Envelope], stats.GameRow]]) -> None:
    """The extras (`_extras`) of finished games just swapped in; move times only where
    none are stored (a finished log is final), in two round trips."""
    pipe = redis.pipeline(transaction=False)
    for table, _, _ in games:
        pipe.hexists(keys.move_times(table.game.id), table.game_id)
    stored = await pipe.execute()
    await _store_extras(redis, [x for (table, envs, row), has in zip(games, stored)
                                for x in _extras(table.game, table.game_id, envs, row, times=not has)])


def _extras(game: GameDef, game_id: str, envs: list[Envelope], row: stats.GameRow,
            times: bool) -> list[tuple[str, str, bytes]]:
    """(hash, game id, value) of a finished game's rated result (`keys.rated`, if rated)
    and, if `times`, its move times (`keys.move_times`: they cost a fold of the log)."""
    out = []
    if (res := ratings.result(row)) is not None:
        out.append((keys.rated(game.id), game_id, ratings.encode_result(res)))
    if times:
        out.append((keys.move_times(game.id), game_id, movetimes.encode(movetimes.seat_times(game, game_id, envs))))
    return out


async def _store_extras(redis: aioredis.Redis, entries: list[tuple[str, str, bytes]]) -> None:
    """Writes `_extras`' entries (after the game's row: a crash in between leaves them to
    the next rebuild, which writes the missing ones)."""
    if entries:
        pipe = redis.pipeline(transaction=False)
        for key, field, value in entries:
            pipe.hset(key, field, value)
        await pipe.execute()


async def load_views(redis: aioredis.Redis, shard: int, game_id: str, seats: list[int | None]) -> dict[int | None, bytes | None]:
    """The stored view documents of a game."""
    pipe = redis.pipeline(transaction=False)
    for s in seats:
        pipe.hget(keys.view(shard, game_id, s), "doc")
    return dict(zip(seats, await pipe.execute()))
