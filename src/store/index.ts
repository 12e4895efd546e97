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
export {
  type MigrateOptions,
  migrateMessageStore,
} from "./postgres/migrate-message-store.js";
export { MIGRATIONS } from "./postgres/migrations.js";
export {
  createPostgresMessageStore,
  openPostgresMessageStore,
  type PostgresMessageStoreOptions,
} from "./postgres/postgres-message-store.js";
export { migrateSqliteMessageStore, type SqliteMigrateOptions } from "./sqlite/migrate-sqlite-store.js";
export { SQLITE_MIGRATIONS } from "./sqlite/migrations.js";
export { createSqliteMessageStore, type SqliteMessageStoreOptions } from "./sqlite/sqlite-message-store.js";
