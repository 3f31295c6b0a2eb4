"""The dashboard's aggregates in Redis, kept by whoever writes or deletes a statistics row.

Every write of a game's row goes with its contribution (projections.dashboard); the Lua
function `ts_row` (pasted into the projector's scripts) stores the row, takes the game's
previous contribution away from its bucket's counters and adds the new one, so writing
the same row twice, rebuilding, or deleting a row (archive, orphan sweep) leaves the
counters equal to the sum over the rows stored. Counters that fall to 0 are deleted.
Each contribution also goes to the game type's total (`<prefix>:all`), which an unfiltered
dashboard reads alone: one hash, however many days and setups the games span.
"""

from __future__ import annotations

from typing import Any

import msgspec
import redis.asyncio as aioredis

from events import keys
from games.contract import GameDef
from projections.dashboard import contribution, encode_contribution
from projections.stats import GameRow, encode_row

LUA = """
local function ts_row(skey, gid, row, dkey, contrib)
  local ckey = dkey .. ':contrib'
  local old = redis.call('HGET', ckey, gid)
  if row ~= '' then redis.call('HSET', skey, gid, row) else redis.call('HDEL', skey, gid) end
  if old == contrib or ((not old) and contrib == '') then return end
  local all = dkey .. ':all'
  if old then
    local o = cjson.decode(old)
    local bkey = dkey .. ':b:' .. o['b']
    for f, n in pairs(o['i']) do
      if redis.call('HINCRBY', bkey, f, -n) <= 0 then redis.call('HDEL', bkey, f) end
      if redis.call('HINCRBY', all, f, -n) <= 0 then redis.call('HDEL', all, f) end
    end
  end
  if contrib ~= '' then
    local c = cjson.decode(contrib)
    local bkey = dkey .. ':b:' .. c['b']
    for f, n in pairs(c['i']) do
      redis.call('HINCRBY', bkey, f, n)
      redis.call('HINCRBY', all, f, n)
    end
    redis.call('SADD', dkey .. ':buckets', c['b'])
    redis.call('HSET', ckey, gid, contrib)
  else
    redis.call('HDEL', ckey, gid)
  end
end
"""
"""`ts_row(stats key, game id, row or '', dashboard prefix, contribution or '')`: '' deletes."""

_DROP = LUA + "ts_row(KEYS[1], ARGV[1], '', ARGV[2], '')\nreturn 1\n"

ROWS = LUA + """
for a = 1, #ARGV, 5 do ts_row(ARGV[a], ARGV[a + 1], ARGV[a + 2], ARGV[a + 3], ARGV[a + 4]) end
return 1
"""
"""KEYS: one game type's statistics hash; ARGV: `ts_row`'s five arguments per row, all of that
game type. On a cluster, the rows a projector's batch finishes are written by this script in
the statistics hash's slot (the dashboard's keys share it, `keys.dashboard`), apart from the
views in the shard's slot."""


def row_args(game: GameDef, game_id: str, row: GameRow | None) -> list[Any]:
    """The five arguments of `ts_row` for a game's row (None: delete it)."""
    if row is None:
        return [keys.stats(game.id), game_id, "", keys.dashboard(game.id), ""]

    bucket, counters = contribution(row, msgspec.to_builtins(game.options_type()), game.set_facets)
    return [keys.stats(game.id), game_id, encode_row(row), keys.dashboard(game.id),
            encode_contribution(bucket, counters)]


async def drop_row(redis: aioredis.Redis, game_type: str, game_id: str) -> None:
    """Delete a game's statistics row and take its contribution out of the dashboard."""
    await redis.eval(_DROP, 1, keys.stats(game_type), game_id, keys.dashboard(game_type))


async def write_rows(redis: aioredis.Redis, rows: list[Any]) -> None:
    """Store rows given as `row_args` lists, grouped by statistics hash: one `ROWS` call per
    game type (a cluster's slot)."""
    by_key: dict[str, list[Any]] = {}
    for i in range(0, len(rows), 5):
        by_key.setdefault(rows[i], []).extend(rows[i:i + 5])
    for key, args in by_key.items():
        await redis.eval(ROWS, 1, key, *args)


async def buckets(redis: aioredis.Redis, game_type: str) -> list[bytes]:
    return sorted(await redis.smembers(keys.dashboard(game_type) + ":buckets"))


async def total(redis: aioredis.Redis, game_type: str) -> dict[bytes, bytes]:
    """The counters summed over every game of the type."""
    return await redis.hgetall(keys.dashboard(game_type) + ":all")


async def counters(redis: aioredis.Redis, game_type: str, names: list[bytes],
                   only: list[bytes] | None = None) -> list[dict[bytes, bytes]]:
    """The counter hashes of the named buckets (one round trip); `only`: just those counters."""
    pipe = redis.pipeline(transaction=False)
    prefix = keys.dashboard(game_type) + ":b:"
    for n in names:
        if only is None:
            pipe.hgetall(prefix + n.decode())
        else:
            pipe.hmget(prefix + n.decode(), only)
    got = await pipe.execute()
    return list(got) if only is None else [dict(zip(only, values)) for values in got]
