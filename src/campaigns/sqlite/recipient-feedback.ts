import type { SqliteDatabase } from "../../sqlite/index.js";
import type { CampaignStatusUpdate, DeliveryStatus, RecipientState } from "../campaign-types.js";
import type { CampaignStore } from "../ports.js";
import { progressOf, type StatusFields } from "../status-progress.js";

type Feedback = Pick<
  CampaignStore,
  "applyStatus" | "findByWamid" | "recordReply" | "recordOptOut" | "recordConversion"
>;

const R = "store_campaign_recipients";

interface StatusRow {
  state: string;
  wamid: string | null;
  status: string | null;
  error_code: number | null;
  sent_at: number | null;
  delivered_at: number | null;
  read_at: number | null;
  failed_at: number | null;
  pricing_category: string | null;
  billable: number | null;
}

/** What comes back of a campaign's messages: statuses, replies and opt-outs. */
export function createSqliteRecipientFeedback(db: SqliteDatabase): Feedback {
  const statusOf = db.prepare<[string, number], StatusRow>(`SELECT state, wamid, status, error_code, sent_at,
      delivered_at, read_at, failed_at, pricing_category, billable
    FROM ${R} WHERE campaign_id = ? AND seq = ?`);
  const writeStatus = db.prepare(`UPDATE ${R} SET state = @state, wamid = @wamid, status = @status,
      error_code = @errorCode, sent_at = @sentAt, delivered_at = @deliveredAt, read_at = @readAt,
      failed_at = @failedAt, pricing_category = @pricingCategory, billable = @billable,
      owner = NULL, lease_until = NULL, unknown_since = NULL
    WHERE campaign_id = @id AND seq = @seq`);
  const byWamid = db.prepare<
    [string, string],
    { campaign_id: string; seq: number }
  >(`SELECT r.campaign_id, r.seq
    FROM ${R} r JOIN store_campaigns c ON c.id = r.campaign_id
    WHERE r.wamid = ? AND c.tenant_id = ? LIMIT 1`);
  const reply = db.prepare(
    `UPDATE ${R} SET replied_at = ? WHERE campaign_id = ? AND seq = ? AND replied_at IS NULL`,
  );
  // The customer's last campaign message within the span; if it already counts an opt-out, that is it.
  const lastReached = (column: "opted_out_at" | "handoff_at" | "checkout_at") =>
    db.prepare(`UPDATE ${R} SET ${column} = @at
    WHERE (campaign_id, seq) = (
      SELECT r.campaign_id, r.seq FROM ${R} r JOIN store_campaigns c ON c.id = r.campaign_id
      WHERE r.customer_id = @customerId AND c.tenant_id = @tenantId AND r.sent_at >= @since
      ORDER BY r.sent_at DESC, r.seq DESC LIMIT 1)
    AND ${column} IS NULL`);
  const optOut = lastReached("opted_out_at");
  const conversions = { handoff: lastReached("handoff_at"), checkout: lastReached("checkout_at") };

  // Read, decide, write: synchronous on the one connection, so nothing comes between.
  const applyStatus = (update: CampaignStatusUpdate): boolean => {
    const row = statusOf.get(update.campaignId, update.seq);
    if (row === undefined) return false;
    const before = fieldsOf(row);
    const after = progressOf(before, update);
    if (after === undefined) return false;
    if (after !== before)
      writeStatus.run({
        ...after,
        billable: after.billable === null ? null : Number(after.billable),
        id: update.campaignId,
        seq: update.seq,
      });
    return true;
  };

  return {
    applyStatus: async (update) => applyStatus(update),
    findByWamid: async (tenantId, wamid) => {
      const row = byWamid.get(wamid, tenantId);
      return row === undefined ? undefined : { campaignId: row.campaign_id, seq: row.seq };
    },
    recordReply: async (campaignId, seq, at) => {
      reply.run(at, campaignId, seq);
    },
    recordOptOut: async (tenantId, customerId, at, withinMs) => {
      optOut.run({ tenantId, customerId, at, since: at - withinMs });
    },
    recordConversion: async (tenantId, customerId, kind, at, withinMs) => {
      conversions[kind].run({ tenantId, customerId, at, since: at - withinMs });
    },
  };
}

function fieldsOf(row: StatusRow): StatusFields {
  return {
    state: row.state as RecipientState,
    wamid: row.wamid,
    status: row.status as DeliveryStatus | null,
    errorCode: row.error_code,
    sentAt: row.sent_at,
    deliveredAt: row.delivered_at,
    readAt: row.read_at,
    failedAt: row.failed_at,
    pricingCategory: row.pricing_category,
    billable: row.billable === null ? null : row.billable === 1,
  };
}
