import type { Pool } from "pg";
import type { TableNames } from "../../store/postgres/index.js";
import type { CampaignStore } from "../ports.js";
import { settlementOf } from "../settlement.js";

type SettleAndRecover = Pick<CampaignStore, "settle" | "recover">;

const time = (ms: number | null) => (ms === null ? null : new Date(ms));

/** Settling a claim and recovering lost ones: each one statement, so atomic on its own. */
export function createPostgresSettleAndRecover(pool: Pool, tables: TableNames): SettleAndRecover {
  const { campaigns, campaignRecipients: recipients } = tables;
  return {
    async settle(campaignId, seq, owner, outcome, now) {
      const s = settlementOf(outcome, now);
      const result = await pool.query(
        `UPDATE ${recipients} SET state = $4, wamid = coalesce($5, wamid), error_code = coalesce($6, error_code),
           reason = $7, not_before = coalesce($8, not_before), attempts = attempts + $9,
           sent_at = coalesce($10, sent_at), failed_at = coalesce($11, failed_at), unknown_since = $12,
           owner = NULL, lease_until = NULL
         WHERE campaign_id = $1 AND seq = $2 AND state = 'sending' AND owner = $3`,
        [
          campaignId,
          seq,
          owner,
          s.state,
          s.wamid,
          s.errorCode,
          s.reason,
          time(s.notBefore),
          s.attempts,
          time(s.sentAt),
          time(s.failedAt),
          time(s.unknownSince),
        ],
      );
      return result.rowCount === 1;
    },

    async recover(now, unknownGraceMs) {
      // Two disjoint sets of rows (unknown ones, sending ones): one statement may change both. An
      // unknown send of a cancelled campaign is not sent again.
      const result = await pool.query<{ unknown: number; resent: number }>(
        `WITH resent AS (
           UPDATE ${recipients} AS r
           SET state = CASE c.state WHEN 'cancelled' THEN 'skipped' ELSE 'pending' END,
               reason = CASE c.state WHEN 'cancelled' THEN 'cancelled' ELSE r.reason END,
               resends = r.resends + 1, unknown_since = NULL
           FROM ${campaigns} c
           WHERE c.id = r.campaign_id AND r.state = 'unknown' AND r.unknown_since < $2 AND r.status IS NULL
           RETURNING r.state
         ), expired AS (
           UPDATE ${recipients} SET state = 'unknown', unknown_since = $1, owner = NULL, lease_until = NULL
           WHERE state = 'sending' AND lease_until < $1
           RETURNING 1
         )
         SELECT (SELECT count(*)::int FROM expired) AS unknown,
                (SELECT count(*)::int FROM resent WHERE state = 'pending') AS resent`,
        [new Date(now), new Date(now - unknownGraceMs)],
      );
      return result.rows[0] ?? { unknown: 0, resent: 0 };
    },
  };
}
