import type { Pool } from "pg";
import type { PurgeCounts } from "../ports.js";
import type { TableNames } from "./sql-names.js";
import { withTransaction } from "./with-transaction.js";

/**
 * Retention: deletes one tenant's rows older than the cutoff, all or none. A
 * conversation goes once its last activity is older, which means all its
 * messages went too, and its notes go with it. Each delete walks a (tenant,
 * time) index. Operator accounts are never purged.
 */
export function createPurge(pool: Pool, tables: TableNames) {
  return async function purgeOlderThan(tenantId: string, cutoffMs: number): Promise<PurgeCounts> {
    const cutoff = new Date(cutoffMs);
    return withTransaction(pool, async (client) => {
      const remove = async (table: string, column: string) =>
        (
          await client.query(`DELETE FROM ${table} WHERE tenant_id = $1 AND ${column} < $2`, [
            tenantId,
            cutoff,
          ])
        ).rowCount ?? 0;
      // Notes go with their conversation, not by their own age: a live conversation keeps its notes.
      await client.query(
        `DELETE FROM ${tables.notes} WHERE tenant_id = $1 AND conversation_key IN (
           SELECT conversation_key FROM ${tables.conversations} WHERE tenant_id = $1 AND last_activity_at < $2
         )`,
        [tenantId, cutoff],
      );
      return {
        messages: await remove(tables.messages, "at"),
        deliveries: await remove(tables.deliveries, "status_at"),
        turns: await remove(tables.turns, "at"),
        conversations: await remove(tables.conversations, "last_activity_at"),
      };
    });
  };
}
