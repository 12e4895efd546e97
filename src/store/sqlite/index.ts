export { migrateSqliteMessageStore, type SqliteMigrateOptions } from "./migrate-sqlite-store.js";
export { SQLITE_MIGRATIONS } from "./migrations.js";
export { createSqliteMessageStore, type SqliteMessageStoreOptions } from "./sqlite-message-store.js";
