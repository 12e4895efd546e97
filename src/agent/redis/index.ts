export { createRedisAgentStores } from "./redis-agent-stores.js";
export { createRedisPendingActions } from "./redis-pending-actions.js";
export { createRedisTenantSlots } from "./redis-tenant-slots.js";
export { createRedisTokenBudget } from "./redis-token-budget.js";
