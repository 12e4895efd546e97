import type { SqliteDatabase } from "../../sqlite/index.js";
import type { MessageStore } from "../ports.js";
import { createSqliteConsole } from "./console.js";
import { createSqliteConsoleQueries } from "./console-queries.js";
import { migrateSqliteMessageStore } from "./migrate-sqlite-store.js";
import { createSqliteOperatorStore } from "./operator-store.js";
import { createSqlitePurge } from "./purge.js";
import { createSqliteRecordWrites } from "./record-writes.js";

export interface SqliteMessageStoreOptions {
  /**
   * Clock for bookkeeping columns (`created_at`, `updated_at`) and the end of the dashboard's
   * activity, ms since the epoch; default `Date.now`.
   */
  readonly now?: () => number;
}

/**
 * The SQLite adapter of `MessageStore`, on the process's one connection (see
 * `openSqliteDatabase`; the caller owns and closes it). Migrates the `store_*`
 * tables first, so it throws `StoreSchemaTooNewError` on a file written by a
 * newer sharpsharp. better-sqlite3 is synchronous: each method runs its
 * statements inside an async function, so a failure is a rejection, never a
 * throw at the call site.
 */
export function createSqliteMessageStore(
  db: SqliteDatabase,
  options: SqliteMessageStoreOptions = {},
): MessageStore {
  const now = options.now ?? Date.now;
  migrateSqliteMessageStore(db, { now });
  const writes = createSqliteRecordWrites(db, now);
  const queries = createSqliteConsoleQueries(db);
  const purge = createSqlitePurge(db);
  return {
    recordInbound: async (message) => writes.recordInbound(message),
    recordOutbound: async (reply) => writes.recordOutbound(reply),
    updateDelivery: async (tenantId, wamid, status, at, error) =>
      writes.updateDelivery(tenantId, wamid, status, at, error),
    setConversationState: async (conversationKey, state) =>
      writes.setConversationState(conversationKey, state),
    recordTurn: async (turn) => writes.recordTurn(turn),
    recordMediaReading: async (tenantId, _conversationKey, wamid, reading) =>
      writes.recordMediaReading(tenantId, wamid, reading),
    listConversations: async (tenantId, options) => queries.listConversations(tenantId, options),
    messagesOf: async (conversationKey, options) => queries.messagesOf(conversationKey, options),
    searchByCustomer: async (tenantId, prefix, limit) => queries.searchByCustomer(tenantId, prefix, limit),
    purgeOlderThan: async (tenantId, cutoffMs) => purge(tenantId, cutoffMs),
    console: createSqliteConsole(db, now),
    operators: createSqliteOperatorStore(db),
  };
}
