import type { Pool } from "pg";
import { type TableNames, withTransaction } from "../../store/postgres/index.js";
import { buildCampaignReport } from "../campaign-report-builder.js";
import { type CampaignRow, campaignOf } from "../campaign-rows.js";
import type { CampaignStore } from "../ports.js";

/**
 * A campaign's report, counted from its recipients in one snapshot (REPEATABLE READ), so the
 * figures add up while a campaign sends. Held for the limit: pending rows a limit retry put off,
 * and, while the last claim was held back by the limit, every due pending row.
 */
export function createPostgresCampaignReport(pool: Pool, tables: TableNames): CampaignStore["report"] {
  const { campaigns, campaignRecipients: recipients } = tables;
  return (tenantId, campaignId, now) =>
    withTransaction(pool, async (client) => {
      await client.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
      const head = await client.query<CampaignRow & { limited_until: Date | null }>(
        `SELECT * FROM ${campaigns} WHERE tenant_id = $1 AND id = $2`,
        [tenantId, campaignId],
      );
      const row = head.rows[0];
      if (row === undefined) return undefined;
      const at = new Date(now);
      const limited = row.limited_until !== null && row.limited_until.getTime() > now;
      const byState = await client.query<{ state: string; detail: string | null; n: number }>(
        `SELECT state,
           CASE state WHEN 'skipped' THEN reason WHEN 'failed' THEN coalesce(error_code::text, reason) END AS detail,
           count(*)::int AS n
         FROM ${recipients} WHERE campaign_id = $1 GROUP BY 1, 2`,
        [campaignId],
      );
      const totals = await client.query<{
        sent: number;
        delivered: number;
        read: number;
        replied: number;
        opted_out: number;
        handoffs: number;
        checkouts: number;
        held: number;
      }>(
        `SELECT count(sent_at)::int AS sent, count(delivered_at)::int AS delivered, count(read_at)::int AS read,
           count(replied_at)::int AS replied, count(opted_out_at)::int AS opted_out,
           count(handoff_at)::int AS handoffs, count(checkout_at)::int AS checkouts,
           (count(*) FILTER (WHERE state = 'pending' AND ((reason = 'messaging_limit' AND not_before > $2)
             OR ($3 AND not_before <= $2))))::int AS held
         FROM ${recipients} WHERE campaign_id = $1`,
        [campaignId, at, limited],
      );
      const billable = await client.query<{ category: string; n: number }>(
        `SELECT pricing_category AS category, count(*)::int AS n FROM ${recipients}
         WHERE campaign_id = $1 AND billable AND pricing_category IS NOT NULL GROUP BY 1`,
        [campaignId],
      );
      const timeline = await client.query<{ minute: number; n: number }>(
        `SELECT (floor(extract(epoch FROM sent_at) / 60) * 60000)::float8 AS minute, count(*)::int AS n
         FROM ${recipients} WHERE campaign_id = $1 AND sent_at IS NOT NULL GROUP BY 1 ORDER BY 1`,
        [campaignId],
      );
      const sums = totals.rows[0] ?? {
        sent: 0,
        delivered: 0,
        read: 0,
        replied: 0,
        opted_out: 0,
        handoffs: 0,
        checkouts: 0,
        held: 0,
      };
      return buildCampaignReport(campaignOf(row), {
        byState: byState.rows,
        sent: sums.sent,
        delivered: sums.delivered,
        read: sums.read,
        replied: sums.replied,
        optedOut: sums.opted_out,
        handoffs: sums.handoffs,
        checkouts: sums.checkouts,
        heldForLimit: sums.held,
        billable: billable.rows,
        timeline: timeline.rows,
      });
    });
}
