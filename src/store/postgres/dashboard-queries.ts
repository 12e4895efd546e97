import type { Pool } from "pg";
import { activityWindow, type BucketFigures, bucketsOf } from "../activity-buckets.js";
import { tenantIdsOf } from "../conversation-query.js";
import type { ActivityBucket, DeliveryFailureCount, HandoffQueueStats } from "../ports.js";
import type { TableNames } from "./sql-names.js";

/** A row's bucket: its index from the window's start ($2, ms) in buckets of $3 ms. */
function bucketOf(column: string): string {
  return `floor((extract(epoch FROM ${column}) * 1000 - $2::bigint) / $3::bigint)::int`;
}

/**
 * The dashboard's figures over a set of tenants, as the SQLite adapter gives
 * them. Each statement reads a (tenant, time) index over the asked window
 * only; the grouping by bucket happens in SQL, the empty buckets are filled
 * in by `bucketsOf`. Counts and sums come back as strings (bigint, numeric).
 */
export function createPostgresDashboardQueries(pool: Pool, tables: TableNames, now: () => number) {
  return {
    async activity(
      tenantIds: readonly string[],
      sinceMs: number,
      bucketMs: number,
    ): Promise<ActivityBucket[]> {
      const tenants = tenantIdsOf(tenantIds);
      const window = activityWindow(sinceMs, bucketMs, now());
      if (window.count === 0) return [];
      const values = [
        [...tenants],
        window.startMs,
        window.bucketMs,
        new Date(window.startMs),
        new Date(window.endMs),
      ];
      const [messages, turns, failures] = await Promise.all([
        pool.query<BucketFigures>(
          `SELECT ${bucketOf("at")} AS bucket, count(*) FILTER (WHERE direction = 'inbound') AS inbound,
                  count(*) FILTER (WHERE direction = 'outbound') AS outbound, count(sent_by) AS "operatorMessages"
           FROM ${tables.messages} WHERE tenant_id = ANY($1::text[]) AND at >= $4 AND at < $5 GROUP BY 1`,
          values,
        ),
        pool.query<BucketFigures>(
          `SELECT ${bucketOf("at")} AS bucket, count(*) AS turns,
                  count(*) FILTER (WHERE (decision->>'resolved')::boolean) AS "localTurns",
                  count(agent_outcome) AS "agentTurns", sum(prompt_tokens) AS "promptTokens",
                  sum(completion_tokens) AS "completionTokens", sum(cost_usd) AS "costUsd"
           FROM ${tables.turns} WHERE tenant_id = ANY($1::text[]) AND at >= $4 AND at < $5 GROUP BY 1`,
          values,
        ),
        pool.query<BucketFigures>(
          `SELECT ${bucketOf("status_at")} AS bucket, count(*) AS "failedDeliveries"
           FROM ${tables.deliveries}
           WHERE tenant_id = ANY($1::text[]) AND status_at >= $4 AND status_at < $5 AND status = 'failed'
           GROUP BY 1`,
          values,
        ),
      ]);
      return bucketsOf(window, [...messages.rows, ...turns.rows, ...failures.rows]);
    },

    async deliveryFailures(tenantIds: readonly string[], sinceMs: number): Promise<DeliveryFailureCount[]> {
      // Titles in byte order, as SQLite's max() picks them.
      const result = await pool.query<{ code: number; title: string | null; count: string }>(
        `SELECT coalesce(error_code, 0) AS code, max(error_title COLLATE "C") AS title, count(*) AS count
         FROM ${tables.deliveries}
         WHERE tenant_id = ANY($1::text[]) AND status_at >= $2 AND status = 'failed'
         GROUP BY 1 ORDER BY count(*) DESC, 1`,
        [[...tenantIdsOf(tenantIds)], new Date(sinceMs)],
      );
      return result.rows.map((row) => ({
        code: row.code,
        ...(row.title === null ? {} : { title: row.title }),
        count: Number(row.count),
      }));
    },

    async handoffQueue(tenantIds: readonly string[]): Promise<HandoffQueueStats> {
      const result = await pool.query<{ waiting: string; oldest: Date | null }>(
        `SELECT count(*) AS waiting, min(awaiting_reply_since) AS oldest FROM ${tables.conversations}
         WHERE tenant_id = ANY($1::text[]) AND mode = 'human' AND awaiting_reply_since IS NOT NULL`,
        [[...tenantIdsOf(tenantIds)]],
      );
      const row = result.rows[0];
      return {
        waiting: Number(row?.waiting ?? 0),
        ...(row?.oldest === null || row?.oldest === undefined
          ? {}
          : { oldestWaitingSince: row.oldest.getTime() }),
      };
    },

    // One backward walk of (tenant, at) per tenant, stopping at its first customer message.
    async lastInboundAt(tenantIds: readonly string[]): Promise<number | undefined> {
      const result = await pool.query<{ at: Date | null }>(
        `SELECT max(newest.at) AS at FROM unnest($1::text[]) AS t(tenant_id)
         CROSS JOIN LATERAL (
           SELECT at FROM ${tables.messages} m
           WHERE m.tenant_id = t.tenant_id AND m.direction = 'inbound' ORDER BY m.at DESC LIMIT 1
         ) newest`,
        [[...tenantIdsOf(tenantIds)]],
      );
      return result.rows[0]?.at?.getTime() ?? undefined;
    },
  };
}
