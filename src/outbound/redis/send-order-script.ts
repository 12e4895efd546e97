/**
 * The send order of one conversation, kept in one hash (KEYS[1]) with fields:
 *
 *   last        the last sequence number given out (0 before the first)
 *   next        the cursor: the lowest sequence not yet finished (1 before the first)
 *   s:{jobId}   the sequence given to a job id, until that sequence finishes
 *   j:{seq}     the job id of a sequence, until the cursor passes it
 *   d:{seq}     present: the sequence finished (sent or given up) ahead of the cursor
 *
 * Each script is one atomic step and refreshes the hash's expiry.
 */

/**
 * assignSendOrder — gives each job id the next sequence number, or the one
 * it already holds (a re-enqueued turn keeps its place).
 *
 * KEYS[1]   order hash of the conversation
 * ARGV[1]   expiry of the hash, seconds
 * ARGV[2…]  job ids, in send order
 * Returns   the sequence number of each job id, in the same order
 */
export const ASSIGN_SEND_ORDER_LUA = `
local seqs = {}
for i = 2, #ARGV do
  local jobId = ARGV[i]
  local seq = tonumber(redis.call("HGET", KEYS[1], "s:" .. jobId))
  if seq == nil then
    seq = redis.call("HINCRBY", KEYS[1], "last", 1)
    redis.call("HSET", KEYS[1], "s:" .. jobId, seq, "j:" .. seq, jobId)
  end
  seqs[#seqs + 1] = seq
end
redis.call("EXPIRE", KEYS[1], ARGV[1])
return seqs
`;

/**
 * peekSendOrder — where the conversation's cursor stands.
 *
 * KEYS[1]   order hash of the conversation
 * Returns   { cursor, job id of the cursor's sequence or "" }
 */
export const PEEK_SEND_ORDER_LUA = `
local cursor = tonumber(redis.call("HGET", KEYS[1], "next") or "1")
return { cursor, redis.call("HGET", KEYS[1], "j:" .. cursor) or "" }
`;

/**
 * finishSendOrder — marks a sequence finished (sent or given up) and moves
 * the cursor past every finished sequence. Finishing twice changes nothing.
 *
 * KEYS[1]   order hash of the conversation
 * ARGV[1]   the finished sequence number
 * ARGV[2]   expiry of the hash, seconds
 * Returns   { cursor, job id of the cursor's sequence or "" } after the step
 */
export const FINISH_SEND_ORDER_LUA = `
local seq = tonumber(ARGV[1])
local cursor = tonumber(redis.call("HGET", KEYS[1], "next") or "1")
if seq >= cursor then redis.call("HSET", KEYS[1], "d:" .. seq, 1) end
while redis.call("HEXISTS", KEYS[1], "d:" .. cursor) == 1 do
  local jobId = redis.call("HGET", KEYS[1], "j:" .. cursor)
  if jobId and tonumber(redis.call("HGET", KEYS[1], "s:" .. jobId)) == cursor then
    redis.call("HDEL", KEYS[1], "s:" .. jobId)
  end
  redis.call("HDEL", KEYS[1], "d:" .. cursor, "j:" .. cursor)
  cursor = cursor + 1
end
redis.call("HSET", KEYS[1], "next", cursor)
redis.call("EXPIRE", KEYS[1], ARGV[2])
return { cursor, redis.call("HGET", KEYS[1], "j:" .. cursor) or "" }
`;
