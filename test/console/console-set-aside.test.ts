import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/index.js";
import { createSqliteTurnJournal } from "../../src/conversation/embedded/index.js";
import { openSqliteDatabase, type SqliteDatabase } from "../../src/sqlite/index.js";
import { createSqliteMessageStore } from "../../src/store/sqlite/index.js";
import type { InboundMessage } from "../../src/whatsapp/index.js";
import { consoleAppOn } from "../support/console-app.js";

function message(tenantId: string, customer: string, text: string): InboundMessage {
  return {
    tenantId,
    phoneNumberId: "106540352242922",
    wabaId: "1",
    conversationKey: `${tenantId}:106540352242922:${customer}`,
    wamid: `wamid.${tenantId}.${customer}`,
    timestamp: 1_796_000_000,
    receivedAt: 1_796_000_000_000,
    type: "text",
    customer: { waId: customer },
    text,
    content: { body: text },
  } as InboundMessage;
}

describe("console API: turns set aside", () => {
  let dir: string;
  let db: SqliteDatabase;
  let app: FastifyInstance;
  let cookie: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "ss-console-aside-"));
    db = openSqliteDatabase({ dataDir: dir });
    const store = createSqliteMessageStore(db);
    const journal = createSqliteTurnJournal({ db });
    for (const [tenant, customer, text] of [
      ["shop", "2348000000001", "my order never reach"],
      ["bank", "2348000000002", "my transfer never enter"],
    ] as const) {
      const turn = message(tenant, customer, text);
      await journal.begin(turn.conversationKey, { turnId: `turn-${tenant}`, messages: [turn], startedAt: 1 });
      await journal.setAside(turn.conversationKey, `turn-${tenant}`, "LLM answered 500 five times");
    }
    const file = join(dir, "tenants.json");
    const tenant = (id: string, number: string) => ({
      id,
      appSecretEnv: "S",
      verifyTokenEnv: "V",
      phoneNumberIds: [number],
    });
    writeFileSync(
      file,
      JSON.stringify({ tenants: [tenant("shop", "106540352242922"), tenant("bank", "106540352242923")] }),
    );
    const config = loadConfig({
      env: { SHARPSHARP_CONFIG: file, S: "s", V: "v", SHARPSHARP_DATA_DIR: dir },
      cwd: dir,
    });
    ({ app, cookie } = await consoleAppOn({
      db,
      store,
      config,
      operator: {
        email: "shop@agent.example",
        password: "shop agent pass",
        grants: [{ tenantId: "shop", role: "agent" }],
      },
      turnJournal: journal,
    }));
  });

  afterAll(async () => {
    await app?.close();
    db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("lists the operator's tenants' set-aside turns with why, and none of another tenant's", async () => {
    const response = await app.inject({ method: "GET", url: "/api/v1/turns/set-aside", headers: { cookie } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      items: [
        expect.objectContaining({
          conversationKey: "shop:106540352242922:2348000000001",
          turnId: "turn-shop",
          reason: "LLM answered 500 five times",
          messages: 1,
          firstText: "my order never reach",
        }),
      ],
    });
    const other = await app.inject({
      method: "GET",
      url: "/api/v1/turns/set-aside?tenant=bank",
      headers: { cookie },
    });
    expect(other.statusCode).toBe(404);
  });
});
