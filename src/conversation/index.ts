export { coalesceUntil, coalescingOn, isStale } from "./coalesce.js";
export {
  type ConversationLock,
  createRedisConversationLock,
  type RedisConversationLockOptions,
} from "./conversation-lock.js";
export {
  type ConversationMode,
  type ConversationStateStore,
  createRedisConversationState,
  type HistoryEntry,
  type RedisConversationStateOptions,
} from "./conversation-state.js";
export { DEFAULT_RESPONDER_SETTINGS } from "./default-responder-settings.js";
export {
  conversationErrorCatalog,
  ResponderSettingsError,
  UnknownTenantError,
} from "./errors.js";
export {
  createFirstResponder,
  type FirstResponderOptions,
  MAX_CLASSIFIED_CHARS,
  normalizeForRules,
  type RouteResult,
  type RouteTier,
  routeAndCount,
  routeTurn,
  staleTurnDecision,
  turnDecisionOf,
} from "./first-responder.js";
export { createLocalConversationLock, type LocalConversationLockOptions } from "./local-conversation-lock.js";
export {
  type AgentTurnUsage,
  type ReplyButton,
  type Responder,
  ResponderBusyError,
  type TurnDecision,
  type TurnDecisionHook,
  type TurnInput,
  type TurnReply,
  type TypingIndicator,
} from "./ports.js";
export {
  createTurnProcessor,
  type HandledTurn,
  type TurnOutcome,
  type TurnProcessor,
  type TurnProcessorDeps,
  type TurnProcessorOptions,
} from "./process-turn.js";
export { replyBody } from "./reply-body.js";
export { type ResponderSettings, resolveResponderSettings } from "./responder-settings.js";
export {
  createSqliteConversationState,
  type SqliteConversationStateOptions,
  type SqliteConversationStateStore,
} from "./sqlite-conversation-state.js";
export { turnIdFor } from "./turn-id.js";
export {
  createTurnJobHandler,
  type TurnHandlerDeps,
  type TurnHandlerOptions,
} from "./turn-job-handler.js";
export { createTurnMetrics, type TurnMetrics } from "./turn-metrics.js";
export {
  createTurnWorker,
  type TurnWorker,
  type TurnWorkerDeps,
  type TurnWorkerOptions,
} from "./turn-worker.js";
export {
  createGraphTypingIndicator,
  createTypingIndicatorCounter,
  type GraphTypingIndicatorDeps,
  type GraphTypingIndicatorOptions,
  type TypingOutcome,
  typingIndicatorOn,
} from "./typing-indicator.js";
