import type { Pool } from "pg";
import type { DeliveryStatus } from "../../delivery/index.js";
import { type MediaReading, phoneNumberIdOfConversation } from "../../whatsapp/index.js";
import { StoreUnknownConversationError } from "../errors.js";
import type {
  ConversationState,
  DeliveryUpdateOutcome,
  InboundRecord,
  OutboundRecord,
  RecordOutcome,
  TurnRecord,
} from "../ports.js";
import {
  boundedCustomerName,
  deliveryValues,
  inboundValues,
  outboundValues,
  turnValues,
  type ValueEncoding,
} from "../record-values.js";
import type { TableNames } from "./sql-names.js";

const PG_VALUES: ValueEncoding = { time: (ms) => new Date(ms), list: (items) => [...items] };

/** Statuses in the order a message goes through; `failed` is not a step but an end, handled apart. */
const FORWARD = "ARRAY['sent', 'delivered', 'read', 'played', 'deleted']";

/**
 * The write side. Each write is one statement, so it is atomic without a
 * transaction: the message insert and the conversation upsert run as CTEs,
 * and the conversation moves only when the message is new. A CTE's statements
 * share one snapshot, so the subqueries on messages never see the row being
 * inserted, which is why they look at the other direction only.
 */
export function createRecordWrites(pool: Pool, tables: TableNames) {
  return {
    async recordInbound(message: InboundRecord): Promise<RecordOutcome> {
      // The newest name wins, and the conversation waits for an answer from its oldest message
      // that no reply of ours (queued at or after it) answered.
      const result = await pool.query(
        `WITH inserted AS (
           INSERT INTO ${tables.messages} (tenant_id, conversation_key, direction, wamid, customer_id, type, text,
                                           media_id, caption, content, meta_timestamp, at)
           VALUES ($1, $2, 'inbound', $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11)
           ON CONFLICT (tenant_id, wamid) WHERE wamid IS NOT NULL DO NOTHING
           RETURNING at
         )
         INSERT INTO ${tables.conversations} AS c (conversation_key, tenant_id, phone_number_id, customer_id, customer_name,
                                last_activity_at, last_inbound_at, awaiting_reply_since)
         SELECT $2, $1, $12, $4, $13, at, at, at FROM inserted
         ON CONFLICT (conversation_key) DO UPDATE SET
           last_activity_at = GREATEST(c.last_activity_at, EXCLUDED.last_activity_at),
           customer_id = COALESCE(c.customer_id, EXCLUDED.customer_id),
           customer_name = CASE
             WHEN EXCLUDED.customer_name IS NOT NULL
               AND (c.customer_name IS NULL OR c.last_inbound_at IS NULL OR EXCLUDED.last_inbound_at >= c.last_inbound_at)
             THEN EXCLUDED.customer_name ELSE c.customer_name END,
           last_inbound_at = GREATEST(c.last_inbound_at, EXCLUDED.last_inbound_at),
           awaiting_reply_since = CASE
             WHEN EXISTS (SELECT 1 FROM ${tables.messages} m
                          WHERE m.conversation_key = EXCLUDED.conversation_key AND m.direction = 'outbound'
                            AND m.at >= EXCLUDED.last_inbound_at)
             THEN c.awaiting_reply_since
             ELSE LEAST(c.awaiting_reply_since, EXCLUDED.last_inbound_at) END
         RETURNING 1`,
        [
          ...inboundValues(message, PG_VALUES),
          phoneNumberIdOfConversation(message.conversationKey),
          boundedCustomerName(message.customerName) ?? null,
        ],
      );
      return result.rowCount === 1 ? "recorded" : "duplicate";
    },

    async recordOutbound(reply: OutboundRecord): Promise<RecordOutcome> {
      // Our message answers everything the customer wrote up to its queue time; a customer
      // message recorded after it (out of order) keeps the conversation waiting.
      const result = await pool.query<{ inserted: boolean }>(
        `WITH upserted AS (
           INSERT INTO ${tables.messages} (tenant_id, conversation_key, direction, wamid, customer_id, turn_id, part,
                                           type, text, body, sent_by, at)
           VALUES ($1, $2, 'outbound', $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11)
           ON CONFLICT (turn_id, part) WHERE direction = 'outbound'
           DO UPDATE SET wamid = COALESCE(${tables.messages}.wamid, EXCLUDED.wamid)
           RETURNING (xmax = 0) AS inserted, at
         ), touched AS (
           INSERT INTO ${tables.conversations} AS c (conversation_key, tenant_id, phone_number_id, customer_id, last_activity_at)
           SELECT $2, $1, $12, $4, at FROM upserted WHERE inserted
           ON CONFLICT (conversation_key) DO UPDATE SET
             last_activity_at = GREATEST(c.last_activity_at, EXCLUDED.last_activity_at),
             customer_id = COALESCE(c.customer_id, EXCLUDED.customer_id),
             awaiting_reply_since = CASE
               WHEN c.awaiting_reply_since <= EXCLUDED.last_activity_at
               THEN (SELECT min(m.at) FROM ${tables.messages} m
                     WHERE m.conversation_key = EXCLUDED.conversation_key AND m.direction = 'inbound'
                       AND m.at > EXCLUDED.last_activity_at)
               ELSE c.awaiting_reply_since END
         )
         SELECT inserted FROM upserted`,
        [...outboundValues(reply, PG_VALUES), phoneNumberIdOfConversation(reply.conversationKey)],
      );
      return result.rows[0]?.inserted === true ? "recorded" : "duplicate";
    },
    async updateDelivery(
      tenantId: string,
      wamid: string,
      status: DeliveryStatus,
      at: number,
      error?: { readonly code: number; readonly title: string },
    ): Promise<DeliveryUpdateOutcome> {
      const result = await pool.query(
        `INSERT INTO ${tables.deliveries} AS d (tenant_id, wamid, status, status_at, error_code, error_title)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (tenant_id, wamid) DO UPDATE SET
           status = EXCLUDED.status, status_at = EXCLUDED.status_at,
           error_code = EXCLUDED.error_code, error_title = EXCLUDED.error_title, updated_at = now()
         WHERE d.status <> 'failed' AND CASE
           WHEN EXCLUDED.status = 'failed' THEN d.status IN ('sent', 'delivered')
           ELSE array_position(${FORWARD}, EXCLUDED.status) > array_position(${FORWARD}, d.status)
         END
         RETURNING 1`,
        deliveryValues(tenantId, wamid, status, at, error, PG_VALUES),
      );
      return result.rowCount === 1 ? "applied" : "stale_ignored";
    },

    async setConversationState(conversationKey: string, state: ConversationState): Promise<void> {
      const result = await pool.query(
        `UPDATE ${tables.conversations} SET mode = $2, assigned_agent = $3 WHERE conversation_key = $1`,
        [conversationKey, state.mode, state.assignedAgent ?? null],
      );
      if (result.rowCount === 0) throw new StoreUnknownConversationError();
    },

    async recordTurn(turn: TurnRecord): Promise<RecordOutcome> {
      const result = await pool.query(
        `INSERT INTO ${tables.turns} (turn_id, tenant_id, conversation_key, decision, agent_outcome, prompt_tokens,
                                      completion_tokens, cost_usd, tools, calls, at)
         VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, $8, $9, $10::jsonb, $11)
         ON CONFLICT (turn_id) DO NOTHING`,
        turnValues(turn, PG_VALUES),
      );
      return result.rowCount === 1 ? "recorded" : "duplicate";
    },

    async recordMediaReading(
      tenantId: string,
      _conversationKey: string,
      wamid: string,
      reading: MediaReading,
    ): Promise<"applied" | "unknown_message"> {
      const result = await pool.query(
        `UPDATE ${tables.messages} SET reading = $3::jsonb
         WHERE tenant_id = $1 AND wamid = $2 AND direction = 'inbound'`,
        [tenantId, wamid, JSON.stringify(reading)],
      );
      return result.rowCount === 0 ? "unknown_message" : "applied";
    },
  };
}
