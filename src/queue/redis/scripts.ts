/**
 * Lua scripts of the inbound side. Each is one atomic step, so a crash or a
 * dropped connection leaves a message either fully recorded or not at all.
 */

/**
 * recordMessages — dedupe mark, payload, inbox entry and due turn for a group of messages.
 *
 * KEYS[1]            stats hash
 * KEYS[2]            inboxes zset
 * KEYS[3]            ready zset (conversations whose turn is due)
 * ARGV[1]            mark TTL, seconds
 * ARGV[2]            now, Unix ms
 * ARGV[3]            key prefix; per-message keys are derived from it (fewer bytes per message)
 * ARGV[4+4(i-1)..]   per message i: wamid, Meta timestamp (s), conversation key, message JSON
 * Returns            one integer per message: 1 new, 2 recorded earlier but not handled
 *                    (put back in the inbox if missing, turn due again), 0 handled already
 *
 * Keys read and written: {p}:wamid:{tenant}:{wamid}, {p}:inbox:{conversation},
 * {p}:msg:{conversation} (see keys.ts), where tenant is the conversation
 * key's first part. The ready entry is written with LT: a new message pulls a
 * conversation whose entry is leased by a scheduler (future score) back to
 * "due now", so the scheduler's release keeps it and the message gets a turn.
 */
export const RECORD_MESSAGES_LUA = `
local ttl = tonumber(ARGV[1])
local now = ARGV[2]
local prefix = ARGV[3]
local results = {}
local i = 0
for a = 4, #ARGV, 4 do
  i = i + 1
  local wamid, ts, conversation, json = ARGV[a], ARGV[a + 1], ARGV[a + 2], ARGV[a + 3]
  local tenant = string.match(conversation, "^[^:]*")
  local markKey = prefix .. ":wamid:" .. tenant .. ":" .. wamid
  local inboxKey = prefix .. ":inbox:" .. conversation
  local messagesKey = prefix .. ":msg:" .. conversation
  local mark = redis.call("GET", markKey)
  if mark == "d" then
    results[i] = 0
  else
    if mark then
      results[i] = 2
    else
      redis.call("SET", markKey, "p", "EX", ttl)
      results[i] = 1
    end
    if redis.call("HSETNX", messagesKey, wamid, json) == 1 then
      local seq = redis.call("HINCRBY", KEYS[1], "seq", 1)
      local score = string.format("%.0f", tonumber(ts) * 1000000 + (seq % 1000000))
      redis.call("ZADD", inboxKey, score, wamid)
      redis.call("HINCRBY", KEYS[1], "inbox", 1)
      redis.call("ZADD", KEYS[2], "NX", now, conversation)
    end
    redis.call("ZADD", KEYS[3], "LT", now, conversation)
  end
end
return results
`;

/**
 * completeMessages — removes handled messages from a conversation inbox and
 * marks their ids handled (keeping the mark's expiry).
 *
 * KEYS[1]      stats hash
 * KEYS[2]      inboxes zset
 * KEYS[3]      inbox zset of the conversation
 * KEYS[4]      message hash of the conversation
 * KEYS[5..]    mark key per wamid
 * ARGV[1]      conversation key
 * ARGV[2]      mark TTL, seconds (for a mark that already expired)
 * ARGV[3..]    wamids, in the order of KEYS[5..]
 * Returns      number of messages removed from the inbox
 */
export const COMPLETE_MESSAGES_LUA = `
local removed = 0
for i = 3, #ARGV do
  local wamid = ARGV[i]
  if redis.call("ZREM", KEYS[3], wamid) == 1 then removed = removed + 1 end
  redis.call("HDEL", KEYS[4], wamid)
  if redis.call("SET", KEYS[i + 2], "d", "XX", "KEEPTTL") == false then
    redis.call("SET", KEYS[i + 2], "d", "EX", tonumber(ARGV[2]))
  end
end
if removed > 0 then redis.call("HINCRBY", KEYS[1], "inbox", -removed) end
if redis.call("ZCARD", KEYS[3]) == 0 then redis.call("ZREM", KEYS[2], ARGV[1]) end
return removed
`;

/**
 * claimDueTurns — leases due conversations to one scheduler.
 *
 * KEYS[1]   ready zset
 * ARGV[1]   now, Unix ms
 * ARGV[2]   lease, ms
 * ARGV[3]   most conversations to claim
 * Returns   { lease score, conversation keys… }
 */
export const CLAIM_DUE_TURNS_LUA = `
local due = redis.call("ZRANGEBYSCORE", KEYS[1], "-inf", ARGV[1], "LIMIT", 0, tonumber(ARGV[3]))
local lease = tostring(tonumber(ARGV[1]) + tonumber(ARGV[2]))
for _, conversation in ipairs(due) do
  redis.call("ZADD", KEYS[1], "XX", lease, conversation)
end
table.insert(due, 1, lease)
return due
`;

/**
 * releaseTurns — drops ready entries whose turn job now exists, unless a new
 * message made them due again while they were leased.
 *
 * KEYS[1]   ready zset
 * ARGV[1]   lease score returned by claimDueTurns
 * ARGV[2..] conversation keys
 * Returns   number released
 */
export const RELEASE_TURNS_LUA = `
local released = 0
for i = 2, #ARGV do
  local score = redis.call("ZSCORE", KEYS[1], ARGV[i])
  if score and tonumber(score) == tonumber(ARGV[1]) then
    redis.call("ZREM", KEYS[1], ARGV[i])
    released = released + 1
  end
end
return released
`;
