import { type SqliteDatabase, statementPerLimit } from "../../sqlite/index.js";
import type { ConversationMode, ConversationStateStore, HistoryEntry } from "../ports.js";

export interface SqliteConversationStateOptions {
  /** The embedded database (openSqliteDatabase); owned by the caller. */
  readonly db: SqliteDatabase;
  /** Entries kept per conversation; default 50. */
  readonly maxEntries?: number;
  /** History and state expire this long after the last write, ms; default 7 days. */
  readonly ttlMs?: number;
  /** Clock, ms since the epoch; default Date.now. */
  readonly now?: () => number;
}

/** The embedded ConversationStateStore, plus what the embedded turn scheduler and the sweep need. */
export interface SqliteConversationStateStore extends ConversationStateStore {
  /**
   * Whether the conversation's turns go first (mode "human", or marked
   * priority until after `nowMs`): the embedded twin of the Redis turn
   * scheduler's priority 1. Synchronous, so the scheduler can call it per job.
   */
  isUrgent(conversationKey: string, nowMs: number): boolean;
  /** Deletes expired history and state; answers how many rows. */
  sweepExpired(): number;
}

// A conversation's history lives while its newest row does (each row expires ttlMs after it was
// appended), as the Redis list lives ttlMs after its last append. Older rows keep the expiry they were
// written with: renewing every row on each append rewrote up to maxEntries rows and index entries per turn.
const SCHEMA = `
CREATE TABLE IF NOT EXISTS conversation_history (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  conversation_key TEXT NOT NULL,
  entry TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS conversation_history_key ON conversation_history (conversation_key, id);
CREATE INDEX IF NOT EXISTS conversation_history_expiry ON conversation_history (expires_at);
CREATE TABLE IF NOT EXISTS conversation_state (
  conversation_key TEXT PRIMARY KEY,
  mode TEXT,
  priority_until INTEGER,
  expires_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS conversation_state_expiry ON conversation_state (expires_at);
`;

const MODES: ReadonlySet<string> = new Set(["bot", "human", "paused"]);

/**
 * The embedded adapter of ConversationStateStore, with the Redis adapter's
 * lifetimes: history (`conversation_history`, trimmed to the last N) expires
 * `ttlMs` after the last append; state (`conversation_state`: mode,
 * priorityUntil) `ttlMs` after its last write or append. Expired rows read as absent.
 */
export function createSqliteConversationState(
  options: SqliteConversationStateOptions,
): SqliteConversationStateStore {
  const { db } = options;
  const maxEntries = options.maxEntries ?? 50;
  const ttlMs = options.ttlMs ?? 7 * 24 * 3_600_000;
  const now = options.now ?? Date.now;
  db.exec(SCHEMA);
  const NEWEST_EXPIRY =
    "(SELECT expires_at FROM conversation_history WHERE conversation_key = @key ORDER BY id DESC LIMIT 1)";
  const recent = statementPerLimit(
    db,
    `SELECT entry FROM conversation_history WHERE conversation_key = @key AND ${NEWEST_EXPIRY} > @now
     ORDER BY id DESC LIMIT ?`,
  );
  const dropExpiredHistory = db.prepare(
    `DELETE FROM conversation_history WHERE conversation_key = @key AND ${NEWEST_EXPIRY} <= @now`,
  );
  const insertEntry = db.prepare(
    "INSERT INTO conversation_history (conversation_key, entry, expires_at) VALUES (?, ?, ?)",
  );
  // Everything at or below the newest entry past the ones kept: a range of the (key, id) index, usually
  // empty or one row. A NOT IN over the kept ids scanned every row of the conversation on each append
  // and was the dearest statement of an embedded turn (94 µs, bench/RESULTS.md).
  const trim = db.prepare(`DELETE FROM conversation_history WHERE conversation_key = @key AND id <=
    (SELECT id FROM conversation_history WHERE conversation_key = @key ORDER BY id DESC LIMIT 1 OFFSET @keep)`);
  // Like PEXPIRE on the state hash: renews a live state, creates none.
  const renewState = db.prepare(
    "UPDATE conversation_state SET expires_at = @expiresAt WHERE conversation_key = @key AND expires_at > @now",
  );
  const readState = db.prepare<[string, number], { mode: string | null; priority_until: number | null }>(
    "SELECT mode, priority_until FROM conversation_state WHERE conversation_key = ? AND expires_at > ?",
  );
  const dropExpiredState = db.prepare(
    "DELETE FROM conversation_state WHERE conversation_key = ? AND expires_at <= ?",
  );
  const upsertMode = db.prepare(`INSERT INTO conversation_state (conversation_key, mode, expires_at)
    VALUES (?, ?, ?) ON CONFLICT (conversation_key) DO UPDATE SET mode = excluded.mode, expires_at = excluded.expires_at`);
  const upsertPriority =
    db.prepare(`INSERT INTO conversation_state (conversation_key, priority_until, expires_at)
    VALUES (?, ?, ?) ON CONFLICT (conversation_key) DO UPDATE SET priority_until = excluded.priority_until,
    expires_at = excluded.expires_at`);
  // Rows past their own expiry whose conversation has no live row: a live one's older rows stay.
  const sweepHistory = db.prepare(`DELETE FROM conversation_history WHERE expires_at <= @now AND NOT EXISTS
    (SELECT 1 FROM conversation_history AS newer WHERE newer.conversation_key = conversation_history.conversation_key
     AND newer.expires_at > @now)`);
  const sweepState = db.prepare("DELETE FROM conversation_state WHERE expires_at <= ?");

  const append = db.transaction((key: string, entries: readonly HistoryEntry[]) => {
    const at = now();
    const expiresAt = at + ttlMs;
    dropExpiredHistory.run({ key, now: at });
    for (const entry of entries) insertEntry.run(key, JSON.stringify(entry), expiresAt);
    trim.run({ key, keep: maxEntries });
    renewState.run({ expiresAt, key, now: at });
  });
  const writeState = db.transaction((statement: typeof upsertMode, key: string, value: string | number) => {
    const at = now();
    dropExpiredState.run(key, at);
    statement.run(key, value, at + ttlMs);
  });
  const state = (key: string) => readState.get(key, now());

  return {
    async recent(conversationKey, limit = maxEntries) {
      // Math.max(1, …) as the Redis adapter's LRANGE: a limit below 1 still answers the newest entry.
      const rows = recent(Math.max(1, limit)).all({ key: conversationKey, now: now() }) as {
        entry: string;
      }[];
      return rows.reverse().map((row) => JSON.parse(row.entry) as HistoryEntry);
    },
    async append(conversationKey, entries) {
      if (entries.length === 0) return;
      append(conversationKey, entries);
    },
    async mode(conversationKey) {
      const mode = state(conversationKey)?.mode ?? null;
      return mode !== null && MODES.has(mode) ? (mode as ConversationMode) : "bot";
    },
    async setMode(conversationKey, mode) {
      writeState(upsertMode, conversationKey, mode);
    },
    async markPriority(conversationKey, untilMs) {
      writeState(upsertPriority, conversationKey, untilMs);
    },
    isUrgent(conversationKey, nowMs) {
      const found = state(conversationKey);
      return found?.mode === "human" || (found?.priority_until ?? 0) > nowMs;
    },
    sweepExpired() {
      const at = now();
      return sweepHistory.run({ now: at }).changes + sweepState.run(at).changes;
    },
  };
}
