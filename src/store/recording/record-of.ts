import type { OutboundReply } from "../../outbound/index.js";
import type { InboundMessage } from "../../whatsapp/index.js";
import type { InboundRecord, OutboundRecord } from "../ports.js";
import { boundedCustomerName } from "../record-values.js";

/** Types whose object names a media id (and, for some, a caption). */
const MEDIA_TYPES: ReadonlySet<string> = new Set(["image", "video", "audio", "document", "sticker"]);

function field(content: unknown, name: string): string | undefined {
  const value =
    content !== null && typeof content === "object" ? (content as Record<string, unknown>)[name] : undefined;
  return typeof value === "string" ? value : undefined;
}

/**
 * The normalised message without what the log's columns already key it by:
 * everything Meta said (type-named object, context, referral, errors) and
 * what sharpsharp made of it (customer, target, why it is not answered).
 */
function contentOf(message: InboundMessage): Record<string, unknown> {
  const { tenantId: _t, conversationKey: _k, wamid: _w, receivedAt: _r, ...content } = message;
  return content;
}

/**
 * A customer message as the message log keeps it. For media the readable
 * text is the caption, kept as `caption` only (the console previews text, else
 * the caption); there is no transcript to keep yet (speech-to-text is not in
 * the inbound message). `content` keeps the whole normalised message. The
 * profile name is the customer's own choice: trimmed and bounded.
 */
export function inboundRecordOf(message: InboundMessage): InboundRecord {
  const media = MEDIA_TYPES.has(message.type);
  const customerName = boundedCustomerName(message.customer.name);
  const mediaId = media ? field(message.content, "id") : undefined;
  const caption = media ? field(message.content, "caption") : undefined;
  return {
    tenantId: message.tenantId,
    conversationKey: message.conversationKey,
    wamid: message.wamid,
    // The ingress drops messages with no sender; the key's last part is the customer all the same.
    customerId:
      message.customer.waId ??
      message.customer.userId ??
      message.customer.rawId ??
      message.conversationKey.slice(message.conversationKey.lastIndexOf(":") + 1),
    ...(customerName === undefined ? {} : { customerName }),
    type: message.type,
    ...(message.text === undefined || caption !== undefined ? {} : { text: message.text }),
    ...(mediaId === undefined ? {} : { mediaId }),
    ...(caption === undefined ? {} : { caption }),
    content: contentOf(message),
    metaTimestamp: message.timestamp,
    receivedAt: message.receivedAt,
  };
}

/** What a reader sees of a Graph API body: a text's body, an interactive message's body text. */
export function textOfGraphBody(body: Readonly<Record<string, unknown>>): string | undefined {
  const type = body.type;
  if (type === "text") return field(body.text, "body");
  if (type === "interactive") {
    const interactive = body.interactive as Record<string, unknown> | undefined;
    return field(interactive?.body, "text");
  }
  return undefined;
}

/** One queued reply part as the message log keeps it (no wamid yet: the sender fills it in). */
export function outboundRecordOf(reply: OutboundReply, queuedAt: number): OutboundRecord {
  const customerId = reply.to ?? reply.recipient;
  const text = textOfGraphBody(reply.message);
  return {
    tenantId: reply.tenantId,
    conversationKey: reply.conversationKey,
    turnId: reply.turnId,
    part: reply.part,
    ...(customerId === undefined ? {} : { customerId }),
    type: typeof reply.message.type === "string" ? reply.message.type : "unknown",
    ...(text === undefined ? {} : { text }),
    body: reply.message,
    ...(reply.sentBy === undefined ? {} : { sentBy: reply.sentBy }),
    queuedAt,
  };
}
