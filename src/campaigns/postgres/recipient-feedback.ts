import type { Pool } from "pg";
import { type TableNames, withTransaction } from "../../store/postgres/index.js";
import type { DeliveryStatus, RecipientState } from "../campaign-types.js";
import type { CampaignStore } from "../ports.js";
import { progressOf, type StatusFields } from "../status-progress.js";

type Feedback = Pick<
  CampaignStore,
  "applyStatus" | "findByWamid" | "recordReply" | "recordOptOut" | "recordConversion"
>;

interface StatusRow {
  state: string;
  wamid: string | null;
  status: string | null;
  error_code: number | null;
  sent_at: Date | null;
  delivered_at: Date | null;
  read_at: Date | null;
  failed_at: Date | null;
  pricing_category: string | null;
  billable: boolean | null;
}

const ms = (value: Date | null) => (value === null ? null : value.getTime());
const time = (value: number | null) => (value === null ? null : new Date(value));

/** What comes back of a campaign's messages: statuses, replies and opt-outs. */
export function createPostgresRecipientFeedback(pool: Pool, tables: TableNames): Feedback {
  const { campaigns, campaignRecipients: recipients } = tables;
  // The customer's last campaign message within the span; if it already counts this, that is it.
  const markLastReached = async (
    column: "opted_out_at" | "handoff_at" | "checkout_at",
    tenantId: string,
    customerId: string,
    at: number,
    withinMs: number,
  ) => {
    await pool.query(
      `UPDATE ${recipients} SET ${column} = $3
       WHERE (campaign_id, seq) = (
         SELECT r.campaign_id, r.seq FROM ${recipients} r JOIN ${campaigns} c ON c.id = r.campaign_id
         WHERE r.customer_id = $2 AND c.tenant_id = $1 AND r.sent_at >= $4
         ORDER BY r.sent_at DESC, r.seq DESC LIMIT 1)
       AND ${column} IS NULL`,
      [tenantId, customerId, new Date(at), new Date(at - withinMs)],
    );
  };

  return {
    // Read under a row lock, decide (status-progress.ts), write: statuses of one message never race.
    applyStatus: (update) =>
      withTransaction(pool, async (client) => {
        const read = await client.query<StatusRow>(
          `SELECT state, wamid, status, error_code, sent_at, delivered_at, read_at, failed_at, pricing_category, billable
           FROM ${recipients} WHERE campaign_id = $1 AND seq = $2 FOR UPDATE`,
          [update.campaignId, update.seq],
        );
        const row = read.rows[0];
        if (row === undefined) return false;
        const before = fieldsOf(row);
        const after = progressOf(before, update);
        if (after === undefined) return false;
        if (after === before) return true;
        await client.query(
          `UPDATE ${recipients} SET state = $3, wamid = $4, status = $5, error_code = $6, sent_at = $7,
             delivered_at = $8, read_at = $9, failed_at = $10, pricing_category = $11, billable = $12,
             owner = NULL, lease_until = NULL, unknown_since = NULL
           WHERE campaign_id = $1 AND seq = $2`,
          [
            update.campaignId,
            update.seq,
            after.state,
            after.wamid,
            after.status,
            after.errorCode,
            time(after.sentAt),
            time(after.deliveredAt),
            time(after.readAt),
            time(after.failedAt),
            after.pricingCategory,
            after.billable,
          ],
        );
        return true;
      }),

    async findByWamid(tenantId, wamid) {
      const result = await pool.query<{ campaign_id: string; seq: number }>(
        `SELECT r.campaign_id, r.seq FROM ${recipients} r JOIN ${campaigns} c ON c.id = r.campaign_id
         WHERE r.wamid = $1 AND c.tenant_id = $2 LIMIT 1`,
        [wamid, tenantId],
      );
      const row = result.rows[0];
      return row === undefined ? undefined : { campaignId: row.campaign_id, seq: row.seq };
    },

    async recordReply(campaignId, seq, at) {
      await pool.query(
        `UPDATE ${recipients} SET replied_at = $3 WHERE campaign_id = $1 AND seq = $2 AND replied_at IS NULL`,
        [campaignId, seq, new Date(at)],
      );
    },

    recordOptOut: (tenantId, customerId, at, withinMs) =>
      markLastReached("opted_out_at", tenantId, customerId, at, withinMs),
    recordConversion: (tenantId, customerId, kind, at, withinMs) =>
      markLastReached(kind === "handoff" ? "handoff_at" : "checkout_at", tenantId, customerId, at, withinMs),
  };
}

function fieldsOf(row: StatusRow): StatusFields {
  return {
    state: row.state as RecipientState,
    wamid: row.wamid,
    status: row.status as DeliveryStatus | null,
    errorCode: row.error_code,
    sentAt: ms(row.sent_at),
    deliveredAt: ms(row.delivered_at),
    readAt: ms(row.read_at),
    failedAt: ms(row.failed_at),
    pricingCategory: row.pricing_category,
    billable: row.billable,
  };
}
