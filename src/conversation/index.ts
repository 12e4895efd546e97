export { coalesceUntil, coalescingOn, isStale } from "./coalesce.js";
export {
  conversationErrorCatalog,
  ResponderSettingsError,
  TurnJournalError,
  UnknownTenantError,
} from "./errors.js";
export { keepLeaseAlive } from "./lease-renewal.js";
export {
  type AgentToolCall,
  type AgentTurnUsage,
  type ConversationLock,
  type ConversationMode,
  type ConversationStateStore,
  type HistoryEntry,
  type JournaledTurn,
  type ReplyButton,
  type ReplyMedia,
  type Responder,
  ResponderBusyError,
  type ResumedTurn,
  type SetAsideTurn,
  type StepOptions,
  type TurnDecision,
  type TurnDecisionHook,
  type TurnImage,
  type TurnInput,
  type TurnJournal,
  type TurnMediaRead,
  type TurnMediaReader,
  type TurnMediaReadings,
  type TurnReply,
  type TurnSteps,
  type TypingIndicator,
} from "./ports.js";
export {
  createTurnProcessor,
  type HandledTurn,
  MEDIA_NOTICE_ENTRY,
  type TurnOutcome,
  type TurnProcessor,
  type TurnProcessorDeps,
  type TurnProcessorOptions,
} from "./process-turn.js";
export { replyBody } from "./reply-body.js";
export { turnIdFor } from "./turn-id.js";
export {
  createTurnJobHandler,
  type TurnHandlerDeps,
  type TurnHandlerOptions,
} from "./turn-job-handler.js";
export { createTurnMetrics, type TurnMetrics } from "./turn-metrics.js";
export { journaledSteps, unjournaledSteps } from "./turn-steps.js";
export {
  createGraphTypingIndicator,
  createTypingIndicatorCounter,
  type GraphTypingIndicatorDeps,
  type GraphTypingIndicatorOptions,
  type TypingOutcome,
  typingIndicatorOn,
} from "./typing-indicator.js";
export { answerableAfterReading, withReadings } from "./with-readings.js";
