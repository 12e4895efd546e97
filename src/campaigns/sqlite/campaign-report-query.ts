import type { SqliteDatabase } from "../../sqlite/index.js";
import { buildCampaignReport } from "../campaign-report-builder.js";
import { type CampaignRow, campaignOf } from "../campaign-rows.js";
import type { CampaignStore } from "../ports.js";

const R = "store_campaign_recipients";

/**
 * A campaign's report, counted from its recipients (one pass per figure over the campaign's rows).
 * Held for the limit: pending rows a limit retry put off, and, while the last claim was held back
 * by the limit, every due pending row.
 */
export function createSqliteCampaignReport(db: SqliteDatabase): CampaignStore["report"] {
  const campaignRow = db.prepare<[string, string], CampaignRow & { limited_until: number | null }>(
    "SELECT * FROM store_campaigns WHERE tenant_id = ? AND id = ?",
  );
  const byState = db.prepare<[string], { state: string; detail: string | null; n: number }>(`SELECT state,
      CASE state WHEN 'skipped' THEN reason WHEN 'failed' THEN coalesce(CAST(error_code AS TEXT), reason) END AS detail,
      count(*) AS n
    FROM ${R} WHERE campaign_id = ? GROUP BY 1, 2`);
  const totals = db.prepare<
    Record<string, unknown>,
    {
      sent: number;
      delivered: number;
      read: number;
      replied: number;
      opted_out: number;
      handoffs: number;
      checkouts: number;
      held: number;
    }
  >(`SELECT count(sent_at) AS sent, count(delivered_at) AS delivered, count(read_at) AS read,
      count(replied_at) AS replied, count(opted_out_at) AS opted_out,
      count(handoff_at) AS handoffs, count(checkout_at) AS checkouts,
      coalesce(sum(state = 'pending' AND ((reason = 'messaging_limit' AND not_before > @now)
        OR (@limited AND not_before <= @now))), 0) AS held
    FROM ${R} WHERE campaign_id = @id`);
  const billable = db.prepare<[string], { category: string; n: number }>(`SELECT pricing_category AS category,
      count(*) AS n
    FROM ${R} WHERE campaign_id = ? AND billable = 1 AND pricing_category IS NOT NULL GROUP BY 1`);
  const timeline = db.prepare<
    [string],
    { minute: number; n: number }
  >(`SELECT sent_at / 60000 * 60000 AS minute,
      count(*) AS n
    FROM ${R} WHERE campaign_id = ? AND sent_at IS NOT NULL GROUP BY 1 ORDER BY 1`);

  // Synchronous on the one connection: no write comes between the queries, no transaction needed.
  return async (tenantId, campaignId, now) => {
    const row = campaignRow.get(tenantId, campaignId);
    if (row === undefined) return undefined;
    const limited = row.limited_until !== null && row.limited_until > now ? 1 : 0;
    const sums = totals.get({ id: campaignId, now, limited }) as NonNullable<ReturnType<typeof totals.get>>;
    return buildCampaignReport(campaignOf(row), {
      byState: byState.all(campaignId),
      sent: sums.sent,
      delivered: sums.delivered,
      read: sums.read,
      replied: sums.replied,
      optedOut: sums.opted_out,
      handoffs: sums.handoffs,
      checkouts: sums.checkouts,
      heldForLimit: sums.held,
      billable: billable.all(campaignId),
      timeline: timeline.all(campaignId),
    });
  };
}
