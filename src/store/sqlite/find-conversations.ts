import type { Statement } from "better-sqlite3";
import type { SqliteDatabase } from "../../sqlite/index.js";
import {
  type ResolvedConversationQuery,
  resolveConversationQuery,
  viewCondition,
} from "../conversation-query.js";
import { checkLimit, decodeCursor, type Keyset, pageOf } from "../keyset-cursor.js";
import type { ConversationQuery, ConversationSummary, Page, PageOptions } from "../ports.js";
import { type ConversationRow, msOf, toConversationSummary } from "../row-mapping.js";
import { CONVERSATION_SELECT } from "./console-queries.js";

/**
 * Customer id prefix, or (ASCII case folded, as Postgres's `lower(… COLLATE "C")`)
 * part of the customer's name or of any message's text or caption. instr, not
 * LIKE: the search text's `%` and `_` are plain characters, and SQLite's LIKE
 * would fold case where Postgres's does not.
 */
const SEARCH_CONDITION = `(substr(c.customer_id, 1, length(?)) = ?
  OR instr(lower(c.customer_name), lower(?)) > 0
  OR EXISTS (SELECT 1 FROM store_messages m WHERE m.conversation_key = c.conversation_key
             AND (instr(lower(m.text), lower(?)) > 0 OR instr(lower(m.caption), lower(?)) > 0)))`;

/**
 * One tenant's page of a console list, newest activity first. Each view
 * without a search walks one index of migration 3 in order, so a page costs
 * its size, not the tenant's number of conversations; exported for the
 * query-plan test.
 */
export function sqliteConversationPageSql(
  tenantId: string,
  query: ResolvedConversationQuery,
  after: Keyset | undefined,
  limit: number,
): { readonly sql: string; readonly params: unknown[] } {
  const conditions = ["c.tenant_id = ?"];
  const params: unknown[] = [tenantId];
  if (query.phoneNumberId !== undefined) {
    conditions.push("c.phone_number_id = ?");
    params.push(query.phoneNumberId);
  }
  const view = viewCondition(query.view, "?");
  if (view !== undefined) {
    conditions.push(view);
    if (query.view === "mine") params.push(query.assignedTo);
  }
  if (query.search !== undefined) {
    conditions.push(SEARCH_CONDITION);
    params.push(...Array.from({ length: 5 }, () => query.search));
  }
  if (after !== undefined) {
    conditions.push("(c.last_activity_at, c.conversation_key) < (?, ?)");
    params.push(after.atMs, after.tieBreaker);
  }
  params.push(limit);
  return {
    sql: `${CONVERSATION_SELECT} WHERE ${conditions.join(" AND ")}
      ORDER BY c.last_activity_at DESC, c.conversation_key DESC LIMIT ?`,
    params,
  };
}

/** The list's order: newest activity first, then the key as SQLite's BINARY collation orders it (UTF-8 bytes). */
function newestFirst(a: ConversationRow, b: ConversationRow): number {
  const byTime = msOf(b.last_activity_at) - msOf(a.last_activity_at);
  return byTime !== 0
    ? byTime
    : Buffer.compare(Buffer.from(b.conversation_key), Buffer.from(a.conversation_key));
}

/**
 * `findConversations` and `conversation`. SQLite has no LATERAL join to run
 * one index walk per tenant inside a statement, so each tenant's page is its
 * own statement and the pages are merged here: at most `limit + 1` rows per
 * tenant, whatever the log's size.
 */
export function createSqliteFindConversations(db: SqliteDatabase) {
  // A handful of shapes (view × number × search × cursor); each is prepared once.
  const prepared = new Map<string, Statement<unknown[], ConversationRow>>();
  const statementOf = (sql: string) => {
    let statement = prepared.get(sql);
    if (statement === undefined) {
      statement = db.prepare<unknown[], ConversationRow>(sql);
      prepared.set(sql, statement);
    }
    return statement;
  };
  const byKey = db.prepare<[string], ConversationRow>(`${CONVERSATION_SELECT} WHERE c.conversation_key = ?`);

  return {
    findConversations(query: ConversationQuery, options: PageOptions): Page<ConversationSummary> {
      const resolved = resolveConversationQuery(query);
      const limit = checkLimit(options.limit);
      const after = options.before === undefined ? undefined : decodeCursor(options.before);
      const rows = resolved.tenantIds.flatMap((tenantId) => {
        const { sql, params } = sqliteConversationPageSql(tenantId, resolved, after, limit + 1);
        return statementOf(sql).all(...params);
      });
      if (resolved.tenantIds.length > 1) rows.sort(newestFirst);
      return pageOf(rows.slice(0, limit + 1), limit, toConversationSummary, (row) => ({
        atMs: msOf(row.last_activity_at),
        tieBreaker: row.conversation_key,
      }));
    },

    conversation(conversationKey: string): ConversationSummary | undefined {
      const row = byKey.get(conversationKey);
      return row === undefined ? undefined : toConversationSummary(row);
    },
  };
}
