export {
  type MigrateOptions,
  migrateMessageStore,
} from "./migrate-message-store.js";
export { MIGRATIONS } from "./migrations.js";
export {
  createPostgresMessageStore,
  openPostgresMessageStore,
  type PostgresMessageStoreOptions,
} from "./postgres-message-store.js";
export { quoteIdentifier, type TableNames, tableNames } from "./sql-names.js";
export { withTransaction } from "./with-transaction.js";
