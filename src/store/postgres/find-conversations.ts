import type { Pool } from "pg";
import {
  type ResolvedConversationQuery,
  resolveConversationQuery,
  viewCondition,
} from "../conversation-query.js";
import { checkLimit, decodeCursor, type Keyset, pageOf } from "../keyset-cursor.js";
import type { ConversationQuery, ConversationSummary, Page, PageOptions } from "../ports.js";
import { CONVERSATION_COLUMNS, type ConversationRow, msOf, toConversationSummary } from "../row-mapping.js";
import { CONVERSATION_WITH_LAST_COLUMNS, conversationLateralJoin } from "./console-queries.js";
import type { TableNames } from "./sql-names.js";

/**
 * Customer id prefix, or part of the customer's name or of any message's text
 * or caption, ASCII case folded: `lower(… COLLATE "C")` folds what SQLite's
 * `lower` folds, whatever the database's locale, so both adapters find the
 * same. strpos and starts_with, not LIKE: `%` and `_` are plain characters.
 */
function searchCondition(messages: string, search: string): string {
  return `(starts_with(c.customer_id, ${search})
    OR strpos(lower(c.customer_name COLLATE "C"), lower(${search} COLLATE "C")) > 0
    OR EXISTS (SELECT 1 FROM ${messages} m WHERE m.conversation_key = c.conversation_key
               AND (strpos(lower(m.text COLLATE "C"), lower(${search} COLLATE "C")) > 0
                    OR strpos(lower(m.caption COLLATE "C"), lower(${search} COLLATE "C")) > 0)))`;
}

/**
 * A page of a console list over several tenants in one statement: for each
 * tenant a LATERAL walk of one index of migration 3 in (last activity, key)
 * order, cut at `limit` rows, so the one sort left is of at most tenants ×
 * `limit` rows, never of the log. The newest message joins only the rows
 * served. Exported for the query-plan test.
 */
export function postgresConversationPageSql(
  tables: TableNames,
  query: ResolvedConversationQuery,
  after: Keyset | undefined,
  limit: number,
): { readonly text: string; readonly values: unknown[] } {
  const values: unknown[] = [[...query.tenantIds]];
  const bind = (value: unknown, type: string) => {
    values.push(value);
    return `$${values.length}::${type}`;
  };
  const conditions = ["c.tenant_id = t.tenant_id"];
  if (query.phoneNumberId !== undefined) {
    conditions.push(`c.phone_number_id = ${bind(query.phoneNumberId, "text")}`);
  }
  const view = viewCondition(query.view, query.view === "mine" ? bind(query.assignedTo, "text") : "");
  if (view !== undefined) conditions.push(view);
  if (query.search !== undefined)
    conditions.push(searchCondition(tables.messages, bind(query.search, "text")));
  if (after !== undefined) {
    conditions.push(
      `(c.last_activity_at, c.conversation_key) < (${bind(new Date(after.atMs), "timestamptz")}, ${bind(after.tieBreaker, "text")})`,
    );
  }
  const cut = bind(limit, "int");
  const newestFirst = "ORDER BY c.last_activity_at DESC, c.conversation_key DESC";
  return {
    text: `SELECT ${CONVERSATION_WITH_LAST_COLUMNS}
      FROM (
        SELECT c.* FROM unnest($1::text[]) AS t(tenant_id)
        CROSS JOIN LATERAL (
          SELECT ${CONVERSATION_COLUMNS} FROM ${tables.conversations} c
          WHERE ${conditions.join(" AND ")}
          ${newestFirst} LIMIT ${cut}
        ) c
        ${newestFirst} LIMIT ${cut}
      ) c
      ${conversationLateralJoin(tables.messages)}
      ${newestFirst}`,
    values,
  };
}

/** `findConversations` and `conversation`. */
export function createPostgresFindConversations(pool: Pool, tables: TableNames) {
  return {
    async findConversations(
      query: ConversationQuery,
      options: PageOptions,
    ): Promise<Page<ConversationSummary>> {
      const resolved = resolveConversationQuery(query);
      const limit = checkLimit(options.limit);
      const after = options.before === undefined ? undefined : decodeCursor(options.before);
      const { text, values } = postgresConversationPageSql(tables, resolved, after, limit + 1);
      const result = await pool.query<ConversationRow>(text, values);
      return pageOf(result.rows, limit, toConversationSummary, (row) => ({
        atMs: msOf(row.last_activity_at),
        tieBreaker: row.conversation_key,
      }));
    },

    async conversation(conversationKey: string): Promise<ConversationSummary | undefined> {
      const result = await pool.query<ConversationRow>(
        `SELECT ${CONVERSATION_WITH_LAST_COLUMNS} FROM ${tables.conversations} c
         ${conversationLateralJoin(tables.messages)} WHERE c.conversation_key = $1`,
        [conversationKey],
      );
      const row = result.rows[0];
      return row === undefined ? undefined : toConversationSummary(row);
    },
  };
}
