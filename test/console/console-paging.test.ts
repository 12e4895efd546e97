import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/index.js";
import { openSqliteDatabase, type SqliteDatabase } from "../../src/sqlite/index.js";
import { createSqliteMessageStore } from "../../src/store/sqlite/index.js";
import { consoleAppOn } from "../support/console-app.js";

const CONVERSATIONS = 100_000;
const T0 = Date.UTC(2026, 0, 10, 12, 0, 0);

describe("console API: paging over 100,000 conversations", () => {
  let dir: string;
  let db: SqliteDatabase;
  let app: FastifyInstance;
  let cookie: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "ss-console-paging-"));
    db = openSqliteDatabase({ dataDir: dir });
    const store = createSqliteMessageStore(db);
    db.exec(`
      WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${CONVERSATIONS - 1})
      INSERT INTO store_conversations (conversation_key, tenant_id, phone_number_id, customer_id, mode,
                                       last_activity_at, last_inbound_at, awaiting_reply_since, created_at)
      SELECT 'default:106540352242922:234' || printf('%010d', i), 'default', '106540352242922',
             '234' || printf('%010d', i), CASE WHEN i % 5 = 0 THEN 'human' ELSE 'bot' END,
             ${T0} + i / 2, ${T0} + i / 2, ${T0} + i / 2, ${T0}
      FROM n;
      ANALYZE;
    `);
    const config = loadConfig({
      env: { WHATSAPP_APP_SECRET: "s", WHATSAPP_VERIFY_TOKEN: "v", SHARPSHARP_DATA_DIR: dir },
      cwd: dir,
    });
    ({ app, cookie } = await consoleAppOn({
      db,
      store,
      config,
      operator: {
        email: "pager@shop.example",
        password: "paging password",
        grants: [{ tenantId: "*", role: "agent" }],
      },
    }));
  });

  afterAll(async () => {
    await app?.close();
    db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ["all", CONVERSATIONS],
    ["needs_human", CONVERSATIONS / 5],
  ])(
    "walks view %s by 200 through the API with keyset cursors: every conversation once, newest first",
    async (view, expected) => {
      const seen = new Set<string>();
      let previous = Number.POSITIVE_INFINITY;
      let ordered = true;
      let before: string | undefined;
      let pages = 0;
      const started = performance.now();
      do {
        const query = new URLSearchParams({
          view,
          limit: "200",
          ...(before === undefined ? {} : { before }),
        });
        const response = await app.inject({
          method: "GET",
          url: `/api/v1/conversations?${query}`,
          headers: { cookie },
        });
        expect(response.statusCode).toBe(200);
        const page = response.json() as {
          items: { conversationKey: string; lastActivityAt: number; mode: string }[];
          next?: string;
        };
        for (const item of page.items) {
          seen.add(item.conversationKey);
          if (item.lastActivityAt > previous) ordered = false;
          previous = item.lastActivityAt;
          if (view === "needs_human" && item.mode !== "human") ordered = false;
        }
        before = page.next;
        pages += 1;
      } while (before !== undefined);
      const elapsed = performance.now() - started;
      expect(seen.size).toBe(expected);
      expect(pages).toBe(Math.ceil(expected / 200));
      expect(ordered).toBe(true);
      process.stdout.write(
        `console API paging, view ${view}: ${expected} conversations in ${pages} pages, ${elapsed.toFixed(0)} ms\n`,
      );
    },
  );

  it("answers a forged cursor with 400, not a wrong page", async () => {
    const response = await app.inject({
      method: "GET",
      url: "/api/v1/conversations?before=bm90LWEtY3Vyc29y",
      headers: { cookie },
    });
    expect(response.statusCode).toBe(400);
  });
});
