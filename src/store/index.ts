export {
  StoreInvalidPageError,
  StoreSchemaTooNewError,
  StoreUnknownConversationError,
  storeErrorCatalog,
} from "./errors.js";
export { MAX_PAGE } from "./keyset-cursor.js";
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
export {
  type MigrateOptions,
  type MigrateResult,
  migrateMessageStore,
} from "./postgres/migrate-message-store.js";
export { MIGRATIONS, type Migration } from "./postgres/migrations.js";
export {
  createPostgresMessageStore,
  openPostgresMessageStore,
  type PostgresMessageStoreOptions,
} from "./postgres/postgres-message-store.js";
