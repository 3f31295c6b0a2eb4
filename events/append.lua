-- Tablestream's atomic append: a batch of commands of one shard, judged in order.
-- Plain EVALSHA Lua (no Functions, no Redis 7-only options): runs on Redis 6.2 and 7.x.
-- Callers: events/store/appends.py only. Layout and guarantees: events/README.md.
--
-- KEYS: [1] feed:{s}  [2] games:{s}  [3] cmd:{s}  [4] rej:{s}  [5] dlq:{s} (or absent)
-- ARGV: [1] feed MAXLEN ~ (0 = never trim)  [2] done-key TTL in seconds (0 = keep)
--       [3] the items, MessagePack: a list of
--           {log key, done key, rejected key or "", expected version, game id,
--            creation time (ms), fingerprint, events, shared, landing or nil,
--            seed key or "", ends, the fingerprint of the command's exact bytes or "",
--            command-ids key or ""}
--           where either shared is false and each event is its values in
--           events.codec.FIELDS order, or shared is {command id, prev_hash of the first
--           event, index in ARGV of the first entry, count, hash of the last event} and
--           events is empty: one command's envelopes, already packed as entries by the
--           caller (ARGV[first] .. ARGV[first + count - 1]), whose seqs follow the expected
--           version and whose prev_hash is the hash before (the caller checks both)
--       [4] consumer group of cmd:{s} (landings only)  [5] reply stream MAXLEN ~
--       [6] rej:{s} MAXLEN ~  [7] rejected-record TTL in seconds
--       [8] MessagePack list of latency histogram cells {hash key, field}
--       [9] reply stream TTL in seconds (0 = keep)  [10] done-record grace in seconds after
--       a game's end (0 = keep)  [11] the done keys' prefix (done:{s}:)
--       [12] a staging key (stage:{s}:<unique>) or "" / absent: when given, the landed
--       items' outcomes and acknowledgements are not written but staged there (SET, 60 s
--       expiry) for events/deliver.lua, which the caller runs after a WAIT for replicas
--       [13...] the compact items' entries (events.codec.encode_entry), in item order
-- Each event is written, to its log and to the feed, as one field "e" (events.codec.ENTRY):
-- its values in FIELDS order as MessagePack (integers as integers, strings as str): packed
-- by the caller (compact items: each entry one argument, so Lua neither unpacks nor packs
-- it) or here by cmsgpack (whole items), to the same bytes.
-- A landing is {kind, cmd entry id, reply stream or "", outcome, histogram cell (0 = none),
-- audit fields, dead-letter fields}: kind "a" appends the item's envelopes; kind "r"
-- appends nothing and records a refusal (outcome = the Rejected JSON, audit = its rej:{s}
-- entry's fields); kind "s" only settles, unchecked (answers the referee found without a
-- landing: unreadable commands, earlier records, dead letters): its rejected record (NX,
-- if the item names a rejected key), dead letter on dlq:{s} and audit entry (if any),
-- then outcome, XACK and latency as for any landing; it answers code 0.
-- Every key an item names carries the shard's hash tag {s}, like KEYS[1], so all keys of a
-- call live in one cluster slot. (They travel in ARGV so that a batch is one argument for
-- the client to encode instead of dozens per event.)
-- Returns 3 values per item: code (0 ok, 1 conflict, 2 duplicate, 3 rejected before,
-- 4 not tried because an earlier item of the same game in this call did not land, 5 the
-- command id's record belongs to another command, 6 the log's chain is broken: its last
-- entry is not seq = its length, or its hash is not the prev_hash of the item's first
-- event, or the item's own events do not follow one another), the log's length afterwards, and for
-- a duplicate the stored JSON seqs, for a rejection the stored outcome (else "").
--
-- A landed item (code 0) with a landing is settled here, in the same atomic step: its
-- outcome is delivered (one entry per reply stream and call, field "os", the JSON list of
-- its outcomes in item order), its cmd:{s} entry acknowledged, its latency counted; for a
-- refusal, its rejected record (NX) and audit entry are written. For "a" the outcome is
-- the Accepted JSON up to `"seqs":`, completed here with the seqs. Items with any other
-- code are left to the caller: nothing of their landing is written.
--
-- The done and rejected records begin with the fingerprint of the command they answer
-- (16 hex digits; none if the caller gives ""): a command id met again with another
-- fingerprint is answered 5, never with the other command's outcome. Records without a
-- fingerprint (older ones, or written for "") begin with "[" or "{" and answer only an
-- item without one (an import or fork, which gives ""); an item with fingerprint ""
-- matches any record.
--
-- Every check of an item precedes its first write, and its writes cannot fail on well-
-- formed input (checked by the caller), so a command's events all land or none do. The
-- first write of every item is one Redis refuses when it is out of memory (XADD, SET,
-- never XACK, EXPIRE or DEL first), and Redis checks a script only at its first write:
-- a full Redis refuses the whole call, never half of it.
--
-- Retention: a landed open keeps its seed (PERSIST: drawn with an expiry, so that a refused
-- open leaves nothing); a landed item that ends its game ("ends") deletes the seed (the
-- log has revealed it) and gives the done record of every command in the game's log the
-- grace expiry; reply streams expire when no outcome was written to them for their TTL.

local feed, games, cmd, rej, dlq = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local maxlen = tonumber(ARGV[1])
local ttl = tonumber(ARGV[2])
local items = cmsgpack.unpack(ARGV[3])
local group = ARGV[4]
local reply_max, rej_max, rej_ttl = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local cells = ARGV[8] and cmsgpack.unpack(ARGV[8]) or {}
local reply_ttl, grace, done_prefix = tonumber(ARGV[9]), tonumber(ARGV[10]), ARGV[11]
local stage = ARGV[12] or ''
local out = {}
local failed = {}
local acks, streams, outcomes, counts = {}, {}, {}, {}

local function answer(code, len, stored)
  out[#out + 1] = code
  out[#out + 1] = len
  out[#out + 1] = stored
end

local function settle(land, outcome)
  acks[#acks + 1] = land[2]
  local to = land[3]
  if to ~= '' then
    local list = outcomes[to]
    if not list then
      list = {}
      outcomes[to] = list
      streams[#streams + 1] = to
    end
    list[#list + 1] = outcome
  end
  local cell = land[5]
  if cell > 0 then
    counts[cell] = (counts[cell] or 0) + 1
  end
end

-- One event (its packed entry): in the game's log and the same in the shard's feed.
local function write(log, entry)
  redis.call('XADD', log, '*', 'e', entry)
  if maxlen > 0 then
    redis.call('XADD', feed, 'MAXLEN', '~', maxlen, '*', 'e', entry)
  else
    redis.call('XADD', feed, '*', 'e', entry)
  end
end

local FPLEN = 16  -- events.store.items.FINGERPRINT_LEN

-- The record's answer if it was written for this fingerprint (or fp is ""), else false.
-- A record headed by `exact` (the fingerprint of the command's exact bytes, as records were
-- written before fingerprints read the command with its keys sorted) is this command's too.
local function mine(record, fp, exact)
  local first = string.byte(record, 1)
  if first == 91 or first == 123 then  -- "[" or "{": no fingerprint (older, or none given)
    if fp ~= '' then
      return false
    end
    return record
  end
  if fp ~= '' and string.sub(record, 1, FPLEN) ~= fp and (exact == '' or string.sub(record, 1, FPLEN) ~= exact) then
    return false
  end
  return string.sub(record, FPLEN + 1)
end

-- The seq and hash of a log's last entry: one field "e" (packed), or one field per value.
local function last_link(log)
  local last = redis.call('XREVRANGE', log, '+', '-', 'COUNT', 1)[1][2]
  if last[1] == 'e' then
    local e = cmsgpack.unpack(last[2])
    return e[3], e[10]
  end
  local seq, hash
  for i = 1, #last, 2 do
    if last[i] == 'seq' then
      seq = tonumber(last[i + 1])
    elseif last[i] == 'hash' then
      hash = last[i + 1]
    end
  end
  return seq, hash
end

-- The command ids of a running game's log, in ids:{s}:<game>: IDS_HEAD, then a netstring
-- "<length>:<id>," for each compact item (one command's events) that landed: SET by the
-- log's first append, APPENDed by each later one. A value without the head (the log began
-- with a whole list, or before the list was kept: the APPEND created it) may be
-- incomplete, and the game's end reads the log instead.
local IDS_HEAD = 'ids1,'

-- Expires the done record of every command the list names; false if the list does not
-- parse to its end (never written so; then the log is read instead: EXPIRE is idempotent).
local function expire_listed(list)
  local seen = {}
  local p, n = #IDS_HEAD + 1, #list
  while p <= n do
    local colon = string.find(list, ':', p, true)
    local len = colon and tonumber(string.sub(list, p, colon - 1))
    if not len or string.sub(list, colon + len + 1, colon + len + 1) ~= ',' then
      return false
    end
    local id = string.sub(list, colon + 1, colon + len)
    if not seen[id] then
      seen[id] = true
      redis.call('EXPIRE', done_prefix .. id, grace)
    end
    p = colon + len + 2
  end
  return true
end

-- The done records of every command in a finished game's log expire after the grace.
local function expire_done(log)
  local seen = {}
  for _, entry in ipairs(redis.call('XRANGE', log, '-', '+')) do
    local f, id = entry[2], nil
    if f[1] == 'e' then
      id = cmsgpack.unpack(f[2])[7]
    else
      for i = 1, #f, 2 do
        if f[i] == 'command_id' then
          id = f[i + 1]
        end
      end
    end
    if id and not seen[id] then
      seen[id] = true
      redis.call('EXPIRE', done_prefix .. id, grace)
    end
  end
end

-- Whether the item's events would not continue the log's chain (a log of `len` entries):
-- the last entry must be seq `len` with the hash the first event names as prev_hash, and
-- (whole form) each event the next seq with the previous event's hash.
local heads = {}  -- log -> {seq, hash} of the entry this call appended last to it

-- A log's length: known without a call once this call has appended to it (the seq of its
-- last entry, as the script checked each entry is seq = length).
local function length(log)
  local head = heads[log]
  if head then
    return head[1]
  end
  return redis.call('XLEN', log)
end

local function broken(log, len, events, shared, n)
  if n == 0 then
    return false
  end
  local prev = shared and shared[2] or events[1][9]
  if len > 0 then
    local seq, hash
    local head = heads[log]
    if head then  -- appended by this call: no need to read it back
      seq, hash = head[1], head[2]
    else
      seq, hash = last_link(log)
    end
    if seq ~= len or hash ~= prev then
      return true
    end
  end
  if not shared then
    for i = 1, n do
      local ev = events[i]
      if ev[3] ~= len + i or ev[9] ~= prev then
        return true
      end
      prev = ev[10]
    end
  end
  return false
end

for _, item in ipairs(items) do
  local log, done, rejected = item[1], item[2], item[3]
  local expected, game_id, created, fp = item[4], item[5], item[6], item[7]
  local events, shared, land, secret, ends = item[8], item[9], item[10], item[11], item[12]
  local ids = item[14] or ''
  local n = shared and shared[4] or #events
  local code, record = 2, false
  if land and land[1] == 's' then
    record = nil
  else
    -- applied before (2: its seqs), else refused before (3: its rejection): one call
    if rejected ~= '' then
      local got = redis.call('MGET', done, rejected)
      record = got[1]
      if not record then
        code, record = 3, got[2]
      end
    else
      record = redis.call('GET', done)
    end
  end
  if record == nil then
    -- settle only (kind "s"): an answer the caller found, written as it says
    if rejected ~= '' then
      redis.call('SET', rejected, fp .. land[4], 'NX', 'EX', rej_ttl)
    end
    if #land[7] > 0 then
      redis.call('XADD', dlq, 'MAXLEN', '~', rej_max, '*', unpack(land[7]))
    end
    if #land[6] > 0 then
      redis.call('XADD', rej, 'MAXLEN', '~', rej_max, '*', unpack(land[6]))
    end
    settle(land, land[4])
    answer(0, 0, '')
  elseif record then
    local said = mine(record, fp, item[13])
    if said then
      answer(code, length(log), said)
    else
      answer(5, length(log), '')
    end
  elseif failed[log] then
    answer(4, length(log), '')
  else
    local len = length(log)
    if len ~= expected then
      failed[log] = true
      answer(1, len, '')
    elseif land and land[1] == 'r' then
      -- a refusal, judged on this very version: it stands
      redis.call('SET', rejected, fp .. land[4], 'NX', 'EX', rej_ttl)
      redis.call('XADD', rej, 'MAXLEN', '~', rej_max, '*', unpack(land[6]))
      settle(land, land[4])
      answer(0, len, '')
    elseif broken(log, len, events, shared, n) then
      failed[log] = true
      answer(6, len, '')
    else
      local seqs = {}
      if shared then
        local first = shared[3] - 1
        for i = 1, n do
          write(log, ARGV[first + i])
          seqs[i] = expected + i
        end
      else
        for i = 1, n do
          write(log, cmsgpack.pack(events[i]))
          seqs[i] = expected + i
        end
      end
      if n > 0 then
        heads[log] = {expected + n, shared and shared[5] or events[n][10]}
      end
      if expected == 0 and n > 0 then
        redis.call('ZADD', games, 'NX', created, game_id)
      end
      -- table.concat, not cjson: exact integers, and "[]" (not "{}") for no events.
      local json = '[' .. table.concat(seqs, ',') .. ']'
      if ttl > 0 then
        redis.call('SET', done, fp .. json, 'EX', ttl)
      else
        redis.call('SET', done, fp .. json)
      end
      if secret ~= '' then
        if ends then
          redis.call('DEL', secret)
        elseif expected == 0 then
          redis.call('PERSIST', secret)
        end
      end
      if ids ~= '' and shared and n > 0 then
        -- (Whole lists, an import, fork or restore, are not listed: a list begun by a
        -- later command has no head, and that game's end reads its log.)
        local add = #shared[1] .. ':' .. shared[1] .. ','
        if expected == 0 then
          redis.call('SET', ids, IDS_HEAD .. add)
        else
          redis.call('APPEND', ids, add)
        end
      end
      if ends then
        if grace > 0 then
          local list = ids ~= '' and redis.call('GET', ids)
          if not (list and string.sub(list, 1, #IDS_HEAD) == IDS_HEAD and expire_listed(list)) then
            expire_done(log)
          end
        end
        if ids ~= '' then
          redis.call('DEL', ids)
        end
      end
      if land then
        settle(land, land[4] .. json .. '}')
      end
      answer(0, expected + n, '')
    end
  end
end

for cell, count in pairs(counts) do
  redis.call('HINCRBY', cells[cell][1], cells[cell][2], count)
end
if stage ~= '' then
  -- Delivered by deliver.lua once the caller's WAIT has returned: {acks, {stream, "[o,...]"}...}
  if #acks > 0 then
    local staged = {acks}
    for _, to in ipairs(streams) do
      staged[#staged + 1] = {to, '[' .. table.concat(outcomes[to], ',') .. ']'}
    end
    redis.call('SET', stage, cmsgpack.pack(staged), 'EX', 60)
  end
  return out
end
for _, to in ipairs(streams) do
  redis.call('XADD', to, 'MAXLEN', '~', reply_max, '*', 'os', '[' .. table.concat(outcomes[to], ',') .. ']')
  if reply_ttl > 0 then
    redis.call('EXPIRE', to, reply_ttl)
  end
end
for i = 1, #acks, 1000 do  -- unpack has a stack limit: acknowledge in chunks
  redis.call('XACK', cmd, group, unpack(acks, i, math.min(i + 999, #acks)))
end

return out
