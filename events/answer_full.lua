-- Answers commands while Redis is full. XACK (which Redis allows when out of memory) is
-- the first write: Redis checks a script for memory at its first write only (scripts
-- without flags, Redis 6.2 and 7.x), so the outcomes (a few hundred bytes) get through.
-- KEYS[1] cmd:{s}; ARGV: group, reply MAXLEN ~, reply TTL, then (entry id, reply stream
-- or "", outcome JSON) per command.
local group, maxlen, ttl = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local streams, outs = {}, {}
for i = 4, #ARGV, 3 do
  redis.call('XACK', KEYS[1], group, ARGV[i])
  local to = ARGV[i + 1]
  if to ~= '' then
    if not outs[to] then
      outs[to] = {}
      streams[#streams + 1] = to
    end
    table.insert(outs[to], ARGV[i + 2])
  end
end
for _, to in ipairs(streams) do
  redis.call('XADD', to, 'MAXLEN', '~', maxlen, '*', 'os', '[' .. table.concat(outs[to], ',') .. ']')
  if ttl > 0 then
    redis.call('EXPIRE', to, ttl)
  end
end
return #streams
