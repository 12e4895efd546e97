import type { SqliteDatabase } from "../../sqlite/index.js";
import { audienceRows } from "../audience-rows.js";
import { type CampaignRow, campaignOf } from "../campaign-rows.js";
import type { AudienceMember, Campaign, CampaignDefinition, CampaignState } from "../campaign-types.js";
import type { CampaignStore } from "../ports.js";

type Lifecycle = Pick<
  CampaignStore,
  "create" | "get" | "list" | "transition" | "runnable" | "runningOnNumber" | "completeIfDone"
>;

/** Creating campaigns and moving them between states; each change one IMMEDIATE transaction. */
export function createSqliteCampaignLifecycle(db: SqliteDatabase, newId: () => string): Lifecycle {
  const byKey = db.prepare<[string, string], CampaignRow>(
    "SELECT * FROM store_campaigns WHERE tenant_id = ? AND client_key = ?",
  );
  const byId = db.prepare<[string, string], CampaignRow>(
    "SELECT * FROM store_campaigns WHERE tenant_id = ? AND id = ?",
  );
  const all = db.prepare<[], CampaignRow>("SELECT * FROM store_campaigns ORDER BY created_at DESC, id DESC");
  const ofTenant = db.prepare<[string], CampaignRow>(
    "SELECT * FROM store_campaigns WHERE tenant_id = ? ORDER BY created_at DESC, id DESC",
  );
  const insertCampaign = db.prepare(`INSERT INTO store_campaigns (id, tenant_id, phone_number_id, name,
      client_key, template, start_at, timezone, quiet_start, quiet_end, send_rate_mps, state, audience_size,
      created_at, updated_at)
    VALUES (@id, @tenantId, @phoneNumberId, @name, @clientKey, @template, @startAt, @timezone, @quietStart,
      @quietEnd, @sendRateMps, 'draft', @audienceSize, @now, @now)`);
  const insertRecipient = db.prepare(`INSERT INTO store_campaign_recipients
      (campaign_id, seq, customer_id, kind, params, timezone, state, reason)
    VALUES (@campaignId, @seq, @customerId, @kind, @params, @timezone, @state, @reason)`);
  const move = db.prepare<Record<string, unknown>, CampaignRow>(`UPDATE store_campaigns
    SET state = @to, state_reason = @reason, updated_at = @now
    WHERE tenant_id = @tenantId AND id = @id AND state IN (SELECT value FROM json_each(@from))
    RETURNING *`);
  const skipPending = db.prepare(`UPDATE store_campaign_recipients SET state = 'skipped', reason = 'cancelled'
    WHERE campaign_id = ? AND state = 'pending'`);
  const startDue = db.prepare(`UPDATE store_campaigns SET state = 'running', updated_at = @now
    WHERE state = 'scheduled' AND (start_at IS NULL OR start_at <= @now)`);
  const running = db.prepare<[], CampaignRow>(
    "SELECT * FROM store_campaigns WHERE state = 'running' ORDER BY created_at, id",
  );
  const runningOn = db.prepare<[string], CampaignRow>(
    "SELECT * FROM store_campaigns WHERE state = 'running' AND phone_number_id = ? ORDER BY created_at, id",
  );
  const complete = db.prepare(`UPDATE store_campaigns SET state = 'completed', updated_at = @now
    WHERE id = @id AND state = 'running' AND NOT EXISTS (
      SELECT 1 FROM store_campaign_recipients
      WHERE campaign_id = @id AND state IN ('pending', 'sending', 'unknown'))`);

  const create = db.transaction(
    (definition: CampaignDefinition, audience: readonly AudienceMember[], now: number) => {
      const existing = byKey.get(definition.tenantId, definition.clientKey);
      if (existing !== undefined) return { campaign: campaignOf(existing), created: false };
      const id = newId();
      insertCampaign.run({
        id,
        tenantId: definition.tenantId,
        phoneNumberId: definition.phoneNumberId,
        name: definition.name,
        clientKey: definition.clientKey,
        template: JSON.stringify(definition.template),
        startAt: definition.startAt ?? null,
        timezone: definition.timezone,
        quietStart: definition.quietHours?.start ?? null,
        quietEnd: definition.quietHours?.end ?? null,
        sendRateMps: definition.sendRateMps ?? null,
        audienceSize: audience.length,
        now,
      });
      for (const row of audienceRows(audience, definition.timezone))
        insertRecipient.run({ campaignId: id, ...row });
      return { campaign: campaignOf(byId.get(definition.tenantId, id) as CampaignRow), created: true };
    },
  );
  const transition = db.transaction(
    (
      tenantId: string,
      id: string,
      from: readonly CampaignState[],
      to: CampaignState,
      now: number,
      reason: string | null,
    ): Campaign | undefined => {
      const row = move.get({ tenantId, id, from: JSON.stringify(from), to, now, reason });
      if (row === undefined) return undefined;
      if (to === "cancelled") skipPending.run(id);
      return campaignOf(row);
    },
  );

  return {
    create: async (definition, audience, now) => create.immediate(definition, audience, now),
    get: async (tenantId, campaignId) => {
      const row = byId.get(tenantId, campaignId);
      return row === undefined ? undefined : campaignOf(row);
    },
    list: async (tenantId) => (tenantId === undefined ? all.all() : ofTenant.all(tenantId)).map(campaignOf),
    transition: async (tenantId, campaignId, from, to, now, reason) =>
      transition.immediate(tenantId, campaignId, from, to, now, reason ?? null),
    runnable: async (now) => {
      startDue.run({ now });
      return running.all().map(campaignOf);
    },
    runningOnNumber: async (phoneNumberId) => runningOn.all(phoneNumberId).map(campaignOf),
    completeIfDone: async (campaignId, now) => complete.run({ id: campaignId, now }).changes === 1,
  };
}
