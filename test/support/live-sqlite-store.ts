import Database from "better-sqlite3";
import type { MessageStore } from "../../src/store/index.js";
import { createSqliteMessageStore } from "../../src/store/sqlite/index.js";

/**
 * A second connection on the SQLite file of an embedded gateway running in this same thread, with
 * its message store. The store's migration check writes, so it needs the write lock; the gateway
 * holds that lock from a write until the end of its event-loop turn (batchWritesPerTick). Waiting
 * for it with a busy timeout would block this thread, and so the very commit it waits for: instead
 * the lock is tried without waiting, and tried again on a later turn of the loop until it is free.
 */
export async function openLiveSqliteStore(
  path: string,
  triesMs = 5_000,
): Promise<{ readonly db: Database.Database; readonly store: MessageStore }> {
  const db = new Database(path, { fileMustExist: true, timeout: 0 });
  const until = Date.now() + triesMs;
  for (;;) {
    await new Promise((resolve) => setImmediate(resolve));
    try {
      const store = createSqliteMessageStore(db);
      // Reads from here on may wait for the gateway's commits like any reader.
      db.pragma("busy_timeout = 5000");
      return { db, store };
    } catch (error) {
      if ((error as { code?: string }).code !== "SQLITE_BUSY" || Date.now() > until) {
        db.close();
        throw error;
      }
    }
  }
}
