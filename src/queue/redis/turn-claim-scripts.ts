import { SERVER_NOW_MS } from "./lua-clock.js";

/**
 * Lua of the turn claims: how a conversation with waiting messages moves
 * between three sorted sets until a worker has answered it (see keys.ts):
 *
 *   ready    claimable now, ordered by rank (priority, then arrival)
 *   delayed  claimable at its score (a coalescing window, a busy retry, a failure's backoff)
 *   leased   claimed by a worker until its score (renewed while the turn runs)
 *
 * A conversation is in at most one of them. The record script puts a
 * conversation that is in none into `ready`; a worker's claim moves it to
 * `leased`; settling moves it back to `ready` (messages left), to `delayed`
 * (a retry), or out. A lease that expires (its worker died) goes back to
 * `ready` at the next claim. Every step is one script, so no crash leaves a
 * conversation in two sets or in none while it has messages (the sweep mends
 * a set lost with a failover).
 */

/**
 * turnRank(prefix, conversation, now, fairnessMs, counted) — the ready set's
 * score: priority × 2³² + a global arrival counter, so lower runs first and
 * equal priorities run in arrival order. Priority 1: a human has the
 * conversation or it is in checkout/payment (`priorityUntil` in the future,
 * from the conversation state hash). Otherwise 2 + the turns its tenant was
 * given in this fairness window and the one before, so a tenant flooding
 * thousands of turns queues behind a quiet tenant's few. `counted` adds this
 * turn to its tenant's load (a new turn); a turn made ready again does not.
 */
export const TURN_RANK = `
local function turnRank(prefix, conversation, now, fairnessMs, counted)
  local priority = 1
  local state = redis.call("HMGET", prefix .. ":state:" .. conversation, "mode", "priorityUntil")
  local priorityUntil = tonumber(state[2] or "0") or 0
  if state[1] ~= "human" and priorityUntil <= now then
    local tenant = string.match(conversation, "^[^:]*")
    local window = math.floor(now / fairnessMs)
    local loadKey = prefix .. ":turnload:" .. tenant .. ":" .. string.format("%.0f", window)
    local current
    if counted then
      current = redis.call("INCR", loadKey)
      if current == 1 then redis.call("PEXPIRE", loadKey, 2 * fairnessMs) end
    else
      current = tonumber(redis.call("GET", loadKey) or "0")
    end
    local previous = tonumber(redis.call("GET", prefix .. ":turnload:" .. tenant .. ":" .. string.format("%.0f", window - 1)) or "0")
    priority = math.min(2 + current + previous, 1048575)
  end
  local seq = redis.call("HINCRBY", prefix .. ":stats", "turnseq", 1) % 4294967296
  return string.format("%.0f", priority * 4294967296 + seq)
end
`;

/**
 * claimTurns — leases up to `want` conversations to one worker, best rank first.
 *
 * KEYS[1]   ready zset    KEYS[2] delayed zset    KEYS[3] leased zset    KEYS[4] lease owner hash
 * ARGV[1]   lease, ms
 * ARGV[2]   most conversations to claim
 * ARGV[3]   lease token (unique per claim call; the worker renews and settles with it)
 * ARGV[4]   key prefix
 * ARGV[5]   fairness window, ms
 * Returns   { ms until the next delayed turn or lease expiry (-1: none), conversation keys… }
 *
 * First makes ready what has come due: delayed turns whose time came, and
 * leases that expired (their worker died or lost Redis: the turn is taken over).
 */
export const CLAIM_TURNS_LUA = `${SERVER_NOW_MS}${TURN_RANK}
local prefix, fairnessMs = ARGV[4], tonumber(ARGV[5])
for _, conversation in ipairs(redis.call("ZRANGEBYSCORE", KEYS[2], "-inf", now, "LIMIT", 0, 200)) do
  redis.call("ZREM", KEYS[2], conversation)
  redis.call("ZADD", KEYS[1], turnRank(prefix, conversation, now, fairnessMs, false), conversation)
end
for _, conversation in ipairs(redis.call("ZRANGEBYSCORE", KEYS[3], "-inf", now, "LIMIT", 0, 200)) do
  redis.call("ZREM", KEYS[3], conversation)
  redis.call("HDEL", KEYS[4], conversation)
  redis.call("ZADD", KEYS[1], turnRank(prefix, conversation, now, fairnessMs, false), conversation)
end
local claimed = redis.call("ZPOPMIN", KEYS[1], tonumber(ARGV[2]))
local result = { -1 }
local leaseUntil = string.format("%.0f", now + tonumber(ARGV[1]))
for i = 1, #claimed, 2 do
  local conversation = claimed[i]
  redis.call("ZADD", KEYS[3], leaseUntil, conversation)
  redis.call("HSET", KEYS[4], conversation, ARGV[3])
  result[#result + 1] = conversation
end
local nextAt = nil
local delayed = redis.call("ZRANGE", KEYS[2], 0, 0, "WITHSCORES")
if delayed[2] then nextAt = tonumber(delayed[2]) end
local leased = redis.call("ZRANGE", KEYS[3], 0, 0, "WITHSCORES")
if leased[2] and (nextAt == nil or tonumber(leased[2]) < nextAt) then nextAt = tonumber(leased[2]) end
if nextAt then result[1] = math.max(0, nextAt - now) end
return result
`;

/**
 * renewTurnLease — extends a worker's lease while its turn runs.
 *
 * KEYS[1] leased zset   KEYS[2] lease owner hash
 * ARGV[1] conversation  ARGV[2] token  ARGV[3] lease, ms
 * Returns 1 renewed, 0 the lease is no longer this worker's
 */
export const RENEW_TURN_LEASE_LUA = `${SERVER_NOW_MS}
if redis.call("HGET", KEYS[2], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call("ZADD", KEYS[1], "XX", string.format("%.0f", now + tonumber(ARGV[3])), ARGV[1])
return 1
`;

/**
 * settleTurn — ends a worker's lease with how the run ended.
 *
 * KEYS[1] ready  KEYS[2] delayed  KEYS[3] leased  KEYS[4] lease owner hash  KEYS[5] failures hash
 * KEYS[6] the conversation's inbox zset
 * ARGV[1] conversation  ARGV[2] token  ARGV[3] key prefix  ARGV[4] fairness window, ms
 * ARGV[5] outcome: "done" | "retry" (ARGV[6]: at, ms since the epoch; no attempt spent)
 *         | "failed" (ARGV[6]: first backoff ms, doubled per failure in a row, ARGV[7]: the most)
 * Returns { 1 settled | 0 the lease was no longer ours, failures in a row, turns in the ready set after it }
 *
 * Done: messages still waiting (they arrived during the turn, or more than
 * one turn's worth) make the conversation ready again at once. The ready
 * set's size tells the worker whether to claim again now or wait for a wake-up.
 */
export const SETTLE_TURN_LUA = `${SERVER_NOW_MS}${TURN_RANK}
local conversation = ARGV[1]
if redis.call("HGET", KEYS[4], conversation) ~= ARGV[2] then return { 0, 0, redis.call("ZCARD", KEYS[1]) } end
redis.call("HDEL", KEYS[4], conversation)
redis.call("ZREM", KEYS[3], conversation)
local outcome = ARGV[5]
if outcome == "retry" then
  redis.call("ZADD", KEYS[2], ARGV[6], conversation)
  return { 1, 0, redis.call("ZCARD", KEYS[1]) }
end
if outcome == "failed" then
  local failures = redis.call("HINCRBY", KEYS[5], conversation, 1)
  local wait = math.min(tonumber(ARGV[6]) * 2 ^ math.min(failures - 1, 30), tonumber(ARGV[7]))
  redis.call("ZADD", KEYS[2], string.format("%.0f", now + wait), conversation)
  return { 1, failures, redis.call("ZCARD", KEYS[1]) }
end
redis.call("HDEL", KEYS[5], conversation)
if redis.call("ZCARD", KEYS[6]) > 0 then
  redis.call("ZADD", KEYS[1], turnRank(ARGV[3], conversation, now, tonumber(ARGV[4]), false), conversation)
end
return { 1, 0, redis.call("ZCARD", KEYS[1]) }
`;

/**
 * sweepWaitingInboxes — makes ready the conversations whose messages have
 * waited longer than a threshold while the conversation is in none of the
 * three sets (lost with a Redis failover, or a turn given up for good).
 *
 * KEYS[1] inboxes zset (conversation → first arrival ms)
 * KEYS[2] ready  KEYS[3] delayed  KEYS[4] leased
 * ARGV[1] waited at least, ms  ARGV[2] most conversations per call  ARGV[3] key prefix  ARGV[4] fairness window, ms
 * Returns number made ready
 */
export const SWEEP_WAITING_INBOXES_LUA = `${SERVER_NOW_MS}${TURN_RANK}
local waiting = redis.call("ZRANGEBYSCORE", KEYS[1], "-inf", string.format("%.0f", now - tonumber(ARGV[1])),
  "LIMIT", 0, tonumber(ARGV[2]))
local made = 0
for _, conversation in ipairs(waiting) do
  if not redis.call("ZSCORE", KEYS[2], conversation) and not redis.call("ZSCORE", KEYS[3], conversation)
    and not redis.call("ZSCORE", KEYS[4], conversation) then
    redis.call("ZADD", KEYS[2], turnRank(ARGV[3], conversation, now, tonumber(ARGV[4]), false), conversation)
    made = made + 1
  end
end
return made
`;
