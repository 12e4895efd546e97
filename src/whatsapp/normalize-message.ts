import type { z } from "zod";
import { conversationKeyOf } from "./conversation-key.js";
import type { CustomerIdentity, InboundMessage, InboundMessageType } from "./inbound-types.js";
import { type contactSchema, type messageBaseSchema, messageContentSchemas } from "./webhook-schema.js";

type MessageBase = z.output<typeof messageBaseSchema>;
type Contact = z.output<typeof contactSchema>;

export interface MessageScope {
  readonly tenantId: string;
  readonly phoneNumberId: string;
  readonly wabaId: string;
  readonly receivedAt: number;
  readonly contacts: readonly Contact[];
}

function isKnownType(type: string): type is InboundMessageType {
  return Object.hasOwn(messageContentSchemas, type);
}

function customerOf(message: MessageBase, contacts: readonly Contact[]): CustomerIdentity {
  // Contacts are matched by id, never by array position (docs/whatsapp-cloud-api.md §2.3).
  const contact = contacts.find(
    (candidate) =>
      (message.from !== undefined && candidate.wa_id === message.from) ||
      (message.from_user_id !== undefined && candidate.user_id === message.from_user_id),
  );
  const identity: Record<string, string> = {};
  const waId = message.from ?? contact?.wa_id;
  const userId = message.from_user_id ?? contact?.user_id;
  const parentUserId = message.from_parent_user_id ?? contact?.parent_user_id;
  if (waId !== undefined) identity.waId = waId;
  if (userId !== undefined) identity.userId = userId;
  if (parentUserId !== undefined) identity.parentUserId = parentUserId;
  if (contact?.profile?.name !== undefined) identity.name = contact.profile.name;
  if (contact?.profile?.username !== undefined) identity.username = contact.profile.username;
  return identity;
}

function readableText(type: InboundMessageType, content: Record<string, unknown>): string | undefined {
  const str = (value: unknown) => (typeof value === "string" ? value : undefined);
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
      const reply = (content.button_reply ?? content.list_reply) as Record<string, unknown> | undefined;
      return str(reply?.title);
    }
    case "order":
      return str(content.text);
    default:
      return undefined;
  }
}

function replyIdOf(type: InboundMessageType, content: Record<string, unknown>): string | undefined {
  if (type === "button") return typeof content.payload === "string" ? content.payload : undefined;
  if (type !== "interactive") return undefined;
  const reply = (content.button_reply ?? content.list_reply) as Record<string, unknown> | undefined;
  return typeof reply?.id === "string" ? reply.id : undefined;
}

/**
 * Turns one `messages[]` item into an InboundMessage, or undefined when it
 * names no sender. A type we do not model, or a known type whose object does
 * not have the shape Meta documents, becomes `unsupported` (never an error).
 */
export function normalizeMessage(message: MessageBase, scope: MessageScope): InboundMessage | undefined {
  const customer = customerOf(message, scope.contacts);
  const customerId = customer.waId ?? customer.userId;
  if (customerId === undefined) return undefined;

  const raw = (message as Record<string, unknown>)[message.type];
  let type: InboundMessageType = "unsupported";
  if (isKnownType(message.type) && messageContentSchemas[message.type].safeParse(raw).success) {
    type = message.type;
  }
  const content = raw !== null && typeof raw === "object" ? (raw as Record<string, unknown>) : {};
  const normalized: Record<string, unknown> = {
    tenantId: scope.tenantId,
    phoneNumberId: scope.phoneNumberId,
    wabaId: scope.wabaId,
    conversationKey: conversationKeyOf(scope.tenantId, scope.phoneNumberId, customerId),
    wamid: message.id,
    timestamp: Number(message.timestamp),
    receivedAt: scope.receivedAt,
    type,
    customer,
  };
  if (type === "unsupported" && message.type !== "unsupported") normalized.originalType = message.type;
  const text = readableText(type, content);
  if (text !== undefined) normalized.text = text;
  const replyId = replyIdOf(type, content);
  if (replyId !== undefined) normalized.replyId = replyId;
  // A text message's whole content is its body, already in `text`; storing it twice doubles the bytes.
  const contentIsText = type === "text" && Object.keys(content).length === 1;
  if (raw !== undefined && !contentIsText) normalized.content = raw;
  if (message.context !== undefined) normalized.context = message.context;
  if (message.referral !== undefined) normalized.referral = message.referral;
  if (message.errors !== undefined) normalized.errors = message.errors;
  return normalized as unknown as InboundMessage;
}
