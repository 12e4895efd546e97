import type { RedisClient } from "../../queue/redis/index.js";
import type { AgentStores } from "../ports.js";
import { createRedisPendingActions } from "./redis-pending-actions.js";
import { createRedisTenantSlots } from "./redis-tenant-slots.js";
import { createRedisTokenBudget } from "./redis-token-budget.js";

/** The agent's stores on Redis, shared by every worker process; slot leases last `leaseMs`. */
export function createRedisAgentStores(redis: RedisClient, prefix: string, leaseMs: number): AgentStores {
  return {
    slots: createRedisTenantSlots(redis, prefix, leaseMs),
    pending: createRedisPendingActions(redis, prefix),
    budget: createRedisTokenBudget(redis, prefix),
  };
}
