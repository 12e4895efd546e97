import type { SqliteDatabase } from "../../sqlite/index.js";
import type { TokenBudget } from "../ports.js";

export interface SqliteTokenBudgetOptions {
  /** The embedded database (openSqliteDatabase); owned by the caller. */
  readonly db: SqliteDatabase;
  /** Clock, ms since the epoch; default Date.now. */
  readonly now?: () => number;
}

/** The embedded TokenBudget, plus the sweep the composition root runs now and then. */
export interface SqliteTokenBudget extends TokenBudget {
  /** Deletes days whose count has expired; answers how many. */
  sweepExpired(): number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS agent_token_usage (
  tenant_id TEXT NOT NULL,
  day TEXT NOT NULL,
  tokens INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, day)
);
`;

/** Kept two days after the last record, as the Redis key is. */
const KEEP_MS = 2 * 86_400_000;

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The embedded adapter of TokenBudget: one row per tenant per UTC day in `agent_token_usage`. */
export function createSqliteTokenBudget(options: SqliteTokenBudgetOptions): SqliteTokenBudget {
  const { db } = options;
  const now = options.now ?? Date.now;
  db.exec(SCHEMA);
  const spent = db.prepare<[string, string, number], { tokens: number }>(
    "SELECT tokens FROM agent_token_usage WHERE tenant_id = ? AND day = ? AND expires_at > ?",
  );
  // An expired row restarts from zero, as INCRBY on an expired key does.
  const add =
    db.prepare(`INSERT INTO agent_token_usage (tenant_id, day, tokens, expires_at) VALUES (@tenant, @day, @tokens, @expiresAt)
    ON CONFLICT (tenant_id, day) DO UPDATE SET
      tokens = CASE WHEN expires_at > @now THEN tokens + excluded.tokens ELSE excluded.tokens END,
      expires_at = excluded.expires_at`);
  const sweep = db.prepare("DELETE FROM agent_token_usage WHERE expires_at <= ?");
  return {
    async spentToday(tenantId) {
      const at = now();
      return spent.get(tenantId, dayOf(at), at)?.tokens ?? 0;
    },
    async record(tenantId, tokens) {
      if (tokens <= 0) return;
      const at = now();
      add.run({
        tenant: tenantId,
        day: dayOf(at),
        tokens: Math.round(tokens),
        expiresAt: at + KEEP_MS,
        now: at,
      });
    },
    sweepExpired() {
      return sweep.run(now()).changes;
    },
  };
}
