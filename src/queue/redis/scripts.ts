/**
 * Lua scripts of the inbound side. Each is one atomic step, so a crash or a
 * dropped connection leaves a message either fully recorded or not at all.
 */

/**
 * Redis server time in ms. Every due time and lease below is on this one
 * clock, so clock skew between ingress and scheduler hosts cannot strand a turn.
 */
const SERVER_NOW_MS = `
local clock = redis.call("TIME")
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
`;

/**
 * recordMessages — dedupe mark, payload, inbox entry and due turn for a group of messages.
 *
 * KEYS[1]            stats hash
 * KEYS[2]            inboxes zset
 * KEYS[3]            ready zset (conversations whose turn is due)
 * ARGV[1]            mark TTL, seconds
 * ARGV[2]            key prefix; per-message keys are derived from it (fewer bytes per message)
 * ARGV[3+4(i-1)..]   per message i: wamid, Meta timestamp (s, ≤ 10 digits), conversation key, message JSON
 * Returns            one integer per message: 1 new, 2 recorded earlier but not handled
 *                    (put back in the inbox if missing, turn due again), 0 handled already
 *
 * Keys derived: {p}:wamid:{tenant}:{wamid}, {p}:inbox:{conversation},
 * {p}:msg:{conversation} (see keys.ts); tenant is the conversation key's first
 * part. The message hash also holds "~seq", the conversation's arrival
 * counter (reset when its inbox empties), which breaks ties between messages
 * of the same second. A conversation that is absent from the ready set, or
 * leased by a scheduler (a score ending in .5), becomes due now, so a
 * scheduler's release keeps it and the message gets a turn.
 */
export const RECORD_MESSAGES_LUA = `${SERVER_NOW_MS}
local ttl = tonumber(ARGV[1])
local prefix = ARGV[2]
local nowText = string.format("%.0f", now)
local results = {}
local i = 0
for a = 3, #ARGV, 4 do
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
      local seq = math.min(redis.call("HINCRBY", messagesKey, "~seq", 1), 999999)
      redis.call("ZADD", inboxKey, string.format("%.0f", tonumber(ts) * 1000000 + seq), wamid)
      redis.call("HINCRBY", KEYS[1], "inbox", 1)
      redis.call("ZADD", KEYS[2], "NX", nowText, conversation)
    end
    local due = redis.call("ZSCORE", KEYS[3], conversation)
    if (not due) or (tonumber(due) % 1 ~= 0) or (tonumber(due) > now) then
      redis.call("ZADD", KEYS[3], nowText, conversation)
    end
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
 * KEYS[4]      message hash of the conversation (deleted with its arrival counter once empty)
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
if redis.call("ZCARD", KEYS[3]) == 0 then
  redis.call("ZREM", KEYS[2], ARGV[1])
  redis.call("DEL", KEYS[4])
end
return removed
`;

/**
 * claimDueTurns — leases due conversations to one scheduler.
 *
 * KEYS[1]   ready zset
 * ARGV[1]   lease, ms
 * ARGV[2]   most conversations to claim
 * Returns   { lease score, conversation keys… }; a lease score always ends in .5,
 *           which tells a leased entry from a due time
 */
export const CLAIM_DUE_TURNS_LUA = `${SERVER_NOW_MS}
local due = redis.call("ZRANGEBYSCORE", KEYS[1], "-inf", string.format("%.1f", now), "LIMIT", 0, tonumber(ARGV[2]))
local lease = string.format("%.1f", now + tonumber(ARGV[1]) + 0.5)
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

/**
 * sweepWaitingInboxes — makes the turn due again for conversations whose
 * messages have waited longer than a threshold with no ready entry (a turn
 * job that failed for good, or was lost with a Redis failover). Turn jobs are
 * deduplicated per conversation, so a conversation whose turn is merely slow
 * gets at most one more waiting turn.
 *
 * KEYS[1]   inboxes zset (conversation → first arrival ms)
 * KEYS[2]   ready zset
 * ARGV[1]   waited at least, ms
 * ARGV[2]   most conversations per call
 * Returns   number made due
 */
export const SWEEP_WAITING_INBOXES_LUA = `${SERVER_NOW_MS}
local waiting = redis.call("ZRANGEBYSCORE", KEYS[1], "-inf", string.format("%.0f", now - tonumber(ARGV[1])),
  "LIMIT", 0, tonumber(ARGV[2]))
local made = 0
for _, conversation in ipairs(waiting) do
  if redis.call("ZADD", KEYS[2], "NX", string.format("%.0f", now), conversation) == 1 then made = made + 1 end
end
return made
`;
