import type { Campaign, CampaignReport } from "./campaign-types.js";

/** What an adapter counts for a report (see the report queries of each adapter). */
export interface ReportCounts {
  /**
   * Recipients per state; `detail` is the reason of a skipped one, and of a failed one its error
   * code, or its reason when it has no code.
   */
  readonly byState: readonly { readonly state: string; readonly detail: string | null; readonly n: number }[];
  readonly sent: number;
  readonly delivered: number;
  readonly read: number;
  readonly replied: number;
  readonly optedOut: number;
  readonly handoffs: number;
  readonly checkouts: number;
  readonly heldForLimit: number;
  readonly billable: readonly { readonly category: string; readonly n: number }[];
  /** Sent per minute: the minute's start, ms. */
  readonly timeline: readonly { readonly minute: number; readonly n: number }[];
}

/** A campaign's report from its counts: the same shape, whichever database counted them. */
export function buildCampaignReport(campaign: Campaign, counts: ReportCounts): CampaignReport {
  const inState = (state: string) =>
    counts.byState.filter((row) => row.state === state).reduce((sum, row) => sum + row.n, 0);
  const byDetail = (state: string) => {
    const out: Record<string, number> = {};
    for (const row of counts.byState) {
      if (row.state !== state) continue;
      const key = row.detail ?? "unknown";
      out[key] = (out[key] ?? 0) + row.n;
    }
    return out;
  };
  const billable: Record<string, number> = {};
  for (const row of counts.billable) billable[row.category] = (billable[row.category] ?? 0) + row.n;
  return {
    campaign,
    targeted: campaign.audienceSize,
    pending: inState("pending"),
    heldForLimit: counts.heldForLimit,
    sending: inState("sending"),
    unknown: inState("unknown"),
    skipped: byDetail("skipped"),
    sent: counts.sent,
    delivered: counts.delivered,
    read: counts.read,
    failed: byDetail("failed"),
    replied: counts.replied,
    optedOut: counts.optedOut,
    handoffs: counts.handoffs,
    checkouts: counts.checkouts,
    billable,
    timeline: [...counts.timeline]
      .sort((a, b) => a.minute - b.minute)
      .map((row) => [row.minute, row.n] as const),
  };
}
