import type { Pool, PoolClient } from "pg";
import { type TableNames, withTransaction } from "../../store/postgres/index.js";
import { type AudienceRow, audienceRows } from "../audience-rows.js";
import { type CampaignRow, campaignOf } from "../campaign-rows.js";
import type { CampaignStore } from "../ports.js";

type Lifecycle = Pick<
  CampaignStore,
  "create" | "get" | "list" | "transition" | "runnable" | "runningOnNumber" | "completeIfDone"
>;

/** Audience rows per INSERT: a million-customer audience is 200 statements in one transaction. */
const CHUNK = 5_000;

/** Creating campaigns and moving them between states. */
export function createPostgresCampaignLifecycle(
  pool: Pool,
  tables: TableNames,
  newId: () => string,
): Lifecycle {
  const { campaigns, campaignRecipients: recipients } = tables;

  const insertAudience = async (client: PoolClient, campaignId: string, rows: readonly AudienceRow[]) => {
    for (let from = 0; from < rows.length; from += CHUNK) {
      const chunk = rows.slice(from, from + CHUNK);
      await client.query(
        `INSERT INTO ${recipients} (campaign_id, seq, customer_id, kind, params, timezone, state, reason)
         SELECT $1, u.seq, u.customer_id, u.kind, u.params::jsonb, u.timezone, u.state, u.reason
         FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
           AS u(seq, customer_id, kind, params, timezone, state, reason)`,
        [
          campaignId,
          chunk.map((row) => row.seq),
          chunk.map((row) => row.customerId),
          chunk.map((row) => row.kind),
          chunk.map((row) => row.params),
          chunk.map((row) => row.timezone),
          chunk.map((row) => row.state),
          chunk.map((row) => row.reason),
        ],
      );
    }
  };

  return {
    create: (definition, audience, now) =>
      withTransaction(pool, async (client) => {
        // A create racing this one with the same key waits here for it, then finds its campaign.
        const inserted = await client.query<CampaignRow>(
          `INSERT INTO ${campaigns} (id, tenant_id, phone_number_id, name, client_key, template, start_at, timezone,
             quiet_start, quiet_end, send_rate_mps, state, audience_size, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $10, $11, 'draft', $12, $13, $13)
           ON CONFLICT (tenant_id, client_key) DO NOTHING
           RETURNING *`,
          [
            newId(),
            definition.tenantId,
            definition.phoneNumberId,
            definition.name,
            definition.clientKey,
            JSON.stringify(definition.template),
            definition.startAt === undefined ? null : new Date(definition.startAt),
            definition.timezone,
            definition.quietHours?.start ?? null,
            definition.quietHours?.end ?? null,
            definition.sendRateMps ?? null,
            audience.length,
            new Date(now),
          ],
        );
        const made = inserted.rows[0];
        if (made === undefined) {
          const existing = await client.query<CampaignRow>(
            `SELECT * FROM ${campaigns} WHERE tenant_id = $1 AND client_key = $2`,
            [definition.tenantId, definition.clientKey],
          );
          return { campaign: campaignOf(existing.rows[0] as CampaignRow), created: false };
        }
        await insertAudience(client, made.id, audienceRows(audience, definition.timezone));
        return { campaign: campaignOf(made), created: true };
      }),

    async get(tenantId, campaignId) {
      const result = await pool.query<CampaignRow>(
        `SELECT * FROM ${campaigns} WHERE tenant_id = $1 AND id = $2`,
        [tenantId, campaignId],
      );
      const row = result.rows[0];
      return row === undefined ? undefined : campaignOf(row);
    },

    async list(tenantId) {
      const result =
        tenantId === undefined
          ? await pool.query<CampaignRow>(`SELECT * FROM ${campaigns} ORDER BY created_at DESC, id DESC`)
          : await pool.query<CampaignRow>(
              `SELECT * FROM ${campaigns} WHERE tenant_id = $1 ORDER BY created_at DESC, id DESC`,
              [tenantId],
            );
      return result.rows.map(campaignOf);
    },

    transition: (tenantId, campaignId, from, to, now, reason) =>
      withTransaction(pool, async (client) => {
        const moved = await client.query<CampaignRow>(
          `UPDATE ${campaigns} SET state = $4, state_reason = $5, updated_at = $6
           WHERE tenant_id = $1 AND id = $2 AND state = ANY($3::text[])
           RETURNING *`,
          [tenantId, campaignId, [...from], to, reason ?? null, new Date(now)],
        );
        const row = moved.rows[0];
        if (row === undefined) return undefined;
        if (to === "cancelled")
          await client.query(
            `UPDATE ${recipients} SET state = 'skipped', reason = 'cancelled' WHERE campaign_id = $1 AND state = 'pending'`,
            [campaignId],
          );
        return campaignOf(row);
      }),

    async runnable(now) {
      await pool.query(
        `UPDATE ${campaigns} SET state = 'running', updated_at = $1
         WHERE state = 'scheduled' AND (start_at IS NULL OR start_at <= $1)`,
        [new Date(now)],
      );
      const result = await pool.query<CampaignRow>(
        `SELECT * FROM ${campaigns} WHERE state = 'running' ORDER BY created_at, id`,
      );
      return result.rows.map(campaignOf);
    },

    async runningOnNumber(phoneNumberId) {
      const result = await pool.query<CampaignRow>(
        `SELECT * FROM ${campaigns} WHERE state = 'running' AND phone_number_id = $1 ORDER BY created_at, id`,
        [phoneNumberId],
      );
      return result.rows.map(campaignOf);
    },

    async completeIfDone(campaignId, now) {
      const result = await pool.query(
        `UPDATE ${campaigns} SET state = 'completed', updated_at = $2
         WHERE id = $1 AND state = 'running' AND NOT EXISTS (
           SELECT 1 FROM ${recipients} WHERE campaign_id = $1 AND state IN ('pending', 'sending', 'unknown'))`,
        [campaignId, new Date(now)],
      );
      return result.rowCount === 1;
    },
  };
}
