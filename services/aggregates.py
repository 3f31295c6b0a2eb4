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

_DROP = LUA + "ts_row(ARGV[1], ARGV[2], '', ARGV[3], '')\nreturn 1\n"


def row_args(game: GameDef, game_id: str, row: GameRow | None) -> list[Any]:
    """The five arguments of `ts_row` for a game's row (None: delete it)."""
    if row is None:
        return [keys.stats(game.id), game_id, "", keys.dashboard(game.id), ""]

    bucket, counters = contribution(row, msgspec.to_builtins(game.options_type()), game.set_facets)
    return [keys.stats(game.id), game_id, encode_row(row), keys.dashboard(game.id),
            encode_contribution(bucket, counters)]


async def drop_row(redis: aioredis.Redis, game_type: str, game_id: str) -> None:
    """Delete a game's statistics row and take its contribution out of the dashboard."""
    await redis.eval(_DROP, 0, keys.stats(game_type), game_id, keys.dashboard(game_type))


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
