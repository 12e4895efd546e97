import type { DeliveryStatus } from "../delivery/index.js";
import type { ConversationSummary, StoredConversationMode, StoredMessage } from "./ports.js";

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
  customer_id: string | null;
  mode: string;
  assigned_agent: string | null;
  last_activity_at: TimeValue;
  last_direction: "inbound" | "outbound" | null;
  last_type: string | null;
  last_preview: string | null;
  last_at: TimeValue | null;
}

export function toConversationSummary(row: ConversationRow): ConversationSummary {
  return {
    tenantId: row.tenant_id,
    conversationKey: row.conversation_key,
    ...(row.customer_id === null ? {} : { customerId: row.customer_id }),
    mode: row.mode as StoredConversationMode,
    ...(row.assigned_agent === null ? {} : { assignedAgent: row.assigned_agent }),
    lastActivityAt: msOf(row.last_activity_at),
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
  media_id: string | null;
  caption: string | null;
  meta_timestamp: TimeValue | null;
  at: TimeValue;
  status: DeliveryStatus | null;
  status_at: TimeValue | null;
  error_code: number | null;
  error_title: string | null;
}

/** The columns of a `MessageRow`, for a `messages m LEFT JOIN deliveries d` select. */
export const MESSAGE_COLUMNS = `m.id, m.tenant_id, m.conversation_key, m.direction, m.wamid, m.customer_id, m.turn_id,
  m.part, m.type, m.text, m.body, m.content, m.media_id, m.caption, m.meta_timestamp, m.at,
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
      mediaId: row.media_id,
      caption: row.caption,
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
