import type { SqliteDatabase } from "../../sqlite/index.js";
import type { PurgeCounts } from "../ports.js";

/**
 * Retention, as in the Postgres adapter: deletes one tenant's rows older than
 * the cutoff, all or none. A conversation goes once its last activity is
 * older, which means all its messages went too, and its notes go with it.
 * Each delete walks a (tenant, time) index. Operator accounts are never purged.
 */
export function createSqlitePurge(db: SqliteDatabase) {
  const remover = (table: string, column: string) => {
    const statement = db.prepare(`DELETE FROM ${table} WHERE tenant_id = ? AND ${column} < ?`);
    return (tenantId: string, cutoffMs: number) => statement.run(tenantId, cutoffMs).changes;
  };
  const messages = remover("store_messages", "at");
  const deliveries = remover("store_deliveries", "status_at");
  const turns = remover("store_turns", "at");
  const conversations = remover("store_conversations", "last_activity_at");
  // Notes go with their conversation, not by their own age: a live conversation keeps its notes.
  const notesOfPurged = db.prepare(`
    DELETE FROM store_notes WHERE tenant_id = ? AND conversation_key IN (
      SELECT conversation_key FROM store_conversations WHERE tenant_id = ? AND last_activity_at < ?
    )`);
  return db.transaction((tenantId: string, cutoffMs: number): PurgeCounts => {
    notesOfPurged.run(tenantId, tenantId, cutoffMs);
    return {
      messages: messages(tenantId, cutoffMs),
      deliveries: deliveries(tenantId, cutoffMs),
      turns: turns(tenantId, cutoffMs),
      conversations: conversations(tenantId, cutoffMs),
    };
  });
}
