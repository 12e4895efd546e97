import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createNumberStandingRefresh } from "../../src/campaigns/index.js";
import { createSqliteCampaignStore } from "../../src/campaigns/sqlite/index.js";
import { createLogger } from "../../src/observability/index.js";
import { openSqliteDatabase } from "../../src/sqlite/index.js";
import { createGraphApiClient } from "../../src/whatsapp/index.js";
import { GRAPH_TOKEN, PHONE_NUMBER_ID, type RunningFake, startFake } from "../support/fake-graph.js";

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function setUp(fakeOptions: Parameters<typeof startFake>[0], token = GRAPH_TOKEN) {
  const dir = mkdtempSync(join(tmpdir(), "ss-standing-"));
  const db = openSqliteDatabase({ dataDir: dir });
  const store = createSqliteCampaignStore(db);
  const fake: RunningFake = await startFake({ phoneNumberIds: [PHONE_NUMBER_ID], ...fakeOptions });
  const graph = createGraphApiClient({}, { baseUrl: fake.url, version: "v25.0", token, timeoutMs: 2_000 });
  closers.push(
    () => rmSync(dir, { recursive: true, force: true }),
    () => {
      db.close();
    },
    () => fake.fake.close(),
    () => graph.close(),
  );
  const refresh = createNumberStandingRefresh({
    standings: store.standings,
    numbers: [{ phoneNumberId: PHONE_NUMBER_ID, read: () => graph.getPhoneNumberStanding(PHONE_NUMBER_ID) }],
    logger: createLogger({ level: "silent" }),
    now: Date.now,
  });
  return { store, fake, refresh };
}

describe("the numbers' standing read from Meta's Graph fields", () => {
  it("keeps the messaging limit and quality Meta gives for the number", async () => {
    const { store, fake, refresh } = await setUp({ messagingLimit: { uniqueRecipients: 2_000 } });
    await refresh();
    expect(await store.standings.get(PHONE_NUMBER_ID)).toMatchObject({
      messagingLimit: 2_000,
      quality: "GREEN",
    });
    // Not a media lookup: the fake's media requests stay empty.
    expect(fake.fake.requests().filter((r) => r.kind === "media-url")).toEqual([]);
  });

  it("reads an unlimited tier as no limit", async () => {
    const { store, refresh } = await setUp({});
    await refresh();
    const standing = await store.standings.get(PHONE_NUMBER_ID);
    expect(standing?.quality).toBe("GREEN");
    expect(standing?.messagingLimit).toBeUndefined();
  });

  it("keeps what it knew when Meta refuses the call (a bad token), without throwing", async () => {
    const { store, refresh } = await setUp({}, "not-the-token");
    await store.standings.set({
      phoneNumberId: PHONE_NUMBER_ID,
      quality: "YELLOW",
      messagingLimit: 250,
      updatedAt: 1,
    });
    await refresh();
    expect(await store.standings.get(PHONE_NUMBER_ID)).toMatchObject({
      quality: "YELLOW",
      messagingLimit: 250,
    });
  });
});
