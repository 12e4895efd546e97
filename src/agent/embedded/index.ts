export { createLocalTenantSlots } from "./local-tenant-slots.js";
export {
  createSqlitePendingActions,
  type SqlitePendingActionStore,
  type SqlitePendingActionsOptions,
} from "./sqlite-pending-actions.js";
export {
  createSqliteTokenBudget,
  type SqliteTokenBudget,
  type SqliteTokenBudgetOptions,
} from "./sqlite-token-budget.js";
