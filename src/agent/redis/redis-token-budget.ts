import type { RedisClient } from "../../queue/redis/index.js";
import type { TokenBudget } from "../ports.js";

function today(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

/** `{p}:tokens:{tenant}:{YYYY-MM-DD}`, INCRBY, kept two days. */
export function createRedisTokenBudget(
  redis: RedisClient,
  prefix: string,
  now: () => number = Date.now,
): TokenBudget {
  const key = (tenantId: string) => `${prefix}:tokens:${tenantId}:${today(now())}`;
  return {
    async spentToday(tenantId) {
      return Number((await redis.get(key(tenantId))) ?? 0);
    },
    async record(tenantId, tokens) {
      if (tokens <= 0) return;
      await redis
        .multi()
        .incrby(key(tenantId), Math.round(tokens))
        .expire(key(tenantId), 2 * 86_400)
        .exec();
    },
  };
}
