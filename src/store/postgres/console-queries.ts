import type { Pool } from "pg";
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
import type { TableNames } from "./sql-names.js";

/** The console's read side: keyset-paged, newest first, each backed by an index of migration 1. */
export function createConsoleQueries(pool: Pool, tables: TableNames) {
  const conversationSelect = `SELECT ${CONVERSATION_WITH_LAST_COLUMNS} FROM ${tables.conversations} c ${conversationLateralJoin(tables.messages)}`;

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
        atMs: msOf(row.last_activity_at),
        tieBreaker: row.conversation_key,
      }));
    },

    async messagesOf(conversationKey: string, options: PageOptions): Promise<Page<StoredMessage>> {
      const limit = checkLimit(options.limit);
      const params: unknown[] = [conversationKey, limit + 1];
      let after = "";
      if (options.before !== undefined) {
        const keyset = decodeCursor(options.before);
        const id = messageIdOf(keyset);
        if (id === undefined) return { items: [] };
        params.push(new Date(keyset.atMs), id);
        after = "AND (m.at, m.id) < ($3::timestamptz, $4::bigint)";
      }
      const result = await pool.query<MessageRow>(
        `SELECT ${MESSAGE_COLUMNS}
         FROM ${tables.messages} m
         LEFT JOIN ${tables.deliveries} d
           ON m.direction = 'outbound' AND d.tenant_id = m.tenant_id AND d.wamid = m.wamid
         WHERE m.conversation_key = $1 ${after}
         ORDER BY m.at DESC, m.id DESC LIMIT $2`,
        params,
      );
      return pageOf(result.rows, limit, toStoredMessage, (row) => ({
        atMs: msOf(row.at),
        tieBreaker: String(row.id),
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

/** Selects a conversation row with its newest message (one index probe per conversation). */
export const CONVERSATION_WITH_LAST_COLUMNS = `${CONVERSATION_COLUMNS},
  last.direction AS last_direction, last.type AS last_type,
  left(coalesce(last.text, last.caption), ${PREVIEW_CHARS}) AS last_preview, last.at AS last_at`;

export function conversationLateralJoin(messages: string): string {
  return `LEFT JOIN LATERAL (
    SELECT direction, type, text, caption, at FROM ${messages}
    WHERE conversation_key = c.conversation_key ORDER BY at DESC, id DESC LIMIT 1
  ) last ON true`;
}

/** A customer id is digits or a BSUID (CC.digits) today, but `%` and `_` must never act as wildcards. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}
