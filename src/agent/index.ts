export { type AgentMetrics, createAgentMetrics } from "./agent-metrics.js";
export { type AgentResponderDeps, createAgentResponder } from "./agent-responder.js";
export {
  AGENT_DEFAULTS,
  type AgentSettings,
  AgentSettingsError,
  resolveAgentSettings,
} from "./agent-settings.js";
export {
  type AgentOutcome,
  type AgentTurnDeps,
  type AgentTurnInput,
  type AgentTurnResult,
  HANDOFF_TOOL,
  KNOWLEDGE_TOOL,
  runAgentTurn,
  type Toolbox,
} from "./agent-turn.js";
export { agentErrorCatalog } from "./errors.js";
export {
  type AgentStores,
  createGatewayResponder,
  createRedisAgentStores,
  type GatewayResponderDeps,
  llmFromConfig,
} from "./gateway-responder.js";
export { createKnowledgeBase, type KnowledgeBase, type KnowledgeEntry } from "./knowledge.js";
export {
  type ChatMessage,
  type LlmClient,
  type LlmCompletion,
  LlmError,
  type LlmRequest,
  type LlmUsage,
  type ToolCall,
  type ToolSpec,
} from "./llm-port.js";
export { createLocalTenantSlots } from "./local-tenant-slots.js";
export { createOpenAiChatClient, type OpenAiChatClientOptions, withFallback } from "./openai-chat-client.js";
export {
  CANCEL_PREFIX,
  type ClaimResult,
  CONFIRM_PREFIX,
  createRedisPendingActions,
  type PendingAction,
  type PendingActionStore,
} from "./pending-actions.js";
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
export { createRedisTenantSlots, type TenantSlots } from "./tenant-slots.js";
export { createRedisTokenBudget, type TokenBudget } from "./token-budget.js";
export { createTenantToolbox } from "./toolbox.js";
