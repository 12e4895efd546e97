import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { resolveConversationQuery } from "../conversation-query.js";
import type { ConversationView } from "../ports.js";
import { SQLITE_CONSOLE_SQL } from "./console-queries.js";
import { sqliteConversationPageSql } from "./find-conversations.js";
import { migrateSqliteMessageStore } from "./migrate-sqlite-store.js";

function planOf(sql: string, params: unknown[]): string[] {
  const db = new Database(":memory:");
  try {
    migrateSqliteMessageStore(db);
    return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map(
      (row) => row.detail,
    );
  } finally {
    db.close();
  }
}

const key = "acme:106540352242922:2348012345678";
const sql = SQLITE_CONSOLE_SQL;

// A full scan or a sort of a whole table would make the console's pages slow down with the log's size.
describe("SQLite console query plans", () => {
  it.each([
    ["newestConversations", sql.newestConversations, ["acme", 51]],
    ["olderConversations", sql.olderConversations, ["acme", 1_768_046_400_000, key, 51]],
    ["newestMessages", sql.newestMessages, [key, 51]],
    ["olderMessages", sql.olderMessages, [key, 1_768_046_400_000, 77, 51]],
  ] as const)("%s walks an index in order", (_name, statement, params) => {
    const plan = planOf(statement, [...params]);
    expect(plan.filter((detail) => /^SCAN /.test(detail))).toEqual([]);
    expect(plan.join("\n")).not.toMatch(/TEMP B-TREE/);
  });

  it("byCustomer narrows by the customer prefix through its index", () => {
    const plan = planOf(sql.byCustomer, ["acme", "234801*", 10]);
    expect(plan.filter((detail) => /^SCAN /.test(detail))).toEqual([]);
    // Only the matches get sorted, as in Postgres.
    expect(plan[0]).toMatch(/store_conversations_tenant_customer \(tenant_id=\? AND customer_id>\? AND/);
  });

  // Each console list view walks its own index in page order, first page and later ones, with or
  // without a number: a page costs its size whatever the number of conversations.
  const views: [ConversationView, string][] = [
    ["all", "store_conversations_tenant_activity"],
    ["needs_human", "store_conversations_tenant_mode_activity"],
    ["mine", "store_conversations_tenant_assignee_activity"],
    ["bot", "store_conversations_tenant_mode_activity"],
    ["paused", "store_conversations_tenant_mode_activity"],
    ["unread", "store_conversations_tenant_unread_activity"],
  ];
  describe.each(views)("findConversations, view %s", (view, index) => {
    it.each([
      ["first page", undefined],
      ["later page", { atMs: 1_768_046_400_000, tieBreaker: key }],
    ])("%s walks an index in order", (_page, after) => {
      for (const phoneNumberId of [undefined, "106540352242922"]) {
        const query = resolveConversationQuery({
          tenantIds: ["acme"],
          view,
          assignedTo: "op-ada",
          ...(phoneNumberId === undefined ? {} : { phoneNumberId }),
        });
        const page = sqliteConversationPageSql("acme", query, after, 501);
        const plan = planOf(page.sql, page.params);
        expect(plan.filter((detail) => /^SCAN /.test(detail))).toEqual([]);
        expect(plan.join("\n")).not.toMatch(/TEMP B-TREE/);
        if (phoneNumberId === undefined) expect(plan[0]).toContain(`USING INDEX ${index} `);
      }
    });
  });
});
