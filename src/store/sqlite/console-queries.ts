import type { SqliteDatabase } from "../../sqlite/index.js";
import { checkLimit, decodeCursor, messageIdOf, pageOf } from "../keyset-cursor.js";
import type { ConversationSummary, Page, PageOptions, StoredMessage } from "../ports.js";
import {
  CONVERSATION_COLUMNS,
  type ConversationRow,
  MESSAGE_COLUMNS,
  type MessageRow,
  msOf,
  PREVIEW_CHARS,
  toConversationSummary,
  toStoredMessage,
} from "../row-mapping.js";

/**
 * A conversation with its newest message. SQLite has no LATERAL join; the
 * correlated subquery is one probe of `store_messages_conversation_at` per row.
 */
export const CONVERSATION_SELECT = `
  SELECT ${CONVERSATION_COLUMNS},
         last.direction AS last_direction, last.type AS last_type,
         substr(coalesce(last.text, last.caption), 1, ${PREVIEW_CHARS}) AS last_preview, last.at AS last_at
  FROM store_conversations c
  LEFT JOIN store_messages last ON last.id = (
    SELECT id FROM store_messages WHERE conversation_key = c.conversation_key ORDER BY at DESC, id DESC LIMIT 1
  )`;

const MESSAGE_SELECT = `
  SELECT ${MESSAGE_COLUMNS}
  FROM store_messages m
  LEFT JOIN store_deliveries d
    ON m.direction = 'outbound' AND d.tenant_id = m.tenant_id AND d.wamid = m.wamid`;

type SqliteMessageRow = Omit<MessageRow, "body" | "content" | "reading"> & {
  body: string | null;
  content: string | null;
  reading: string | null;
};

const NEWEST_CONVERSATIONS = "ORDER BY c.last_activity_at DESC, c.conversation_key DESC LIMIT ?";
const NEWEST_MESSAGES = "ORDER BY m.at DESC, m.id DESC LIMIT ?";

/** The console's statements, by name; exported so a test can check each one's query plan. */
export const SQLITE_CONSOLE_SQL = {
  newestConversations: `${CONVERSATION_SELECT} WHERE c.tenant_id = ? ${NEWEST_CONVERSATIONS}`,
  olderConversations: `${CONVERSATION_SELECT}
    WHERE c.tenant_id = ? AND (c.last_activity_at, c.conversation_key) < (?, ?) ${NEWEST_CONVERSATIONS}`,
  newestMessages: `${MESSAGE_SELECT} WHERE m.conversation_key = ? ${NEWEST_MESSAGES}`,
  olderMessages: `${MESSAGE_SELECT} WHERE m.conversation_key = ? AND (m.at, m.id) < (?, ?) ${NEWEST_MESSAGES}`,
  // GLOB, not LIKE: SQLite's LIKE ignores ASCII case, Postgres's does not.
  byCustomer: `${CONVERSATION_SELECT} WHERE c.tenant_id = ? AND c.customer_id GLOB ? ${NEWEST_CONVERSATIONS}`,
} as const;

/** The console's read side, with the Postgres adapter's paging and cursors, on the indexes of migration 1. */
export function createSqliteConsoleQueries(db: SqliteDatabase) {
  const sql = SQLITE_CONSOLE_SQL;
  const newestConversations = db.prepare<[string, number], ConversationRow>(sql.newestConversations);
  const olderConversations = db.prepare<[string, number, string, number], ConversationRow>(
    sql.olderConversations,
  );
  const newestMessages = db.prepare<[string, number], SqliteMessageRow>(sql.newestMessages);
  const olderMessages = db.prepare<[string, number, number, number], SqliteMessageRow>(sql.olderMessages);
  const byCustomer = db.prepare<[string, string, number], ConversationRow>(sql.byCustomer);

  return {
    listConversations(tenantId: string, options: PageOptions): Page<ConversationSummary> {
      const limit = checkLimit(options.limit);
      let rows: ConversationRow[];
      if (options.before === undefined) {
        rows = newestConversations.all(tenantId, limit + 1);
      } else {
        const keyset = decodeCursor(options.before);
        rows = olderConversations.all(tenantId, keyset.atMs, keyset.tieBreaker, limit + 1);
      }
      return pageOf(rows, limit, toConversationSummary, (row) => ({
        atMs: msOf(row.last_activity_at),
        tieBreaker: row.conversation_key,
      }));
    },

    messagesOf(conversationKey: string, options: PageOptions): Page<StoredMessage> {
      const limit = checkLimit(options.limit);
      let rows: SqliteMessageRow[];
      if (options.before === undefined) {
        rows = newestMessages.all(conversationKey, limit + 1);
      } else {
        const keyset = decodeCursor(options.before);
        const id = messageIdOf(keyset);
        if (id === undefined) return { items: [] };
        rows = olderMessages.all(conversationKey, keyset.atMs, Number(id), limit + 1);
      }
      return pageOf(
        rows,
        limit,
        (row) =>
          toStoredMessage({
            ...row,
            body: row.body === null ? null : JSON.parse(row.body),
            content: row.content === null ? null : JSON.parse(row.content),
            reading: row.reading === null ? null : JSON.parse(row.reading),
          }),
        (row) => ({ atMs: msOf(row.at), tieBreaker: String(row.id) }),
      );
    },

    searchByCustomer(tenantId: string, customerIdPrefix: string, limit: number): ConversationSummary[] {
      return byCustomer
        .all(tenantId, `${escapeGlob(customerIdPrefix)}*`, checkLimit(limit))
        .map(toConversationSummary);
    },
  };
}

/** `*`, `?` and `[` must never act as wildcards: each goes inside a one-character class. */
function escapeGlob(text: string): string {
  return text.replace(/[*?[]/g, (char) => `[${char}]`);
}
