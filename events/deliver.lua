-- Delivers what append.lua staged (its ARGV[12]) once the caller's WAIT for replicas has
-- returned: the landed commands' XACKs on cmd:{s}, then one outcome entry per reply stream.
-- The caller sends append.lua, WAIT and this script on one connection, in one write, so
-- Redis runs this only after WAIT has returned (on the ack of the replicas or its timeout):
-- no client can read an outcome before its command's writes were sent to the replicas
-- and WAIT answered. XACK (allowed when Redis is out of memory) is the first write, as in
-- answer_full.lua. A stage that is gone (never written: nothing landed; or expired after
-- a lost connection) delivers nothing: those commands stay pending and are redelivered,
-- then answered from their records.
-- KEYS[1] stage:{s}:<unique>  KEYS[2] cmd:{s}; ARGV: group, reply MAXLEN ~, reply TTL (0 = keep).
local got = redis.call('GET', KEYS[1])
if not got then
  return 0
end
local staged = cmsgpack.unpack(got)
local group, maxlen, ttl = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local acks = staged[1]
for i = 1, #acks, 1000 do  -- unpack has a stack limit: acknowledge in chunks
  redis.call('XACK', KEYS[2], group, unpack(acks, i, math.min(i + 999, #acks)))
end
for i = 2, #staged do
  local to, outcomes = staged[i][1], staged[i][2]
  redis.call('XADD', to, 'MAXLEN', '~', maxlen, '*', 'os', outcomes)
  if ttl > 0 then
    redis.call('EXPIRE', to, ttl)
  end
end
redis.call('DEL', KEYS[1])
return #acks
