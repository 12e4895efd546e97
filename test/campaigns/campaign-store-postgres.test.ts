import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { CampaignRecipient, CampaignStore } from "../../src/campaigns/index.js";
import {
  createPostgresCampaignStore,
  openPostgresCampaignStore,
  type PostgresCampaignStore,
} from "../../src/campaigns/postgres/index.js";
import { audience, claimOf, definition, runningCampaign, T0 } from "../contracts/campaign-fixtures.js";
import { describeCampaignStoreContract } from "../contracts/campaign-store.contract.js";
import { createTestPool, dropSchema, skipWithoutPostgres, uniqueSchema } from "../support/postgres.js";

// Pools connect lazily, so creating them without Postgres is harmless.
const pool = createTestPool();
const otherPool = createTestPool();
const schema = uniqueSchema("campaigns");

/** Claims `campaignId` in batches of `limit` until a claim answers none; every recipient it got. */
async function claimAll(store: CampaignStore, campaignId: string, owner: string, over = {}) {
  const got: CampaignRecipient[] = [];
  for (;;) {
    const { recipients } = await store.claim(claimOf(campaignId, { owner, limit: 13, ...over }));
    if (recipients.length === 0) return got;
    got.push(...recipients);
  }
}

/** Empties the campaign tables: each test starts from none. */
async function empty() {
  await pool.query(
    ["campaigns", "campaign_recipients", "messaging_window", "suppressions", "number_standings"]
      .map((table) => `TRUNCATE "${schema}".${table}`)
      .join("; "),
  );
}

describe.skipIf(skipWithoutPostgres)("PostgreSQL campaign store", () => {
  let store: PostgresCampaignStore;
  let other: PostgresCampaignStore;
  beforeAll(async () => {
    store = await openPostgresCampaignStore({ pool, schema });
    other = createPostgresCampaignStore({ pool: otherPool, schema });
  });
  afterAll(async () => {
    await dropSchema(pool, schema);
    await Promise.all([pool.end(), otherPool.end()]);
  });

  // One schema for the file, migrated once; each test (the contract's too) starts from empty tables.
  beforeEach(empty);

  describeCampaignStoreContract("postgres", async () => {
    return { store, suppressions: store.suppressions, standings: store.standings };
  });

  it("hands each recipient to exactly one of two processes claiming the same campaign at once", async () => {
    const campaign = await runningCampaign(store, audience(300), { clientKey: "race" });
    const [mine, theirs] = await Promise.all([
      claimAll(store, campaign.id, "process-1"),
      claimAll(other, campaign.id, "process-2"),
    ]);
    const seqs = [...(mine ?? []), ...(theirs ?? [])].map((r) => r.seq).sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    expect(mine?.length).toBeGreaterThan(0);
    expect(theirs?.length).toBeGreaterThan(0);
  });

  it("lets two processes together take no more than the number's messaging limit", async () => {
    const first = await runningCampaign(store, audience(120), { clientKey: "limit-a" });
    const second = await runningCampaign(store, audience(120, 1_000), { clientKey: "limit-b" });
    const limited = { messagingLimit: 100, now: T0 + 5_000 };
    const got = await Promise.all([
      claimAll(store, first.id, "process-1", limited),
      claimAll(other, second.id, "process-2", limited),
      claimAll(other, first.id, "process-3", limited),
      claimAll(store, second.id, "process-4", limited),
    ]);
    expect(got.flat()).toHaveLength(100);
    const window = await pool.query(`SELECT count(*)::int AS n FROM "${schema}".messaging_window`);
    expect(window.rows[0]?.n).toBe(100);
  });

  it("creates a campaign once when two processes create it with the same key at once", async () => {
    const def = definition({ clientKey: "twice" });
    const [a, b] = await Promise.all([
      store.create(def, audience(50), T0),
      other.create(def, audience(50), T0),
    ]);
    expect([a.created, b.created].sort()).toEqual([false, true]);
    expect(a.campaign.id).toBe(b.campaign.id);
    expect((await store.report("acme", a.campaign.id, T0))?.pending).toBe(50);
  });
});
