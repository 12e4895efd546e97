import type { z } from "zod";
import { type AnswerabilityScope, unanswerableReasonOf } from "./answerability.js";
import { conversationKeyOf } from "./conversation-key.js";
import { customerIdOf, customerOf } from "./customer-identity.js";
import type { InboundMessage, InboundMessageType } from "./inbound-types.js";
import {
  type contactSchema,
  LEGACY_TYPE_ALIASES,
  type messageBaseSchema,
  messageContentSchemas,
} from "./webhook-schema.js";

type MessageBase = z.output<typeof messageBaseSchema>;
type Contact = z.output<typeof contactSchema>;

export interface MessageScope extends AnswerabilityScope {
  readonly tenantId: string;
  readonly phoneNumberId: string;
  readonly wabaId: string;
  readonly receivedAt: number;
  readonly contacts: readonly Contact[];
}

/**
 * How far Meta's timestamp may run ahead of our clock, s: beyond it the
 * sender's clock is wrong (or the payload made up), and ordering the inbox by
 * it would put the message after everything the customer writes next.
 */
export const FUTURE_TOLERANCE_SECONDS = 300;

function isKnownType(type: string): type is InboundMessageType {
  return Object.hasOwn(messageContentSchemas, type);
}

type Content = Record<string, unknown>;
const str = (value: unknown) => (typeof value === "string" ? value : undefined);
const objectOf = (value: unknown): Content =>
  value !== null && typeof value === "object" ? (value as Content) : {};

function readableText(type: string, content: Content): string | undefined {
  switch (type) {
    case "text":
      return str(content.body);
    case "image":
    case "video":
    case "document":
      return str(content.caption);
    case "button":
      return str(content.text);
    case "interactive": {
      const reply = (content.button_reply ?? content.list_reply) as Content | undefined;
      return str(reply?.title);
    }
    case "order":
      return str(content.text);
    case "edit": {
      // What the message says now: the edited message's own text or caption.
      const edited = objectOf(content.message);
      const editedType = str(edited.type);
      return editedType === undefined ? undefined : readableText(editedType, objectOf(edited[editedType]));
    }
    default:
      return undefined;
  }
}

function replyIdOf(type: InboundMessageType, content: Content): string | undefined {
  if (type === "button") return str(content.payload);
  if (type !== "interactive") return undefined;
  const reply = (content.button_reply ?? content.list_reply) as Content | undefined;
  return str(reply?.id);
}

function targetOf(type: InboundMessageType, content: Content): string | undefined {
  if (type === "reaction") return str(content.message_id);
  if (type === "edit" || type === "revoke") return str(content.original_message_id);
  return undefined;
}

/** The modelled type and its (checked, coerced) object; `unsupported` with Meta's object when it does not fit. */
function typedContent(message: MessageBase): { type: InboundMessageType; raw: unknown } {
  const raw = (message as Content)[message.type];
  const modelled = LEGACY_TYPE_ALIASES[message.type] ?? message.type;
  if (!isKnownType(modelled)) return { type: "unsupported", raw };
  const parsed = messageContentSchemas[modelled].safeParse(raw);
  return parsed.success ? { type: modelled, raw: parsed.data } : { type: "unsupported", raw };
}

/**
 * Turns one `messages[]` item into an InboundMessage, or undefined when it
 * names no sender. A type we do not model, or a known type whose object does
 * not have the shape Meta documents, becomes `unsupported` (never an error).
 * Whether it may be answered is decided here too (`unanswerable`).
 */
export function normalizeMessage(message: MessageBase, scope: MessageScope): InboundMessage | undefined {
  const customer = customerOf(message, scope.contacts);
  const customerId = customerIdOf(customer);
  if (customerId === undefined) return undefined;

  const { type, raw } = typedContent(message);
  const content = objectOf(raw);
  // A group's messages are the group's conversation, never the sender's one-to-one chat.
  const conversationId = message.group_id ?? customerId;
  const metaTimestamp = Number(message.timestamp);
  const arrivedAt = Math.floor(scope.receivedAt / 1000);
  const future = metaTimestamp > arrivedAt + FUTURE_TOLERANCE_SECONDS;
  const normalized: Record<string, unknown> = {
    tenantId: scope.tenantId,
    phoneNumberId: scope.phoneNumberId,
    wabaId: scope.wabaId,
    conversationKey: conversationKeyOf(scope.tenantId, scope.phoneNumberId, conversationId),
    wamid: message.id,
    timestamp: future ? arrivedAt : metaTimestamp,
    receivedAt: scope.receivedAt,
    type,
    customer,
  };
  if (future) normalized.futureTimestamp = metaTimestamp;
  if (type !== message.type && message.type !== "unsupported") normalized.originalType = message.type;
  const text = readableText(type, content);
  if (text !== undefined) normalized.text = text;
  const replyId = replyIdOf(type, content);
  if (replyId !== undefined) normalized.replyId = replyId;
  // A text message's whole content is its body, already in `text`; storing it twice doubles the bytes.
  const contentIsText = type === "text" && Object.keys(content).length === 1;
  if (raw !== undefined && !contentIsText) normalized.content = raw;
  const target = targetOf(type, content);
  if (target !== undefined) normalized.targetWamid = target;
  if (message.group_id !== undefined) normalized.groupId = message.group_id;
  if (message.context !== undefined) normalized.context = message.context;
  if (message.referral !== undefined) normalized.referral = message.referral;
  if (message.errors !== undefined) normalized.errors = message.errors;
  const reason = unanswerableReasonOf(normalized as unknown as InboundMessage, scope);
  if (reason !== undefined) normalized.unanswerable = reason;
  return normalized as unknown as InboundMessage;
}
