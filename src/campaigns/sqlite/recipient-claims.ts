import type { SqliteDatabase } from "../../sqlite/index.js";
import { RECIPIENT_COLUMNS, type RecipientRow, recipientOf } from "../campaign-rows.js";
import { type ClaimCandidate, limitedUntilOf, placesLeft, planClaim } from "../claim-plan.js";
import type { CampaignStore, ClaimRequest, ClaimResult, RecoveryResult } from "../ports.js";
import { settlementOf } from "../settlement.js";

type Claims = Pick<CampaignStore, "claim" | "settle" | "recover">;

const R = "store_campaign_recipients";

/**
 * Claims, settles and recovers recipients. One connection in one process: each claim is one
 * IMMEDIATE transaction, so claims never interleave and the messaging limit needs no lock. A claim
 * is answered once `committed` says it is durable (a lost settle is recovered as `unknown`; a lost
 * claim of a message already sent is not, and would be sent again).
 */
export function createSqliteRecipientClaims(
  db: SqliteDatabase,
  committed: () => Promise<void> = async () => {},
): Claims {
  const campaignOfClaim = db.prepare<
    [string],
    { tenant_id: string; phone_number_id: string; state: string; limited_until: number | null }
  >("SELECT tenant_id, phone_number_id, state, limited_until FROM store_campaigns WHERE id = ?");
  const prune = db.prepare("DELETE FROM store_messaging_window WHERE phone_number_id = ? AND at <= ?");
  const windowOf = db.prepare<[string, number], { n: number; oldest: number | null }>(
    "SELECT count(*) AS n, min(at) AS oldest FROM store_messaging_window WHERE phone_number_id = ? AND at > ?",
  );
  const candidates = db.prepare<
    Record<string, unknown>,
    { seq: number; customer_id: string; suppressed: number; in_window: number }
  >(`SELECT r.seq, r.customer_id,
      EXISTS (SELECT 1 FROM store_suppressions s
              WHERE s.tenant_id = @tenantId AND s.customer_id = r.customer_id) AS suppressed,
      EXISTS (SELECT 1 FROM store_messaging_window w
              WHERE w.phone_number_id = @number AND w.customer_id = r.customer_id AND w.at > @cut) AS in_window
    FROM ${R} r
    WHERE r.campaign_id = @id AND r.state = 'pending' AND r.seq > @after AND r.not_before <= @now
      AND r.timezone NOT IN (SELECT value FROM json_each(@quiet))
    ORDER BY r.seq LIMIT @limit`);
  const skip = db.prepare(`UPDATE ${R} SET state = 'skipped', reason = 'opted_out'
    WHERE campaign_id = @id AND seq IN (SELECT value FROM json_each(@seqs))`);
  const take = db.prepare<Record<string, unknown>, RecipientRow>(`UPDATE ${R}
    SET state = 'sending', owner = @owner, lease_until = @leaseUntil, claimed_at = @now, reason = NULL
    WHERE campaign_id = @id AND seq IN (SELECT value FROM json_each(@seqs))
    RETURNING ${RECIPIENT_COLUMNS}`);
  // A customer keeps the place taken when its window began; only a lapsed one starts anew.
  const enter = db.prepare(`INSERT INTO store_messaging_window (phone_number_id, customer_id, at)
    SELECT @number, value, @now FROM json_each(@customers) WHERE true
    ON CONFLICT (phone_number_id, customer_id) DO UPDATE SET at = excluded.at
    WHERE store_messaging_window.at <= @cut`);
  const markLimited = db.prepare(
    "UPDATE store_campaigns SET limited_until = @until WHERE id = @id AND limited_until IS NOT @until",
  );
  const settle = db.prepare(`UPDATE ${R} SET state = @state, wamid = coalesce(@wamid, wamid),
      error_code = coalesce(@errorCode, error_code), reason = @reason, not_before = coalesce(@notBefore, not_before),
      attempts = attempts + @attempts, sent_at = coalesce(@sentAt, sent_at), failed_at = coalesce(@failedAt, failed_at),
      unknown_since = @unknownSince, owner = NULL, lease_until = NULL
    WHERE campaign_id = @id AND seq = @seq AND state = 'sending' AND owner = @owner`);
  const expire =
    db.prepare(`UPDATE ${R} SET state = 'unknown', unknown_since = @now, owner = NULL, lease_until = NULL
    WHERE state = 'sending' AND lease_until < @now`);
  // An unknown send of a cancelled campaign is not sent again.
  const resend = db.prepare<[number], { state: string }>(`UPDATE ${R} AS r
    SET state = CASE c.state WHEN 'cancelled' THEN 'skipped' ELSE 'pending' END,
        reason = CASE c.state WHEN 'cancelled' THEN 'cancelled' ELSE r.reason END,
        resends = r.resends + 1, unknown_since = NULL
    FROM store_campaigns c
    WHERE c.id = r.campaign_id AND r.state = 'unknown' AND r.unknown_since < ? AND r.status IS NULL
    RETURNING state`);

  const claim = db.transaction((request: ClaimRequest): ClaimResult => {
    const campaign = campaignOfClaim.get(request.campaignId);
    if (campaign?.state !== "running") return { recipients: [] };
    const number = campaign.phone_number_id;
    const cut = request.now - request.windowMs;
    prune.run(number, cut);
    const window = windowOf.get(number, cut) as { n: number; oldest: number | null };
    let places = placesLeft(request.messagingLimit, window.n);
    const chosen: ClaimCandidate[] = [];
    let held = false;
    let after = 0;
    // Skipped customers leave a page short of `limit`: read on until it is full or no one is due.
    while (chosen.length < request.limit && !held) {
      const wanted = request.limit - chosen.length;
      const page = candidates
        .all({
          tenantId: campaign.tenant_id,
          number,
          cut,
          id: request.campaignId,
          after,
          now: request.now,
          quiet: JSON.stringify(request.quietTimezones),
          limit: wanted,
        })
        .map((row) => ({
          seq: row.seq,
          customerId: row.customer_id,
          suppressed: row.suppressed === 1,
          inWindow: row.in_window === 1,
        }));
      const plan = planClaim(page, wanted, places);
      if (plan.skip.length > 0) skip.run({ id: request.campaignId, seqs: JSON.stringify(plan.skip) });
      chosen.push(...plan.claim);
      places -= plan.placesTaken;
      held = plan.held;
      if (page.length < wanted) break;
      after = page.at(-1)?.seq ?? after;
    }
    const rows =
      chosen.length === 0
        ? []
        : take.all({
            id: request.campaignId,
            owner: request.owner,
            leaseUntil: request.now + request.leaseMs,
            now: request.now,
            seqs: JSON.stringify(chosen.map((candidate) => candidate.seq)),
          });
    if (chosen.length > 0)
      enter.run({
        number,
        now: request.now,
        cut,
        customers: JSON.stringify(chosen.map((candidate) => candidate.customerId)),
      });
    const limitedUntil = held
      ? limitedUntilOf(window.oldest ?? undefined, request.now, request.windowMs)
      : null;
    markLimited.run({ id: request.campaignId, until: limitedUntil });
    const recipients = rows.map(recipientOf).sort((a, b) => a.seq - b.seq);
    return limitedUntil === null ? { recipients } : { recipients, limitedUntil };
  });
  const recover = db.transaction((now: number, unknownGraceMs: number): RecoveryResult => {
    const resent = resend.all(now - unknownGraceMs).filter((row) => row.state === "pending").length;
    return { unknown: expire.run({ now }).changes, resent };
  });

  return {
    claim: async (request) => {
      const claimed = claim.immediate(request);
      if (claimed.recipients.length > 0) await committed();
      return claimed;
    },
    settle: async (campaignId, seq, owner, outcome, now) =>
      settle.run({ ...settlementOf(outcome, now), id: campaignId, seq, owner }).changes === 1,
    recover: async (now, unknownGraceMs) => recover.immediate(now, unknownGraceMs),
  };
}
