import { randomBytes } from "node:crypto";
import type { SqliteDatabase } from "../../sqlite/index.js";
import type { ClaimResult, PendingAction, PendingActionStore } from "../ports.js";

export interface SqlitePendingActionsOptions {
  /** The embedded database (openSqliteDatabase); owned by the caller. */
  readonly db: SqliteDatabase;
  /** Clock, ms since the epoch; default Date.now. */
  readonly now?: () => number;
}

/** The embedded PendingActionStore, plus the sweep the composition root runs now and then. */
export interface SqlitePendingActionStore extends PendingActionStore {
  /** Deletes expired actions; answers how many. */
  sweepExpired(): number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS agent_pending_actions (
  conversation_key TEXT NOT NULL,
  id TEXT NOT NULL,
  action TEXT NOT NULL,
  claimed_by TEXT,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (conversation_key, id)
);
CREATE INDEX IF NOT EXISTS agent_pending_actions_expiry ON agent_pending_actions (expires_at);
`;

/**
 * The embedded adapter of PendingActionStore: one row per action in
 * `agent_pending_actions`, claimed in one transaction with the Redis script's
 * rules (first claim by message X; X again = claimed; any other = already).
 */
export function createSqlitePendingActions(options: SqlitePendingActionsOptions): SqlitePendingActionStore {
  const { db } = options;
  const now = options.now ?? Date.now;
  db.exec(SCHEMA);
  const insert = db.prepare(
    "INSERT OR REPLACE INTO agent_pending_actions (conversation_key, id, action, expires_at) VALUES (?, ?, ?, ?)",
  );
  const select = db.prepare<[string, string, number], { action: string; claimed_by: string | null }>(
    "SELECT action, claimed_by FROM agent_pending_actions WHERE conversation_key = ? AND id = ? AND expires_at > ?",
  );
  const markClaimed = db.prepare(
    "UPDATE agent_pending_actions SET claimed_by = ? WHERE conversation_key = ? AND id = ?",
  );
  const sweep = db.prepare("DELETE FROM agent_pending_actions WHERE expires_at <= ?");

  const claim = db.transaction((conversationKey: string, id: string, by: string): ClaimResult => {
    const row = select.get(conversationKey, id, now());
    if (row === undefined) return { kind: "missing" };
    const action = JSON.parse(row.action) as PendingAction;
    if (row.claimed_by === null) {
      markClaimed.run(by, conversationKey, id);
      return { kind: "claimed", action };
    }
    return { kind: row.claimed_by === by ? "claimed" : "already", action };
  });

  return {
    async create(conversationKey, action, ttlMs) {
      // Redis refuses a PX that is not a positive whole number; so does this twin.
      if (!Number.isInteger(ttlMs) || ttlMs <= 0) {
        throw new RangeError(`pending action TTL must be a positive whole number of ms, got ${ttlMs}`);
      }
      const stored: PendingAction = { ...action, id: randomBytes(9).toString("base64url") };
      insert.run(conversationKey, stored.id, JSON.stringify(stored), now() + ttlMs);
      return stored;
    },
    async claim(conversationKey, id, by) {
      if (!/^[A-Za-z0-9_-]{1,32}$/.test(id)) return { kind: "missing" };
      return claim(conversationKey, id, by);
    },
    sweepExpired() {
      return sweep.run(now()).changes;
    },
  };
}
