import { SERVER_NOW_MS } from "./lua-clock.js";
import { TURN_RANK } from "./turn-claim-scripts.js";

/**
 * Lua scripts of the inbound side. Each is one atomic step, so a crash or a
 * dropped connection leaves a message either fully recorded or not at all.
 */

/**
 * recordMessages — dedupe mark, payload, inbox entry and a claimable turn for a group of messages.
 *
 * KEYS[1]            stats hash
 * KEYS[2]            inboxes zset
 * KEYS[3..5]         the turn sets: ready, delayed, leased (see turn-claim-scripts.ts)
 * ARGV[1]            mark TTL, seconds
 * ARGV[2]            key prefix; per-message keys are derived from it (fewer bytes per message)
 * ARGV[3]            fairness window, ms (the ready set's rank)
 * ARGV[4+4(i-1)..]   per message i: wamid, Meta timestamp (s, ≤ 10 digits), conversation key, message JSON
 * Returns            one integer per message: 1 new, 2 recorded earlier but not handled
 *                    (put back in the inbox if missing, its turn made claimable again), 0 handled already
 *
 * Keys derived: {p}:wamid:{tenant}:{wamid}, {p}:inbox:{conversation},
 * {p}:msg:{conversation} (see keys.ts); tenant is the conversation key's first
 * part. The message hash also holds "~seq", the conversation's arrival
 * counter (reset when its inbox empties), which breaks ties between messages
 * of the same second. A conversation in none of the turn sets goes into the
 * ready set, so a worker can claim it as soon as this script returns: one
 * round trip records the message and schedules its turn. One already
 * delayed or leased stays so (its worker makes it ready again when it
 * settles, finding the new message). When the ready set was empty, idle
 * workers are woken on the {p}:turns:wake channel.
 */
export const RECORD_MESSAGES_LUA = `${SERVER_NOW_MS}${TURN_RANK}
local ttl = tonumber(ARGV[1])
local prefix = ARGV[2]
local fairnessMs = tonumber(ARGV[3])
local nowText = string.format("%.0f", now)
local wake = redis.call("ZCARD", KEYS[3]) == 0
local madeReady = false
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
      local seq = math.min(redis.call("HINCRBY", messagesKey, "~seq", 1), 999999)
      redis.call("ZADD", inboxKey, string.format("%.0f", tonumber(ts) * 1000000 + seq), wamid)
      redis.call("HINCRBY", KEYS[1], "inbox", 1)
      redis.call("ZADD", KEYS[2], "NX", nowText, conversation)
    end
    if not redis.call("ZSCORE", KEYS[3], conversation) and not redis.call("ZSCORE", KEYS[4], conversation)
      and not redis.call("ZSCORE", KEYS[5], conversation) then
      redis.call("ZADD", KEYS[3], turnRank(prefix, conversation, now, fairnessMs, true), conversation)
      madeReady = true
    end
  end
end
if wake and madeReady then redis.call("PUBLISH", prefix .. ":turns:wake", "1") end
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
