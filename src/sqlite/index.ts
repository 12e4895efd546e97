export { SqliteUnavailableError, sqliteErrorCatalog } from "./errors.js";
export {
  causedBySqliteWriteFailure,
  explainSqliteError,
  isSqliteWriteFailure,
  type OpenSqliteOptions,
  openSqliteDatabase,
  type SqliteDatabase,
} from "./open-sqlite.js";
export { statementPerLimit } from "./statement-per-limit.js";
export { batchWritesPerTick, type TickCommits } from "./tick-commits.js";
export { createWalSyncer, type WalSyncer } from "./wal-syncer.js";
