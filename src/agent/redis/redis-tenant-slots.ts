import { randomUUID } from "node:crypto";
import { defineScript, type RedisClient } from "../../queue/redis/index.js";
import type { TenantSlots } from "../ports.js";

/**
 * acquireTenantSlot: a sorted set of holders scored by lease expiry (Redis
 * clock); expired holders (a worker that died) are dropped first.
 *
 * KEYS[1] the tenant's slot set; ARGV[1] limit, ARGV[2] lease ms, ARGV[3] token
 * Returns 1 acquired, 0 full
 */
const ACQUIRE_LUA = `
local t = redis.call("TIME")
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call("ZREMRANGEBYSCORE", KEYS[1], "-inf", now)
if redis.call("ZCARD", KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call("ZADD", KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call("PEXPIRE", KEYS[1], tonumber(ARGV[2]))
return 1
`;

/**
 * extendTenantSlot: pushes a live holder's lease expiry out (an expired one stays gone).
 *
 * KEYS[1] the tenant's slot set; ARGV[1] lease ms, ARGV[2] token
 * Returns 1 renewed, 0 not held
 */
const EXTEND_LUA = `
local t = redis.call("TIME")
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local score = redis.call("ZSCORE", KEYS[1], ARGV[2])
if not score or tonumber(score) <= now then return 0 end
redis.call("ZADD", KEYS[1], now + tonumber(ARGV[1]), ARGV[2])
redis.call("PEXPIRE", KEYS[1], tonumber(ARGV[1]))
return 1
`;

export function createRedisTenantSlots(redis: RedisClient, prefix: string, leaseMs: number): TenantSlots {
  const key = (tenantId: string) => `${prefix}:agentslots:${tenantId}`;
  const acquireSlot = defineScript(redis, "ssAcquireTenantSlot", ACQUIRE_LUA);
  const extendSlot = defineScript(redis, "ssExtendTenantSlot", EXTEND_LUA);
  return {
    leaseMs,
    async acquire(tenantId, limit) {
      const token = randomUUID();
      const acquired = await acquireSlot(1, key(tenantId), limit, leaseMs, token);
      return acquired === 1 ? token : undefined;
    },
    async extend(tenantId, token) {
      await extendSlot(1, key(tenantId), leaseMs, token);
    },
    async release(tenantId, token) {
      await redis.zrem(key(tenantId), token);
    },
  };
}
