import type { Statement } from "better-sqlite3";
import type { SqliteDatabase } from "../../sqlite/index.js";
import { activityWindow, type BucketFigures, bucketsOf } from "../activity-buckets.js";
import { tenantIdsOf } from "../conversation-query.js";
import type { ActivityBucket, DeliveryFailureCount, HandoffQueueStats } from "../ports.js";

/**
 * A row's bucket: its index from the window's start in buckets of the given
 * size. better-sqlite3 binds a JS number as REAL, so the two are cast for
 * integer division.
 */
function bucketOf(column: string): string {
  return `(${column} - CAST(? AS INTEGER)) / CAST(? AS INTEGER)`;
}

/** `IN (?, ?, …)` for a list of tenants: the statement is prepared per list length (a handful). */
function inList(count: number): string {
  return `(${Array.from({ length: count }, () => "?").join(", ")})`;
}

/**
 * The dashboard's figures over a set of tenants. Each statement reads a
 * (tenant, time) index over the asked window only; the grouping by bucket
 * happens in SQL, the empty buckets are filled in by `bucketsOf`.
 */
export function createSqliteDashboardQueries(db: SqliteDatabase, now: () => number) {
  const prepared = new Map<string, Statement<unknown[], unknown>>();
  const all = <Row>(sql: string, params: unknown[]): Row[] => {
    let statement = prepared.get(sql);
    if (statement === undefined) {
      statement = db.prepare<unknown[], unknown>(sql);
      prepared.set(sql, statement);
    }
    return statement.all(...params) as Row[];
  };
  const newestInbound = db.prepare<[string], { at: number }>(
    "SELECT at FROM store_messages WHERE tenant_id = ? AND direction = 'inbound' ORDER BY at DESC LIMIT 1",
  );

  return {
    activity(tenantIds: readonly string[], sinceMs: number, bucketMs: number): ActivityBucket[] {
      const tenants = tenantIdsOf(tenantIds);
      const window = activityWindow(sinceMs, bucketMs, now());
      if (window.count === 0) return [];
      const range = [window.startMs, window.bucketMs, ...tenants, window.startMs, window.endMs];
      const tenantsIn = inList(tenants.length);
      const messages = all<BucketFigures>(
        `SELECT ${bucketOf("at")} AS bucket, sum(direction = 'inbound') AS inbound,
                sum(direction = 'outbound') AS outbound, count(sent_by) AS "operatorMessages"
         FROM store_messages WHERE tenant_id IN ${tenantsIn} AND at >= ? AND at < ? GROUP BY bucket`,
        range,
      );
      const turns = all<BucketFigures>(
        `SELECT ${bucketOf("at")} AS bucket, count(*) AS turns,
                sum(json_extract(decision, '$.resolved') = 1) AS "localTurns",
                count(agent_outcome) AS "agentTurns", sum(prompt_tokens) AS "promptTokens",
                sum(completion_tokens) AS "completionTokens", sum(cost_usd) AS "costUsd"
         FROM store_turns WHERE tenant_id IN ${tenantsIn} AND at >= ? AND at < ? GROUP BY bucket`,
        range,
      );
      const failures = all<BucketFigures>(
        `SELECT ${bucketOf("status_at")} AS bucket, count(*) AS "failedDeliveries"
         FROM store_deliveries
         WHERE tenant_id IN ${tenantsIn} AND status_at >= ? AND status_at < ? AND status = 'failed'
         GROUP BY bucket`,
        range,
      );
      return bucketsOf(window, [...messages, ...turns, ...failures]);
    },

    deliveryFailures(tenantIds: readonly string[], sinceMs: number): DeliveryFailureCount[] {
      const tenants = tenantIdsOf(tenantIds);
      const rows = all<{ code: number; title: string | null; count: number }>(
        `SELECT coalesce(error_code, 0) AS code, max(error_title) AS title, count(*) AS count
         FROM store_deliveries
         WHERE tenant_id IN ${inList(tenants.length)} AND status_at >= ? AND status = 'failed'
         GROUP BY 1 ORDER BY count DESC, code`,
        [...tenants, Math.floor(sinceMs)],
      );
      return rows.map((row) => ({
        code: row.code,
        ...(row.title === null ? {} : { title: row.title }),
        count: row.count,
      }));
    },

    handoffQueue(tenantIds: readonly string[]): HandoffQueueStats {
      const tenants = tenantIdsOf(tenantIds);
      const [row] = all<{ waiting: number; oldest: number | null }>(
        `SELECT count(*) AS waiting, min(awaiting_reply_since) AS oldest FROM store_conversations
         WHERE tenant_id IN ${inList(tenants.length)} AND mode = 'human' AND awaiting_reply_since IS NOT NULL`,
        [...tenants],
      );
      return {
        waiting: row?.waiting ?? 0,
        ...(row?.oldest === null || row?.oldest === undefined ? {} : { oldestWaitingSince: row.oldest }),
      };
    },

    // One backward walk of (tenant, at) per tenant, stopping at its first customer message.
    lastInboundAt(tenantIds: readonly string[]): number | undefined {
      let newest: number | undefined;
      for (const tenantId of tenantIdsOf(tenantIds)) {
        const at = newestInbound.get(tenantId)?.at;
        if (at !== undefined && (newest === undefined || at > newest)) newest = at;
      }
      return newest;
    },
  };
}
