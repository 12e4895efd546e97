import type { DeliveryStatus } from "../delivery/index.js";
import type { InboundRecord, OutboundRecord, TurnRecord } from "./ports.js";

/**
 * How an adapter's driver takes the values SQL has no common type for:
 * Postgres wants a `Date` for timestamptz and an array for text[]; SQLite
 * stores ms integers and JSON text.
 */
export interface ValueEncoding {
  /** `ms` is ms since the epoch. */
  readonly time: (ms: number) => unknown;
  readonly list: (items: readonly string[]) => unknown;
}

/**
 * The bound values of each write, in the column order both adapters' INSERTs
 * list, with absent optional fields as SQL NULL.
 */
export function inboundValues(message: InboundRecord, encode: ValueEncoding): unknown[] {
  return [
    message.tenantId,
    message.conversationKey,
    message.wamid,
    message.customerId,
    message.type,
    message.text ?? null,
    message.mediaId ?? null,
    message.caption ?? null,
    message.content === undefined ? null : JSON.stringify(message.content),
    encode.time(message.metaTimestamp * 1000),
    encode.time(message.receivedAt),
  ];
}

export function outboundValues(reply: OutboundRecord, encode: ValueEncoding): unknown[] {
  return [
    reply.tenantId,
    reply.conversationKey,
    reply.wamid ?? null,
    reply.customerId ?? null,
    reply.turnId,
    reply.part,
    reply.type,
    reply.text ?? null,
    reply.body === undefined ? null : JSON.stringify(reply.body),
    reply.sentBy ?? null,
    encode.time(reply.queuedAt),
  ];
}

/** Characters of a customer's profile name the log keeps (a name is short; a hostile one need not be). */
export const MAX_CUSTOMER_NAME_CHARS = 256;

/** Trimmed and bounded (whole code points); absent when empty. */
export function boundedCustomerName(name: string | undefined): string | undefined {
  const trimmed = name?.trim();
  if (trimmed === undefined || trimmed === "") return undefined;
  const chars = Array.from(trimmed);
  return chars.length > MAX_CUSTOMER_NAME_CHARS ? chars.slice(0, MAX_CUSTOMER_NAME_CHARS).join("") : trimmed;
}

/** Meta's error is kept for `failed` only. */
export function deliveryValues(
  tenantId: string,
  wamid: string,
  status: DeliveryStatus,
  at: number,
  error: { readonly code: number; readonly title: string } | undefined,
  encode: ValueEncoding,
): unknown[] {
  return [
    tenantId,
    wamid,
    status,
    encode.time(at),
    status === "failed" ? (error?.code ?? null) : null,
    status === "failed" ? (error?.title ?? null) : null,
  ];
}

export function turnValues(turn: TurnRecord, encode: ValueEncoding): unknown[] {
  return [
    turn.turnId,
    turn.tenantId,
    turn.conversationKey,
    JSON.stringify(turn.decision),
    turn.agent?.outcome ?? null,
    turn.agent?.promptTokens ?? null,
    turn.agent?.completionTokens ?? null,
    turn.agent?.costUsd ?? null,
    turn.agent === undefined ? null : encode.list(turn.agent.tools),
    turn.agent?.calls === undefined ? null : JSON.stringify(turn.agent.calls),
    encode.time(turn.at),
  ];
}
