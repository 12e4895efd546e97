import type { DeliveryStatus } from "../delivery/index.js";
import type { MediaReading } from "../whatsapp/index.js";
import type {
  ConversationSummary,
  StoredConversationMode,
  StoredMessage,
  StoredNote,
  ToolCallRecord,
  TurnRecord,
} from "./ports.js";

/** Characters of a message's text the conversation list shows. */
export const PREVIEW_CHARS = 120;

/**
 * A time column as a driver hands it back: node-postgres gives a `Date` for
 * timestamptz, while SQLite keeps ms since the epoch as an integer.
 */
export type TimeValue = Date | number;

export function msOf(value: TimeValue): number {
  return typeof value === "number" ? value : value.getTime();
}

/** A conversation with its newest message, in the column names both adapters select. */
export interface ConversationRow {
  conversation_key: string;
  tenant_id: string;
  phone_number_id: string;
  customer_id: string | null;
  customer_name: string | null;
  mode: string;
  assigned_agent: string | null;
  last_activity_at: TimeValue;
  last_inbound_at: TimeValue | null;
  awaiting_reply_since: TimeValue | null;
  seen_at: TimeValue | null;
  last_direction: "inbound" | "outbound" | null;
  last_type: string | null;
  last_preview: string | null;
  last_at: TimeValue | null;
}

/** The columns of a `ConversationRow` from the conversation table `c`, besides the newest message's. */
export const CONVERSATION_COLUMNS = `c.conversation_key, c.tenant_id, c.phone_number_id, c.customer_id,
  c.customer_name, c.mode, c.assigned_agent, c.last_activity_at, c.last_inbound_at, c.awaiting_reply_since,
  c.seen_at`;

/** The same rule as the `unread` view's SQL (conversation-query.ts). */
function unreadOf(row: ConversationRow): boolean {
  if (row.last_inbound_at === null) return false;
  return row.seen_at === null || msOf(row.last_inbound_at) > msOf(row.seen_at);
}

export function toConversationSummary(row: ConversationRow): ConversationSummary {
  return {
    tenantId: row.tenant_id,
    conversationKey: row.conversation_key,
    phoneNumberId: row.phone_number_id,
    ...(row.customer_id === null ? {} : { customerId: row.customer_id }),
    ...(row.customer_name === null ? {} : { customerName: row.customer_name }),
    mode: row.mode as StoredConversationMode,
    ...(row.assigned_agent === null ? {} : { assignedAgent: row.assigned_agent }),
    lastActivityAt: msOf(row.last_activity_at),
    ...(row.last_inbound_at === null ? {} : { lastInboundAt: msOf(row.last_inbound_at) }),
    ...(row.awaiting_reply_since === null ? {} : { awaitingReplySince: msOf(row.awaiting_reply_since) }),
    unread: unreadOf(row),
    ...(row.last_direction === null || row.last_type === null || row.last_at === null
      ? {}
      : {
          lastMessage: {
            direction: row.last_direction,
            type: row.last_type,
            ...(row.last_preview === null ? {} : { preview: row.last_preview }),
            at: msOf(row.last_at),
          },
        }),
  };
}

/** A message joined with its delivery status; `body` and `content` already parsed from JSON. */
export interface MessageRow {
  /** bigint (a string from node-postgres) or an SQLite integer rowid. */
  id: string | number;
  tenant_id: string;
  conversation_key: string;
  direction: "inbound" | "outbound";
  wamid: string | null;
  customer_id: string | null;
  turn_id: string | null;
  part: number | null;
  type: string;
  text: string | null;
  body: unknown;
  content: unknown;
  reading: unknown;
  media_id: string | null;
  caption: string | null;
  sent_by: string | null;
  meta_timestamp: TimeValue | null;
  at: TimeValue;
  status: DeliveryStatus | null;
  status_at: TimeValue | null;
  error_code: number | null;
  error_title: string | null;
}

/** The columns of a `MessageRow`, for a `messages m LEFT JOIN deliveries d` select. */
export const MESSAGE_COLUMNS = `m.id, m.tenant_id, m.conversation_key, m.direction, m.wamid, m.customer_id, m.turn_id,
  m.part, m.type, m.text, m.body, m.content, m.reading, m.media_id, m.caption, m.sent_by, m.meta_timestamp, m.at,
  d.status, d.status_at, d.error_code, d.error_title`;

/** Drops SQL NULLs so optional fields are absent rather than null. */
function present<T extends Record<string, unknown>>(fields: T): { [K in keyof T]?: Exclude<T[K], null> } {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null)) as {
    [K in keyof T]?: Exclude<T[K], null>;
  };
}

export function toStoredMessage(row: MessageRow): StoredMessage {
  return {
    direction: row.direction,
    tenantId: row.tenant_id,
    conversationKey: row.conversation_key,
    type: row.type,
    at: msOf(row.at),
    ...present({
      wamid: row.wamid,
      customerId: row.customer_id,
      turnId: row.turn_id,
      part: row.part,
      text: row.text,
      body: row.body,
      content: row.content,
      reading: row.reading as MediaReading | null,
      mediaId: row.media_id,
      caption: row.caption,
      sentBy: row.sent_by,
      metaTimestamp: row.meta_timestamp === null ? null : msOf(row.meta_timestamp) / 1000,
    }),
    ...(row.status === null || row.status_at === null
      ? {}
      : {
          delivery: {
            status: row.status,
            at: msOf(row.status_at),
            ...present({ errorCode: row.error_code, errorTitle: row.error_title }),
          },
        }),
  };
}

/** A turn row with its JSON already parsed (`decision`, `tools`, `calls`). */
export interface TurnRow {
  turn_id: string;
  tenant_id: string;
  conversation_key: string;
  decision: TurnRecord["decision"];
  agent_outcome: string | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  /** node-postgres gives a numeric as a string. */
  cost_usd: number | string | null;
  tools: readonly string[] | null;
  calls: readonly ToolCallRecord[] | null;
  at: TimeValue;
}

export const TURN_COLUMNS = `turn_id, tenant_id, conversation_key, decision, agent_outcome, prompt_tokens,
  completion_tokens, cost_usd, tools, calls, at`;

export function toTurnRecord(row: TurnRow): TurnRecord {
  return {
    turnId: row.turn_id,
    tenantId: row.tenant_id,
    conversationKey: row.conversation_key,
    decision: row.decision,
    ...(row.agent_outcome === null
      ? {}
      : {
          agent: {
            outcome: row.agent_outcome,
            promptTokens: row.prompt_tokens ?? 0,
            completionTokens: row.completion_tokens ?? 0,
            costUsd: Number(row.cost_usd ?? 0),
            tools: row.tools ?? [],
            ...(row.calls === null ? {} : { calls: row.calls }),
          },
        }),
    at: msOf(row.at),
  };
}

export interface NoteRow {
  id: string | number;
  tenant_id: string;
  conversation_key: string;
  operator_id: string;
  text: string;
  at: TimeValue;
}

export const NOTE_COLUMNS = "id, tenant_id, conversation_key, operator_id, text, at";

export function toStoredNote(row: NoteRow): StoredNote {
  return {
    id: String(row.id),
    tenantId: row.tenant_id,
    conversationKey: row.conversation_key,
    operatorId: row.operator_id,
    text: row.text,
    at: msOf(row.at),
  };
}
