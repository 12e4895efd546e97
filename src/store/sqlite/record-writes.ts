import type { SqliteDatabase } from "../../sqlite/index.js";
import { type MediaReading, phoneNumberIdOfConversation } from "../../whatsapp/index.js";
import { StoreUnknownConversationError } from "../errors.js";
import type {
  ConversationState,
  DeliveryUpdateOutcome,
  InboundRecord,
  MessageStore,
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

// Whole ms: the columns are STRICT integers, and Postgres would keep a fraction rather than refuse it.
const SQLITE_VALUES: ValueEncoding = { time: Math.round, list: (items) => JSON.stringify(items) };

/** Rank of a status on the forward path; `failed` is not a step but an end, handled apart. */
function rankOf(status: string): string {
  return `(CASE ${status} WHEN 'sent' THEN 1 WHEN 'delivered' THEN 2 WHEN 'read' THEN 3 WHEN 'played' THEN 4 WHEN 'deleted' THEN 5 END)`;
}

/**
 * The write side, the same rules as the Postgres adapter's. A message insert
 * and its conversation upsert run in one transaction, and the conversation
 * moves only when the message is new. The methods are synchronous; the store
 * wraps them in async ones.
 */
export function createSqliteRecordWrites(db: SqliteDatabase, now: () => number) {
  // A customer message: the newest name wins, and the conversation waits for an answer from
  // its oldest message that no reply of ours (queued at or after it) answered.
  const touchByInbound = db.prepare(`
    INSERT INTO store_conversations (conversation_key, tenant_id, phone_number_id, customer_id, customer_name,
                                     last_activity_at, last_inbound_at, awaiting_reply_since, created_at)
    VALUES (@key, @tenant, @phone, @customer, @name, @at, @at, @at, @now)
    ON CONFLICT (conversation_key) DO UPDATE SET
      last_activity_at = max(last_activity_at, @at),
      customer_id = coalesce(customer_id, @customer),
      customer_name = CASE
        WHEN @name IS NOT NULL AND (customer_name IS NULL OR last_inbound_at IS NULL OR @at >= last_inbound_at)
        THEN @name ELSE customer_name END,
      last_inbound_at = max(coalesce(last_inbound_at, @at), @at),
      awaiting_reply_since = CASE
        WHEN EXISTS (SELECT 1 FROM store_messages m
                     WHERE m.conversation_key = @key AND m.direction = 'outbound' AND m.at >= @at)
        THEN awaiting_reply_since
        ELSE min(coalesce(awaiting_reply_since, @at), @at) END`);
  // One of our messages answers everything the customer wrote up to its queue time; a customer
  // message recorded after it (out of order) keeps the conversation waiting.
  const touchByOutbound = db.prepare(`
    INSERT INTO store_conversations (conversation_key, tenant_id, phone_number_id, customer_id, last_activity_at,
                                     created_at)
    VALUES (@key, @tenant, @phone, @customer, @at, @now)
    ON CONFLICT (conversation_key) DO UPDATE SET
      last_activity_at = max(last_activity_at, @at),
      customer_id = coalesce(customer_id, @customer),
      awaiting_reply_since = CASE
        WHEN awaiting_reply_since <= @at
        THEN (SELECT min(m.at) FROM store_messages m
              WHERE m.conversation_key = @key AND m.direction = 'inbound' AND m.at > @at)
        ELSE awaiting_reply_since END`);
  const insertInbound = db.prepare(`
    INSERT INTO store_messages (tenant_id, conversation_key, direction, wamid, customer_id, type, text,
                                media_id, caption, content, meta_timestamp, at)
    VALUES (?, ?, 'inbound', ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (tenant_id, wamid) WHERE wamid IS NOT NULL DO NOTHING`);
  const insertOutbound = db.prepare(`
    INSERT INTO store_messages (tenant_id, conversation_key, direction, wamid, customer_id, turn_id, part,
                                type, text, body, sent_by, at)
    VALUES (?, ?, 'outbound', ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (turn_id, part) WHERE direction = 'outbound' DO NOTHING`);
  const fillWamid = db.prepare(`
    UPDATE store_messages SET wamid = ?
    WHERE direction = 'outbound' AND turn_id = ? AND part = ? AND wamid IS NULL`);
  const upsertDelivery = db.prepare(`
    INSERT INTO store_deliveries (tenant_id, wamid, status, status_at, error_code, error_title, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (tenant_id, wamid) DO UPDATE SET
      status = excluded.status, status_at = excluded.status_at,
      error_code = excluded.error_code, error_title = excluded.error_title, updated_at = excluded.updated_at
    WHERE store_deliveries.status <> 'failed' AND CASE
      WHEN excluded.status = 'failed' THEN store_deliveries.status IN ('sent', 'delivered')
      ELSE ${rankOf("excluded.status")} > ${rankOf("store_deliveries.status")}
    END`);
  const updateState = db.prepare(
    "UPDATE store_conversations SET mode = ?, assigned_agent = ? WHERE conversation_key = ?",
  );
  const setReading = db.prepare(
    "UPDATE store_messages SET reading = ? WHERE tenant_id = ? AND wamid = ? AND direction = 'inbound'",
  );
  const insertTurn = db.prepare(`
    INSERT INTO store_turns (turn_id, tenant_id, conversation_key, decision, agent_outcome, prompt_tokens,
                             completion_tokens, cost_usd, tools, calls, at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (turn_id) DO NOTHING`);

  const conversationOf = (
    tenantId: string,
    conversationKey: string,
    customerId: string | null,
    at: number,
  ) => ({
    key: conversationKey,
    tenant: tenantId,
    phone: phoneNumberIdOfConversation(conversationKey),
    customer: customerId,
    at: Math.round(at),
    now: now(),
  });

  return {
    recordInbound: db.transaction((message: InboundRecord): RecordOutcome => {
      const inserted = insertInbound.run(inboundValues(message, SQLITE_VALUES));
      if (inserted.changes === 0) return "duplicate";
      touchByInbound.run({
        ...conversationOf(message.tenantId, message.conversationKey, message.customerId, message.receivedAt),
        name: boundedCustomerName(message.customerName) ?? null,
      });
      return "recorded";
    }),

    recordOutbound: db.transaction((reply: OutboundRecord): RecordOutcome => {
      const inserted = insertOutbound.run(outboundValues(reply, SQLITE_VALUES));
      if (inserted.changes === 0) {
        // A repeat that knows the wamid fills it in; one already there stays.
        if (reply.wamid !== undefined) fillWamid.run(reply.wamid, reply.turnId, reply.part);
        return "duplicate";
      }
      touchByOutbound.run(
        conversationOf(reply.tenantId, reply.conversationKey, reply.customerId ?? null, reply.queuedAt),
      );
      return "recorded";
    }),

    updateDelivery(
      ...[tenantId, wamid, status, at, error]: Parameters<MessageStore["updateDelivery"]>
    ): DeliveryUpdateOutcome {
      const result = upsertDelivery.run(
        ...deliveryValues(tenantId, wamid, status, at, error, SQLITE_VALUES),
        now(),
      );
      return result.changes === 1 ? "applied" : "stale_ignored";
    },

    setConversationState(conversationKey: string, state: ConversationState): void {
      const result = updateState.run(state.mode, state.assignedAgent ?? null, conversationKey);
      if (result.changes === 0) throw new StoreUnknownConversationError();
    },

    recordTurn(turn: TurnRecord): RecordOutcome {
      const result = insertTurn.run(turnValues(turn, SQLITE_VALUES));
      return result.changes === 1 ? "recorded" : "duplicate";
    },

    recordMediaReading(
      tenantId: string,
      wamid: string,
      reading: MediaReading,
    ): "applied" | "unknown_message" {
      const result = setReading.run(JSON.stringify(reading), tenantId, wamid);
      return result.changes === 0 ? "unknown_message" : "applied";
    },
  };
}
