import type { SqliteDatabase } from "../../sqlite/index.js";
import type { TenantSendPause } from "../ports.js";

export interface SqliteTenantSendPauseOptions {
  /** The embedded database (openSqliteDatabase); owned by the caller. */
  readonly db: SqliteDatabase;
  /** Clock, ms since the epoch; default Date.now. */
  readonly now?: () => number;
}

/** The embedded TenantSendPause, plus the sweep the composition root runs now and then. */
export interface SqliteTenantSendPause extends TenantSendPause {
  /** Deletes ended pauses; answers how many. */
  sweepExpired(): number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS outbound_tenant_pauses (
  tenant_id TEXT PRIMARY KEY,
  expires_at INTEGER NOT NULL
);
`;

/**
 * The embedded adapter of TenantSendPause: a row per paused tenant in
 * `outbound_tenant_pauses` holding when its pause ends. Kept in the file so a
 * pause for a rejected token outlives a restart, as the Redis key does.
 */
export function createSqliteTenantSendPause(options: SqliteTenantSendPauseOptions): SqliteTenantSendPause {
  const { db } = options;
  const now = options.now ?? Date.now;
  db.exec(SCHEMA);
  const upsert = db.prepare(
    "INSERT INTO outbound_tenant_pauses (tenant_id, expires_at) VALUES (?, ?) ON CONFLICT (tenant_id) DO UPDATE SET expires_at = excluded.expires_at",
  );
  const select = db.prepare<[string], { expires_at: number }>(
    "SELECT expires_at FROM outbound_tenant_pauses WHERE tenant_id = ?",
  );
  const sweep = db.prepare("DELETE FROM outbound_tenant_pauses WHERE expires_at <= ?");
  return {
    async pause(tenantId, forMs) {
      // As the Redis adapter's PX: whole ms, at least 1.
      upsert.run(tenantId, now() + Math.max(1, Math.ceil(forMs)));
    },
    async remainingMs(...scopes) {
      let longest = 0;
      for (const scope of scopes) {
        const row = select.get(scope);
        if (row !== undefined) longest = Math.max(longest, Math.ceil(row.expires_at - now()));
      }
      return longest;
    },
    sweepExpired() {
      return sweep.run(now()).changes;
    },
  };
}
