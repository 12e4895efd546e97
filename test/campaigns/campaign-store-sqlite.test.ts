import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { createSqliteCampaignStore } from "../../src/campaigns/sqlite/index.js";
import { batchWritesPerTick } from "../../src/sqlite/index.js";
import { createSqliteMessageStore } from "../../src/store/sqlite/index.js";
import { audience, claimOf, runningCampaign, T0 } from "../contracts/campaign-fixtures.js";
import { describeCampaignStoreContract } from "../contracts/campaign-store.contract.js";
import { sqlitePerTest } from "../support/contract-backends.js";

describe("SQLite campaign store", () => {
  const backend = sqlitePerTest();

  // A fresh file per test, opened as embedded mode opens it.
  describeCampaignStoreContract("sqlite", async () => {
    const store = createSqliteCampaignStore(backend.open());
    return { store, suppressions: store.suppressions, standings: store.standings };
  });

  it("shares the file with the message store, whichever of them migrates first", async () => {
    const db = backend.open();
    const campaigns = createSqliteCampaignStore(db);
    createSqliteMessageStore(db);
    const { created } = await campaigns.create(
      {
        tenantId: "acme",
        phoneNumberId: "1",
        name: "n",
        clientKey: "k",
        timezone: "UTC",
        template: { name: "t", language: "en", category: "utility" },
      },
      audience(2),
      T0,
    );
    expect(created).toBe(true);
    expect(db.prepare("SELECT max(version) FROM store_migrations").pluck().get()).toBe(5);
  });

  it("claims inside the embedded gateway's per-tick write batches, committed with them", async () => {
    const db = backend.open();
    const errors: unknown[] = [];
    const ticks = batchWritesPerTick(db, (error) => errors.push(error));
    const store = createSqliteCampaignStore(db);
    const campaign = await runningCampaign(store, audience(3));
    const [a, b] = await Promise.all([
      store.claim(claimOf(campaign.id, { owner: "a", limit: 2 })),
      store.claim(claimOf(campaign.id, { owner: "b", limit: 2 })),
    ]);
    await ticks.committed();
    expect(a?.recipients.map((r) => r.seq)).toEqual([1, 2]);
    expect(b?.recipients.map((r) => r.seq)).toEqual([3]);
    expect(db.inTransaction).toBe(false);
    expect(
      db.prepare("SELECT count(*) FROM store_campaign_recipients WHERE state = 'sending'").pluck().get(),
    ).toBe(3);
    expect(errors).toEqual([]);
  });

  it("answers a claim only once it is committed, so a kill -9 after the send cannot undo it", async () => {
    const db = backend.open();
    const ticks = batchWritesPerTick(db, () => {});
    const store = createSqliteCampaignStore(db, { claimCommitted: () => ticks.committed() });
    const campaign = await runningCampaign(store, audience(3));
    await ticks.committed();
    // What survives a kill -9 is what another connection sees: the batch of this turn is not.
    const survivor = new Database(db.name, { readonly: true });
    try {
      const claimed = await store.claim(claimOf(campaign.id, { limit: 2 }));
      expect(claimed.recipients).toHaveLength(2);
      expect(
        survivor
          .prepare("SELECT count(*) FROM store_campaign_recipients WHERE state = 'sending'")
          .pluck()
          .get(),
      ).toBe(2);
    } finally {
      survivor.close();
    }
  });

  it("turns a database failure into a rejection, never a throw at the call site", async () => {
    const db = backend.open();
    const store = createSqliteCampaignStore(db);
    db.exec("DROP TABLE store_campaigns");
    const pending = store.list("acme");
    expect(pending).toBeInstanceOf(Promise);
    await expect(pending).rejects.toThrow(/no such table/);
  });
});
