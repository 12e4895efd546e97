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
export { CANCEL_PREFIX, CONFIRM_PREFIX } from "./confirm-ids.js";
export { agentErrorCatalog } from "./errors.js";
export {
  createGatewayResponder,
  type GatewayResponderDeps,
  llmFromConfig,
} from "./gateway-responder.js";
export { createKnowledgeBase, type KnowledgeBase, type KnowledgeEntry } from "./knowledge.js";
export { createOpenAiChatClient, type OpenAiChatClientOptions, withFallback } from "./openai-chat-client.js";
export {
  type AgentStores,
  type ChatContentPart,
  type ChatMessage,
  type ClaimResult,
  type LlmClient,
  type LlmCompletion,
  LlmError,
  type LlmRequest,
  type LlmUsage,
  type PendingAction,
  type PendingActionStore,
  type ResponseFormat,
  type TenantSlots,
  type TokenBudget,
  type ToolCall,
  type ToolSpec,
} from "./ports.js";
export { createTenantToolbox, type ToolboxDeps } from "./toolbox.js";
