import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type Database from "better-sqlite3";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { startAll } from "../../src/app/index.js";
import { createLogger } from "../../src/observability/index.js";
import type { MessageStore } from "../../src/store/index.js";
import { createPostgresMessageStore } from "../../src/store/postgres/index.js";
import { embeddedEnvConfig, postSignedWebhook } from "../support/embedded-config.js";
import { eventually } from "../support/eventually.js";
import { PHONE_NUMBER_ID, type RunningFake, startFake } from "../support/fake-graph.js";
import { openLiveSqliteStore } from "../support/live-sqlite-store.js";
import { TEST_DATABASE_URL } from "../support/postgres.js";
import { textWebhook } from "../support/webhook-builder.js";

const silent = createLogger({ level: "silent" });
const dirs: string[] = [];
let fake: RunningFake | undefined;
afterEach(async () => {
  await fake?.fake.close();
  fake = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function converse(
  extraEnv: Record<string, string>,
  customer: string,
  read: (dataDir: string) => MessageStore | Promise<MessageStore>,
) {
  fake = await startFake();
  const f = fake;
  const dataDir = mkdtempSync(join(tmpdir(), "ss-log-"));
  dirs.push(dataDir);
  const config = embeddedEnvConfig(f.url, dataDir, {
    WHATSAPP_PHONE_NUMBER_ID: PHONE_NUMBER_ID,
    ...extraEnv,
  });
  const running = await startAll(config, { logger: silent });
  try {
    const body = textWebhook([
      [
        {
          wamid: `wamid.log.${customer}`,
          from: customer,
          timestamp: Math.floor(Date.now() / 1000),
          text: "hi",
        },
      ],
    ]);
    const response = await postSignedWebhook(running.url, body);
    expect(response.status).toBe(200);
    await eventually(() => f.fake.messages().length === 1, 5000);
    const store = await read(dataDir);
    let found: Awaited<ReturnType<MessageStore["searchByCustomer"]>> = [];
    await eventually(async () => {
      found = await store.searchByCustomer("default", customer, 5);
      return found.length === 1 && found[0]?.lastMessage?.direction === "outbound";
    }, 5000);
    const conversation = found[0];
    if (conversation === undefined) throw new Error("no conversation logged");
    const page = await store.messagesOf(conversation.conversationKey, { limit: 10 });
    return page.items.map((item) => ({ direction: item.direction, text: item.text }));
  } finally {
    await running.close();
  }
}

describe("the message log in embedded mode", () => {
  it("keeps each customer message and each reply in the SQLite file", async () => {
    const customer = "2348055500001";
    let db: Database.Database | undefined;
    // The gateway runs in this thread: the second connection waits for its lock without blocking it.
    const lines = await converse({}, customer, async (dataDir) => {
      const live = await openLiveSqliteStore(join(dataDir, "sharpsharp.db"));
      db = live.db;
      return live.store;
    });
    db?.close();
    expect(lines.map((line) => line.direction)).toEqual(["outbound", "inbound"]);
    expect(lines[1]?.text).toBe("hi");
    expect(lines[0]?.text).toMatch(/How far/);
  }, 20_000);

  it("keeps them in PostgreSQL when DATABASE_URL is set (migrated at start)", async () => {
    const customer = `23480${String(Date.now()).slice(-8)}`;
    const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL });
    try {
      const lines = await converse({ DATABASE_URL: TEST_DATABASE_URL }, customer, () =>
        createPostgresMessageStore({ pool }),
      );
      expect(lines.map((line) => line.direction)).toEqual(["outbound", "inbound"]);
    } finally {
      await pool.end();
    }
  }, 20_000);
});
