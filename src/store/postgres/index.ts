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
