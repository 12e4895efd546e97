import type { Pool } from "pg";
import { type TableNames, withTransaction } from "../../store/postgres/index.js";
import { RECIPIENT_COLUMNS, type RecipientRow, recipientOf } from "../campaign-rows.js";
import { type ClaimCandidate, limitedUntilOf, placesLeft, planClaim } from "../claim-plan.js";
import type { CampaignStore } from "../ports.js";

/**
 * One claim, one transaction. Claims of one number queue on a transaction-scoped advisory lock (the
 * window's count is per number, across campaigns and processes: two workers must not both take its
 * last places), then on the campaign's row (cancelling waits for a claim to end, so the two never
 * lock rows in opposite orders); `SKIP LOCKED` keeps any other writer's rows out of the claim.
 */
export function createPostgresClaim(pool: Pool, tables: TableNames): CampaignStore["claim"] {
  const { campaigns, campaignRecipients: recipients, messagingWindow: window, suppressions } = tables;
  return (request) =>
    withTransaction(pool, async (client) => {
      const head = await client.query<{ tenant_id: string; phone_number_id: string }>(
        `SELECT tenant_id, phone_number_id,
           pg_advisory_xact_lock(hashtextextended('sharpsharp:campaign-number:' || phone_number_id, 0))
         FROM ${campaigns} WHERE id = $1`,
        [request.campaignId],
      );
      const campaign = head.rows[0];
      if (campaign === undefined) return { recipients: [] };
      const held = await client.query<{ state: string; limited_until: Date | null }>(
        `SELECT state, limited_until FROM ${campaigns} WHERE id = $1 FOR NO KEY UPDATE`,
        [request.campaignId],
      );
      const current = held.rows[0];
      if (current?.state !== "running") return { recipients: [] };
      const now = new Date(request.now);
      const cut = new Date(request.now - request.windowMs);
      const number = campaign.phone_number_id;
      // Entries past the window count for nothing: dropped here, by the number's own claims.
      const stats = await client.query<{ n: number; oldest: Date | null }>(
        `WITH pruned AS (DELETE FROM ${window} WHERE phone_number_id = $1 AND at <= $2)
         SELECT count(*)::int AS n, min(at) AS oldest FROM ${window} WHERE phone_number_id = $1 AND at > $2`,
        [number, cut],
      );
      const inWindow = stats.rows[0] ?? { n: 0, oldest: null };
      let places = placesLeft(request.messagingLimit, inWindow.n);
      const chosen: ClaimCandidate[] = [];
      const skipped: number[] = [];
      let limited = false;
      let after = 0;
      // Skipped customers leave a page short of `limit`: read on until it is full or no one is due.
      while (chosen.length < request.limit && !limited) {
        const wanted = request.limit - chosen.length;
        const page = await client.query<{
          seq: number;
          customer_id: string;
          suppressed: boolean;
          in_window: boolean;
        }>(
          `SELECT r.seq, r.customer_id,
             EXISTS (SELECT 1 FROM ${suppressions} s
                     WHERE s.tenant_id = $2 AND s.customer_id = r.customer_id) AS suppressed,
             EXISTS (SELECT 1 FROM ${window} w
                     WHERE w.phone_number_id = $3 AND w.customer_id = r.customer_id AND w.at > $4) AS in_window
           FROM ${recipients} r
           WHERE r.campaign_id = $1 AND r.state = 'pending' AND r.seq > $5 AND r.not_before <= $6
             AND NOT (r.timezone = ANY($7::text[]))
           ORDER BY r.seq LIMIT $8
           FOR UPDATE SKIP LOCKED`,
          [
            request.campaignId,
            campaign.tenant_id,
            number,
            cut,
            after,
            now,
            [...request.quietTimezones],
            wanted,
          ],
        );
        const plan = planClaim(
          page.rows.map((row) => ({
            seq: row.seq,
            customerId: row.customer_id,
            suppressed: row.suppressed,
            inWindow: row.in_window,
          })),
          wanted,
          places,
        );
        chosen.push(...plan.claim);
        skipped.push(...plan.skip);
        places -= plan.placesTaken;
        limited = plan.held;
        if (page.rows.length < wanted) break;
        after = page.rows.at(-1)?.seq ?? after;
      }
      const taken = chosen.map((candidate) => candidate.seq);
      const claimed =
        taken.length + skipped.length === 0
          ? []
          : (
              await client.query<RecipientRow>(
                // A customer keeps the place taken when its window began; only a lapsed one starts anew.
                `WITH moved AS (
                   UPDATE ${recipients} SET
                     state = CASE WHEN seq = ANY($3::int[]) THEN 'sending' ELSE 'skipped' END,
                     reason = CASE WHEN seq = ANY($3::int[]) THEN NULL ELSE 'opted_out' END,
                     owner = CASE WHEN seq = ANY($3::int[]) THEN $4 ELSE owner END,
                     lease_until = CASE WHEN seq = ANY($3::int[]) THEN $5 ELSE lease_until END,
                     claimed_at = CASE WHEN seq = ANY($3::int[]) THEN $6 ELSE claimed_at END
                   WHERE campaign_id = $1 AND seq = ANY($2::int[])
                   RETURNING ${RECIPIENT_COLUMNS}
                 ), entered AS (
                   INSERT INTO ${window} (phone_number_id, customer_id, at)
                   SELECT $7, customer_id, $6 FROM moved WHERE state = 'sending'
                   ON CONFLICT (phone_number_id, customer_id) DO UPDATE SET at = EXCLUDED.at
                   WHERE ${window}.at <= $8
                 )
                 SELECT * FROM moved WHERE state = 'sending' ORDER BY seq`,
                [
                  request.campaignId,
                  [...taken, ...skipped],
                  taken,
                  request.owner,
                  new Date(request.now + request.leaseMs),
                  now,
                  number,
                  cut,
                ],
              )
            ).rows;
      const limitedUntil = limited
        ? limitedUntilOf(inWindow.oldest?.getTime(), request.now, request.windowMs)
        : undefined;
      if (limitedUntil !== undefined || current.limited_until !== null)
        await client.query(`UPDATE ${campaigns} SET limited_until = $2 WHERE id = $1`, [
          request.campaignId,
          limitedUntil === undefined ? null : new Date(limitedUntil),
        ]);
      const result = claimed.map(recipientOf);
      return limitedUntil === undefined ? { recipients: result } : { recipients: result, limitedUntil };
    });
}
