import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConversationQuery } from "../../src/store/conversation-query.js";
import type { ConversationView, MessageStore } from "../../src/store/index.js";
import { postgresConversationPageSql } from "../../src/store/postgres/find-conversations.js";
import { openPostgresMessageStore } from "../../src/store/postgres/index.js";
import { tableNames } from "../../src/store/postgres/sql-names.js";
import { strictlyNewestFirst, walkConversations } from "../support/console-paging.js";
import { createTestPool, dropSchema, skipWithoutPostgres, uniqueSchema } from "../support/postgres.js";

const CONVERSATIONS = 100_000;
const T0 = Date.UTC(2026, 0, 10, 12, 0, 0);
// Every 7th conversation is in human mode; three conversations share each millisecond of activity.
const HUMAN = Math.ceil(CONVERSATIONS / 7);

/** A node of `EXPLAIN (FORMAT JSON)`, with the fields the test reads. */
interface PlanNode {
  readonly "Node Type": string;
  readonly "Relation Name"?: string;
  readonly "Index Name"?: string;
  readonly "Actual Rows"?: number;
  readonly "Actual Loops"?: number;
  readonly Plans?: PlanNode[];
}

function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

// A pool connects lazily, so creating it without Postgres is harmless.
const pool = createTestPool();
const schema = uniqueSchema("paging");

describe.skipIf(skipWithoutPostgres)("PostgreSQL console lists over 100,000 conversations", () => {
  let store: MessageStore;

  beforeAll(async () => {
    store = await openPostgresMessageStore({ pool, schema });
    const t0 = `to_timestamp(${T0 / 1000})`;
    // One statement each, straight into the tables: 100,000 API calls would test the writes instead.
    await pool.query(`
      SET search_path TO "${schema}";
      INSERT INTO conversations (conversation_key, tenant_id, phone_number_id, customer_id, mode,
                                 last_activity_at, last_inbound_at, awaiting_reply_since)
      SELECT 'acme:106540352242922:234' || lpad(i::text, 10, '0'), 'acme', '106540352242922',
             '234' || lpad(i::text, 10, '0'), CASE WHEN i % 7 = 0 THEN 'human' ELSE 'bot' END,
             ${t0} + (i / 3) * interval '1 millisecond', ${t0} + (i / 3) * interval '1 millisecond',
             ${t0} + (i / 3) * interval '1 millisecond'
      FROM generate_series(0, ${CONVERSATIONS - 1}) AS i;
      INSERT INTO messages (tenant_id, conversation_key, direction, wamid, customer_id, type, text, at)
      SELECT tenant_id, conversation_key, 'inbound', 'wamid.' || customer_id, customer_id, 'text', 'hello',
             last_activity_at
      FROM conversations;
      -- Another tenant's human conversations, newer than all of acme's: never in acme's lists.
      INSERT INTO conversations (conversation_key, tenant_id, phone_number_id, customer_id, mode, last_activity_at)
      SELECT 'beta:1:' || i, 'beta', '1', i::text, 'human', ${t0} + interval '1 hour'
      FROM generate_series(0, 999) AS i;
      ANALYZE conversations;
      ANALYZE messages;
      RESET search_path;
    `);
  }, 60_000);

  afterAll(async () => {
    await dropSchema(pool, schema);
    await pool.end();
  });

  it("walks an index for every list view, with or without a number, and sorts only a page", async () => {
    const views: ConversationView[] = ["all", "needs_human", "mine", "bot", "paused", "unread"];
    const middle = { atMs: T0 + 10_000, tieBreaker: "acme:106540352242922:2340000030000" };
    for (const view of views) {
      for (const phoneNumberId of [undefined, "106540352242922"]) {
        const query = resolveConversationQuery({
          tenantIds: ["acme", "beta"],
          view,
          assignedTo: "op-ada",
          ...(phoneNumberId === undefined ? {} : { phoneNumberId }),
        });
        const page = postgresConversationPageSql(tableNames(schema), query, middle, 501);
        const explained = await pool.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
          `EXPLAIN (FORMAT JSON) ${page.text}`,
          page.values,
        );
        const nodes = nodesOf(explained.rows[0]?.["QUERY PLAN"][0].Plan as PlanNode);
        const scans = nodes.filter((node) => node["Relation Name"] === "conversations");
        expect(
          scans.map((node) => node["Node Type"]),
          `${view} ${phoneNumberId}`,
        ).toEqual(["Index Scan"]);
        expect(scans[0]?.["Index Name"]).toMatch(/^conversations_tenant_/);
        // Any sort sits above the per-tenant Limit, never on the scan itself.
        for (const sort of nodes.filter((node) => node["Node Type"] === "Sort")) {
          expect(nodesOf(sort).some((node) => node["Node Type"] === "Limit")).toBe(true);
        }
      }
    }
  });

  it.each([
    ["all", CONVERSATIONS],
    ["needs_human", HUMAN],
  ] as [ConversationView, number][])(
    "pages view %s by 500 on an index, without a sort of the table, duplicates or gaps",
    async (view, expected) => {
      const query = { tenantIds: ["acme"], view };
      const middle = { atMs: T0 + Math.floor(50_000 / 3), tieBreaker: "acme:106540352242922:2340000050000" };
      for (const after of [undefined, middle]) {
        const page = postgresConversationPageSql(
          tableNames(schema),
          resolveConversationQuery(query),
          after,
          501,
        );
        const explained = await pool.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
          `EXPLAIN (ANALYZE, FORMAT JSON) ${page.text}`,
          page.values,
        );
        const nodes = nodesOf(explained.rows[0]?.["QUERY PLAN"][0].Plan as PlanNode);
        const onConversations = nodes.filter((node) => node["Relation Name"] === "conversations");
        expect(onConversations.map((node) => [node["Node Type"], node["Index Name"]])).toEqual([
          [
            "Index Scan",
            view === "all" ? "conversations_tenant_activity" : "conversations_tenant_mode_activity",
          ],
        ]);
        // The index walk stops at the page: it reads a page's rows, never the tenant's 100,000.
        expect(onConversations[0]?.["Actual Rows"]).toBeLessThanOrEqual(501);
        // The only sorts are of the page (at most tenants × 501 rows), never of the table.
        for (const sort of nodes.filter((node) => node["Node Type"] === "Sort")) {
          for (const input of sort.Plans ?? []) expect(input["Actual Rows"]).toBeLessThanOrEqual(501);
        }
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
