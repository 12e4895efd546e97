import type { DeliveryStatus } from "../../delivery/index.js";
import type { ConversationSummary, StoredConversationMode, StoredMessage } from "../ports.js";

/** Characters of a message's text the conversation list shows. */
export const PREVIEW_CHARS = 120;

export interface ConversationRow {
  conversation_key: string;
  tenant_id: string;
  customer_id: string | null;
  mode: string;
  assigned_agent: string | null;
  last_activity_at: Date;
  last_direction: "inbound" | "outbound" | null;
  last_type: string | null;
  last_preview: string | null;
  last_at: Date | null;
}

/** Selects a conversation row with its newest message (one index probe per conversation). */
export const CONVERSATION_COLUMNS = `
  c.conversation_key, c.tenant_id, c.customer_id, c.mode, c.assigned_agent, c.last_activity_at,
  last.direction AS last_direction, last.type AS last_type,
  left(coalesce(last.text, last.caption), ${PREVIEW_CHARS}) AS last_preview, last.at AS last_at`;

export function conversationLateralJoin(messages: string): string {
  return `LEFT JOIN LATERAL (
    SELECT direction, type, text, caption, at FROM ${messages}
    WHERE conversation_key = c.conversation_key ORDER BY at DESC, id DESC LIMIT 1
  ) last ON true`;
}

export function toConversationSummary(row: ConversationRow): ConversationSummary {
  return {
    tenantId: row.tenant_id,
    conversationKey: row.conversation_key,
    ...(row.customer_id === null ? {} : { customerId: row.customer_id }),
    mode: row.mode as StoredConversationMode,
    ...(row.assigned_agent === null ? {} : { assignedAgent: row.assigned_agent }),
    lastActivityAt: row.last_activity_at.getTime(),
    ...(row.last_direction === null || row.last_type === null || row.last_at === null
      ? {}
      : {
          lastMessage: {
            direction: row.last_direction,
            type: row.last_type,
            ...(row.last_preview === null ? {} : { preview: row.last_preview }),
            at: row.last_at.getTime(),
          },
        }),
  };
}

export interface MessageRow {
  id: string;
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
  media_id: string | null;
  caption: string | null;
  meta_timestamp: Date | null;
  at: Date;
  status: DeliveryStatus | null;
  status_at: Date | null;
  error_code: number | null;
  error_title: string | null;
}

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
    at: row.at.getTime(),
    ...present({
      wamid: row.wamid,
      customerId: row.customer_id,
      turnId: row.turn_id,
      part: row.part,
      text: row.text,
      body: row.body,
      mediaId: row.media_id,
      caption: row.caption,
      metaTimestamp: row.meta_timestamp === null ? null : row.meta_timestamp.getTime() / 1000,
    }),
    ...(row.status === null || row.status_at === null
      ? {}
      : {
          delivery: {
            status: row.status,
            at: row.status_at.getTime(),
            ...present({ errorCode: row.error_code, errorTitle: row.error_title }),
          },
        }),
  };
}
