import { defineScript, type RedisClient } from "../../queue/redis/index.js";
import type { TokenBudget } from "../ports.js";

function today(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

/**
 * addTokens — adds to a day's count and keeps it two days.
 *
 * KEYS[1]   the day's counter    ARGV[1] tokens    ARGV[2] TTL, seconds
 */
const ADD_TOKENS_LUA = `
redis.call("INCRBY", KEYS[1], ARGV[1])
redis.call("EXPIRE", KEYS[1], ARGV[2])
return 1
`;

/** `{p}:tokens:{tenant}:{YYYY-MM-DD}`, INCRBY, kept two days. */
export function createRedisTokenBudget(
  redis: RedisClient,
  prefix: string,
  now: () => number = Date.now,
): TokenBudget {
  const key = (tenantId: string) => `${prefix}:tokens:${tenantId}:${today(now())}`;
  const addTokens = defineScript(redis, "ssAddTokens", ADD_TOKENS_LUA);
  return {
    async spentToday(tenantId) {
      return Number((await redis.get(key(tenantId))) ?? 0);
    },
    async record(tenantId, tokens) {
      if (tokens <= 0) return;
      await addTokens(1, key(tenantId), Math.round(tokens), 2 * 86_400);
    },
  };
}
