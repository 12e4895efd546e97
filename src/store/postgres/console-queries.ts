import type { Pool } from "pg";
import type { ConversationSummary, Page, PageOptions, StoredMessage } from "../ports.js";
import { checkLimit, decodeCursor, encodeCursor } from "./keyset-cursor.js";
import {
  CONVERSATION_COLUMNS,
  type ConversationRow,
  conversationLateralJoin,
  type MessageRow,
  toConversationSummary,
  toStoredMessage,
} from "./row-mapping.js";
import type { TableNames } from "./sql-names.js";

/** The console's read side: keyset-paged, newest first, each backed by an index of migration 1. */
export function createConsoleQueries(pool: Pool, tables: TableNames) {
  const conversationSelect = `SELECT ${CONVERSATION_COLUMNS} FROM ${tables.conversations} c ${conversationLateralJoin(tables.messages)}`;

  return {
    async listConversations(tenantId: string, options: PageOptions): Promise<Page<ConversationSummary>> {
      const limit = checkLimit(options.limit);
      const params: unknown[] = [tenantId, limit + 1];
      let after = "";
      if (options.before !== undefined) {
        const keyset = decodeCursor(options.before);
        params.push(new Date(keyset.atMs), keyset.tieBreaker);
        after = "AND (c.last_activity_at, c.conversation_key) < ($3::timestamptz, $4::text)";
      }
      const result = await pool.query<ConversationRow>(
        `${conversationSelect} WHERE c.tenant_id = $1 ${after}
         ORDER BY c.last_activity_at DESC, c.conversation_key DESC LIMIT $2`,
        params,
      );
      return pageOf(result.rows, limit, toConversationSummary, (row) => ({
        atMs: row.last_activity_at.getTime(),
        tieBreaker: row.conversation_key,
      }));
    },

    async messagesOf(conversationKey: string, options: PageOptions): Promise<Page<StoredMessage>> {
      const limit = checkLimit(options.limit);
      const params: unknown[] = [conversationKey, limit + 1];
      let after = "";
      if (options.before !== undefined) {
        const keyset = decodeCursor(options.before);
        if (!/^\d+$/.test(keyset.tieBreaker)) return { items: [] };
        params.push(new Date(keyset.atMs), keyset.tieBreaker);
        after = "AND (m.at, m.id) < ($3::timestamptz, $4::bigint)";
      }
      const result = await pool.query<MessageRow>(
        `SELECT m.id, m.tenant_id, m.conversation_key, m.direction, m.wamid, m.customer_id, m.turn_id,
                m.part, m.type, m.text, m.body, m.media_id, m.caption, m.meta_timestamp, m.at,
                d.status, d.status_at, d.error_code, d.error_title
         FROM ${tables.messages} m
         LEFT JOIN ${tables.deliveries} d
           ON m.direction = 'outbound' AND d.tenant_id = m.tenant_id AND d.wamid = m.wamid
         WHERE m.conversation_key = $1 ${after}
         ORDER BY m.at DESC, m.id DESC LIMIT $2`,
        params,
      );
      return pageOf(result.rows, limit, toStoredMessage, (row) => ({
        atMs: row.at.getTime(),
        tieBreaker: row.id,
      }));
    },

    async searchByCustomer(
      tenantId: string,
      customerIdPrefix: string,
      limit: number,
    ): Promise<ConversationSummary[]> {
      const result = await pool.query<ConversationRow>(
        `${conversationSelect} WHERE c.tenant_id = $1 AND c.customer_id LIKE $2
         ORDER BY c.last_activity_at DESC, c.conversation_key DESC LIMIT $3`,
        [tenantId, `${escapeLike(customerIdPrefix)}%`, checkLimit(limit)],
      );
      return result.rows.map(toConversationSummary);
    },
  };
}

/** One row past the limit tells whether an older page exists. */
function pageOf<Row, Item>(
  rows: Row[],
  limit: number,
  toItem: (row: Row) => Item,
  keysetOf: (row: Row) => { atMs: number; tieBreaker: string },
): Page<Item> {
  const served = rows.slice(0, limit);
  const last = served.at(-1);
  const items = served.map(toItem);
  return rows.length > limit && last !== undefined
    ? { items, next: encodeCursor(keysetOf(last)) }
    : { items };
}

/** A customer id is digits or a BSUID (CC.digits) today, but `%` and `_` must never act as wildcards. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}
