-- Tablestream's atomic append: a batch of commands of one shard, each judged on its own.
-- Plain EVALSHA Lua (no Functions, no Redis 7-only options): runs on Redis 6.2 and 7.x.
-- Callers: events/store.py only. Layout and guarantees: events/README.md.
--
-- KEYS: [1] feed:{s}  [2] games:{s}  then per item: ev:{s}:<game>, done:{s}:<cmd>
-- ARGV: [1] feed MAXLEN ~ (0 = never trim)  [2] done-key TTL in seconds (0 = keep)
--       [3] W = field values per envelope (name, value, name, value, ...)
--       then per item: expected version, N envelopes, game id, creation time (ms),
--       and N * W field values.
-- Returns 3 values per item: code (0 ok, 1 conflict, 2 duplicate), the log's length
-- afterwards, and for a duplicate the stored JSON seqs (else "").
--
-- Every check of an item precedes its first write, and its writes cannot fail on well-
-- formed input (checked by the caller), so a command's events all land or none do.

local feed, games = KEYS[1], KEYS[2]
local maxlen = tonumber(ARGV[1])
local ttl = tonumber(ARGV[2])
local width = tonumber(ARGV[3])
local out = {}
local a = 4

for k = 3, #KEYS, 2 do
  local log, done = KEYS[k], KEYS[k + 1]
  local expected, n = tonumber(ARGV[a]), tonumber(ARGV[a + 1])
  local game_id, created = ARGV[a + 2], ARGV[a + 3]
  local first = a + 4
  a = first + n * width

  local stored = redis.call('GET', done)
  if stored then
    out[#out + 1] = 2
    out[#out + 1] = redis.call('XLEN', log)
    out[#out + 1] = stored
  else
    local len = redis.call('XLEN', log)
    if len ~= expected then
      out[#out + 1] = 1
      out[#out + 1] = len
      out[#out + 1] = ''
    else
      local seqs = {}
      for i = 0, n - 1 do
        local s = first + i * width
        local e = s + width - 1
        redis.call('XADD', log, '*', unpack(ARGV, s, e))
        if maxlen > 0 then
          redis.call('XADD', feed, 'MAXLEN', '~', maxlen, '*', unpack(ARGV, s, e))
        else
          redis.call('XADD', feed, '*', unpack(ARGV, s, e))
        end
        seqs[i + 1] = expected + i + 1
      end
      if expected == 0 and n > 0 then
        redis.call('ZADD', games, 'NX', created, game_id)
      end
      -- table.concat, not cjson: exact integers, and "[]" (not "{}") for no events.
      local json = '[' .. table.concat(seqs, ',') .. ']'
      if ttl > 0 then
        redis.call('SET', done, json, 'EX', ttl)
      else
        redis.call('SET', done, json)
      end
      out[#out + 1] = 0
      out[#out + 1] = expected + n
      out[#out + 1] = ''
    end
  end
end

return out
