/**
 * Applies one delivery status to a message's hash, only if it moves the
 * message forward. One atomic step, so concurrent workers and duplicates
 * cannot move a state backwards.
 *
 * KEYS[1]  the message's delivery hash
 * ARGV[1]  status (sent, delivered, read, played, deleted, failed)
 * ARGV[2]  its rank (failed = 0, sent = 1, delivered = 2, read = 3, played = 4, deleted = 5)
 * ARGV[3]  Meta's timestamp, Unix seconds
 * ARGV[4]  recipient ('' = unknown)
 * ARGV[5]  error code ('' = none)
 * ARGV[6]  error title
 * ARGV[7]  TTL of the hash, seconds
 * ARGV[8]  the rank from which a message counts as seen (read): failed cannot replace it
 *
 * Returns 1 applied, 0 stale (ignored).
 *
 * Rules, on rank and Meta's timestamp, never arrival order:
 *   - nothing recorded yet: apply;
 *   - current failed: stale (failed is final);
 *   - new failed: apply over sent/delivered whose timestamp is not later than its own;
 *   - otherwise apply only a higher rank (a late delivered never overwrites read).
 * Each applied status also leaves `at:<status>` (its timestamp), so the history is kept.
 */
export const APPLY_STATUS_LUA = `
local current = redis.call('HMGET', KEYS[1], 'rank', 'statusAt')
local rank = tonumber(ARGV[2])
local ts = tonumber(ARGV[3])
if current[1] then
  local currentRank = tonumber(current[1])
  local currentTs = tonumber(current[2]) or 0
  if currentRank == 0 then return 0 end
  if rank == 0 then
    if currentRank >= tonumber(ARGV[8]) or ts < currentTs then return 0 end
  elseif rank <= currentRank then
    return 0
  end
end
redis.call('HSET', KEYS[1], 'status', ARGV[1], 'rank', ARGV[2], 'statusAt', ARGV[3], 'at:' .. ARGV[1], ARGV[3])
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'recipient', ARGV[4]) end
if ARGV[5] ~= '' then redis.call('HSET', KEYS[1], 'errorCode', ARGV[5], 'errorTitle', ARGV[6]) end
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[7]))
return 1
`;
