import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSqliteDatabase, type SqliteDatabase } from "../../src/sqlite/index.js";
import { resolveConversationQuery } from "../../src/store/conversation-query.js";
import type { ConversationView, MessageStore } from "../../src/store/index.js";
import { sqliteConversationPageSql } from "../../src/store/sqlite/find-conversations.js";
import { createSqliteMessageStore } from "../../src/store/sqlite/index.js";
import { strictlyNewestFirst, walkConversations } from "../support/console-paging.js";

const CONVERSATIONS = 100_000;
const T0 = Date.UTC(2026, 0, 10, 12, 0, 0);
// Every 7th conversation is in human mode; three conversations share each millisecond of activity.
const HUMAN = Math.ceil(CONVERSATIONS / 7);

describe("SQLite console lists over 100,000 conversations", () => {
  let dir: string;
  let db: SqliteDatabase;
  let store: MessageStore;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "ss-store-paging-"));
    db = openSqliteDatabase({ dataDir: dir });
    store = createSqliteMessageStore(db);
    // One statement each, straight into the tables: 100,000 API calls would test the writes instead.
    db.exec(`
      WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${CONVERSATIONS - 1})
      INSERT INTO store_conversations (conversation_key, tenant_id, phone_number_id, customer_id, mode,
                                       last_activity_at, last_inbound_at, awaiting_reply_since, created_at)
      SELECT 'acme:106540352242922:234' || printf('%010d', i), 'acme', '106540352242922', '234' || printf('%010d', i),
             CASE WHEN i % 7 = 0 THEN 'human' ELSE 'bot' END, ${T0} + i / 3, ${T0} + i / 3, ${T0} + i / 3, ${T0}
      FROM n;
      INSERT INTO store_messages (tenant_id, conversation_key, direction, wamid, customer_id, type, text, at)
      SELECT tenant_id, conversation_key, 'inbound', 'wamid.' || customer_id, customer_id, 'text', 'hello', last_activity_at
      FROM store_conversations;
      -- Another tenant's human conversations, newer than all of acme's: never in acme's lists.
      WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 999)
      INSERT INTO store_conversations (conversation_key, tenant_id, phone_number_id, customer_id, mode,
                                       last_activity_at, created_at)
      SELECT 'beta:1:' || i, 'beta', '1', '' || i, 'human', ${T0 + CONVERSATIONS}, ${T0} FROM n;
      ANALYZE;
    `);
  });

  afterAll(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ["all", CONVERSATIONS],
    ["needs_human", HUMAN],
  ] as [ConversationView, number][])(
    "pages view %s by 500 on an index, without a sort, duplicates or gaps",
    async (view, expected) => {
      const query = { tenantIds: ["acme"], view };
      const middle = { atMs: T0 + Math.floor(50_000 / 3), tieBreaker: "acme:106540352242922:2340000050000" };
      for (const after of [undefined, middle]) {
        const page = sqliteConversationPageSql("acme", resolveConversationQuery(query), after, 501);
        const plan = (
          db.prepare(`EXPLAIN QUERY PLAN ${page.sql}`).all(...page.params) as { detail: string }[]
        ).map((row) => row.detail);
        expect(plan[0]).toMatch(/^SEARCH c USING INDEX store_conversations_tenant_(activity|mode_activity) /);
        expect(plan.filter((detail) => /^SCAN /.test(detail))).toEqual([]);
        expect(plan.join("\n")).not.toMatch(/TEMP B-TREE/);
      }

      const started = performance.now();
      const { conversations, pages } = await walkConversations(store, query, 500);
      const elapsed = performance.now() - started;
      expect(conversations).toHaveLength(expected);
      expect(pages).toBe(Math.ceil(expected / 500));
      expect(new Set(conversations.map((c) => c.conversationKey)).size).toBe(expected);
      expect(strictlyNewestFirst(conversations)).toBe(true);
      expect(conversations.every((c) => c.tenantId === "acme")).toBe(true);
      if (view === "needs_human") expect(conversations.every((c) => c.mode === "human")).toBe(true);
      expect(conversations[0]?.lastMessage?.preview).toBe("hello");
      expect(elapsed).toBeLessThan(20_000);
    },
    30_000,
  );
});
