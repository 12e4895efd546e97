import { SERVER_NOW_MS } from "./lua-clock.js";

/**
 * Lua scripts of the events stream (see redis-event-stream.ts for the keys
 * and event-stream-runner.ts for the worker). Each is one atomic step, so a
 * crash or a dropped connection leaves an event in exactly one place: the
 * stream (waiting or being handled), the retry set, or the dead-letter stream.
 *
 * An entry's fields: `e` the event JSON, `a` attempts spent so far (absent: 0).
 */

/**
 * Moves a handled entry to the dead-letter stream, kept for 7 days and at
 * most 10,000 entries (trimmed on each add, by age on the stream id's time).
 * Needs `now` and: stream KEYS[1], dead KEYS[3], group ARGV[1].
 */
const DEAD_LETTER = `
local function deadLetter(id, event, attempts, reason)
  redis.call("XADD", KEYS[3], "MAXLEN", "10000", "*", "e", event, "a", attempts, "from", id, "error", reason)
  redis.call("XTRIM", KEYS[3], "MINID", string.format("%.0f", now - 7 * 24 * 3600 * 1000))
  redis.call("XACK", KEYS[1], ARGV[1], id)
  redis.call("XDEL", KEYS[1], id)
end
`;

/**
 * recordEvents — one dedupe mark per event (SET NX with the dedupe TTL) and,
 * for each new one, an entry on the stream. The first record creates the
 * consumer group, reading from the start, so no entry predates its group.
 *
 * KEYS[1]          the stream
 * ARGV[1]          mark TTL, seconds
 * ARGV[2]          mark key prefix ({p}:events:seen:)
 * ARGV[3]          consumer group
 * ARGV[4+2(i-1)..] per event i: dedupeId, event JSON
 * Returns          one integer per event: 1 new, 0 duplicate (an id seen within the TTL, this call included)
 */
export const RECORD_EVENTS_LUA = `
if redis.call("EXISTS", KEYS[1]) == 0 then
  redis.call("XGROUP", "CREATE", KEYS[1], ARGV[3], "0", "MKSTREAM")
end
local results = {}
for i = 4, #ARGV, 2 do
  if redis.call("SET", ARGV[2] .. ARGV[i], "1", "EX", ARGV[1], "NX") then
    redis.call("XADD", KEYS[1], "*", "e", ARGV[i + 1])
    results[#results + 1] = 1
  else
    results[#results + 1] = 0
  end
end
return results
`;

/** ackEvent — a handled entry leaves the stream. KEYS[1] stream; ARGV[1] group, ARGV[2] entry id. */
export const ACK_EVENT_LUA = `
redis.call("XACK", KEYS[1], ARGV[1], ARGV[2])
redis.call("XDEL", KEYS[1], ARGV[2])
return 1
`;

/**
 * delayEvent — the entry leaves the stream for the retry set, due in ARGV[3]
 * ms (Redis's clock), carrying its attempts; promoteDueEvents puts it back.
 * The member is "attempts|entry id|event JSON" (the id keeps two members apart).
 *
 * KEYS[1] stream, KEYS[2] retry zset; ARGV[1] group, ARGV[2] entry id, ARGV[3] delay ms,
 * ARGV[4] attempts spent, ARGV[5] event JSON. Returns 0 if the entry was already settled (acked by
 * another consumer after a takeover), else 1.
 */
export const DELAY_EVENT_LUA = `${SERVER_NOW_MS}
if redis.call("XACK", KEYS[1], ARGV[1], ARGV[2]) == 0 then return 0 end
redis.call("XDEL", KEYS[1], ARGV[2])
redis.call("ZADD", KEYS[2], now + tonumber(ARGV[3]), ARGV[4] .. "|" .. ARGV[2] .. "|" .. ARGV[5])
return 1
`;

/**
 * deadLetterEvent — the entry failed for good: it moves to the dead-letter stream.
 *
 * KEYS[1] stream, KEYS[2] retry zset (unused), KEYS[3] dead-letter stream; ARGV[1] group,
 * ARGV[2] entry id, ARGV[3] attempts spent, ARGV[4] event JSON, ARGV[5] why.
 * Returns 0 if the entry was already settled, else 1.
 */
export const DEAD_LETTER_EVENT_LUA = `${SERVER_NOW_MS}${DEAD_LETTER}
if redis.call("XPENDING", KEYS[1], ARGV[1], ARGV[2], ARGV[2], 1)[1] == nil then return 0 end
deadLetter(ARGV[2], ARGV[4], ARGV[3], ARGV[5])
return 1
`;

/**
 * promoteDueEvents — retries whose time has come go back on the stream as new
 * entries (with their attempts), at most ARGV[1] per call.
 * KEYS[1] stream, KEYS[2] retry zset. Returns how many moved.
 */
export const PROMOTE_DUE_EVENTS_LUA = `${SERVER_NOW_MS}
local due = redis.call("ZRANGEBYSCORE", KEYS[2], "-inf", now, "LIMIT", 0, tonumber(ARGV[1]))
for _, member in ipairs(due) do
  local attempts, event = string.match(member, "^(%d+)|[^|]*|(.*)$")
  redis.call("XADD", KEYS[1], "*", "e", event, "a", attempts)
  redis.call("ZREM", KEYS[2], member)
end
return #due
`;

/**
 * takeOverEvents — entries a consumer has held idle for ARGV[3] ms (its
 * process died, or lost Redis) are claimed by consumer ARGV[2], at most
 * ARGV[4], scanning the pending list from ARGV[5]. An entry delivered more
 * than ARGV[6] times (it took down every worker that ran it) is dead-lettered
 * instead of run again.
 *
 * KEYS[1] stream, KEYS[2] retry zset (unused), KEYS[3] dead-letter stream; ARGV[1] group.
 * Returns { next scan cursor, { {id, {field, value, …}}, … } }.
 */
export const TAKE_OVER_EVENTS_LUA = `${SERVER_NOW_MS}${DEAD_LETTER}
local claimed = redis.call("XAUTOCLAIM", KEYS[1], ARGV[1], ARGV[2], ARGV[3], ARGV[5], "COUNT", ARGV[4])
local entries = {}
for _, entry in ipairs(claimed[2]) do
  -- Redis 6.2 answers false for an entry deleted meanwhile (7 leaves it out).
  if type(entry) == "table" then
    local id = entry[1]
    local pending = redis.call("XPENDING", KEYS[1], ARGV[1], id, id, 1)[1]
    if pending ~= nil and pending[4] > tonumber(ARGV[6]) then
      local fields = {}
      for i = 1, #entry[2], 2 do fields[entry[2][i]] = entry[2][i + 1] end
      deadLetter(id, fields.e or "", fields.a or "0", "its worker stopped while running it, too many times")
    else
      entries[#entries + 1] = entry
    end
  end
end
return { claimed[1], entries }
`;

/**
 * eventDepth — counts for the queue metrics, in one consistent read:
 * { waiting (in the stream, not yet delivered), active (delivered, not yet
 * settled), delayed (retry set), failed (dead-letter stream), id of the
 * oldest undelivered entry or "" }.
 *
 * KEYS[1] stream, KEYS[2] retry zset, KEYS[3] dead-letter stream; ARGV[1] group.
 */
export const EVENT_DEPTH_LUA = `
local length = redis.call("XLEN", KEYS[1])
local pending = 0
local lastDelivered = nil
if length > 0 then
  for _, group in ipairs(redis.call("XINFO", "GROUPS", KEYS[1])) do
    local info = {}
    for i = 1, #group, 2 do info[group[i]] = group[i + 1] end
    if info.name == ARGV[1] then
      pending = info.pending
      lastDelivered = info["last-delivered-id"]
    end
  end
end
local oldest = ""
if length > pending then
  local from = lastDelivered == nil and "-" or "(" .. lastDelivered
  local first = redis.call("XRANGE", KEYS[1], from, "+", "COUNT", 1)[1]
  if first ~= nil then oldest = first[1] end
end
return { math.max(0, length - pending), pending, redis.call("ZCARD", KEYS[2]), redis.call("XLEN", KEYS[3]), oldest }
`;
