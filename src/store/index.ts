export {
  StoreInvalidPageError,
  StoreSchemaTooNewError,
  StoreUnknownConversationError,
  storeErrorCatalog,
} from "./errors.js";
export { MAX_PAGE } from "./keyset-cursor.js";
export type { MigrateResult, Migration } from "./migration.js";
export type {
  AgentUsageRecord,
  ConversationState,
  ConversationSummary,
  DeliveryInfo,
  DeliveryUpdateOutcome,
  InboundRecord,
  MessageStore,
  OutboundRecord,
  Page,
  PageOptions,
  PurgeCounts,
  RecordOutcome,
  RouterDecisionRecord,
  StoredConversationMode,
  StoredMessage,
  TurnRecord,
} from "./ports.js";
