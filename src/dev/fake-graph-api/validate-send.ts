import {
  InvalidParameter,
  isObject,
  type JsonObject,
  optionalString,
  requireArray,
  requireObject,
  requireString,
} from "./check.js";
import { checkInteractive } from "./validate-interactive.js";

/** A valid message send: `address` is `to` when given (Meta: `to` wins), else `recipient`. */
export interface MessageSend {
  readonly kind: "message";
  readonly to?: string;
  readonly recipient?: string;
  readonly address: string;
  readonly type: string;
  readonly body: JsonObject;
}

/** A valid mark-as-read, with or without the typing indicator. */
export interface ReadReceipt {
  readonly kind: "read";
  readonly messageId: string;
  readonly typing: boolean;
}

export type ValidSend = MessageSend | ReadReceipt;
export type SendValidation =
  | { readonly ok: true; readonly send: ValidSend }
  | { readonly ok: false; readonly details: string };

const MEDIA_TYPES = new Set(["image", "audio", "video", "document", "sticker"]);
const CAPTIONED = new Set(["image", "video", "document"]);

function checkMedia(body: JsonObject, type: string): void {
  const media = requireObject(body, type, type);
  const hasId = typeof media.id === "string" && media.id !== "";
  const hasLink = typeof media.link === "string" && media.link !== "";
  if (hasId === hasLink) throw new InvalidParameter(`Param ${type} must have exactly one of 'id' or 'link'`);
  // Meta fetches linked media over https only.
  if (hasLink && !/^https:\/\/\S+$/i.test(media.link as string)) {
    throw new InvalidParameter(`Param ${type}['link'] must be an https URL`);
  }
  if (media.voice !== undefined && (type !== "audio" || typeof media.voice !== "boolean")) {
    throw new InvalidParameter(`Param ${type}['voice'] is only a boolean of audio messages`);
  }
  if (type === "document") optionalString(media, "filename", "document['filename']");
  else if (media.filename !== undefined) throw new InvalidParameter(`Param ${type} cannot have a filename`);
  if (CAPTIONED.has(type)) optionalString(media, "caption", `${type}['caption']`, 1024);
  else if (media.caption !== undefined) throw new InvalidParameter(`Param ${type} cannot have a caption`);
}

function checkType(body: JsonObject, type: string): void {
  if (MEDIA_TYPES.has(type)) {
    checkMedia(body, type);
    return;
  }
  switch (type) {
    case "text":
      requireString(requireObject(body, "text", "text"), "body", "text['body']", 4096);
      return;
    case "interactive":
      checkInteractive(body);
      return;
    case "template": {
      const template = requireObject(body, "template", "template");
      requireString(template, "name", "template['name']", 512);
      requireString(requireObject(template, "language", "template['language']"), "code", "language['code']");
      if (template.components !== undefined) requireArray(template, "components", "template['components']");
      return;
    }
    case "reaction": {
      const reaction = requireObject(body, "reaction", "reaction");
      requireString(reaction, "message_id", "reaction['message_id']");
      // An empty emoji is how a reaction is removed, so only its presence is required.
      if (typeof reaction.emoji !== "string")
        throw new InvalidParameter("Param reaction['emoji'] is required");
      if (body.context !== undefined) throw new InvalidParameter("A reaction cannot be sent as a reply");
      return;
    }
    case "location": {
      const location = requireObject(body, "location", "location");
      for (const key of ["latitude", "longitude"]) {
        const value = location[key];
        if (!(typeof value === "number" || (typeof value === "string" && value.trim() !== ""))) {
          throw new InvalidParameter(`Param location['${key}'] is required`);
        }
      }
      return;
    }
    case "contacts":
      if (requireArray(body, "contacts", "contacts").length === 0) {
        throw new InvalidParameter("Param contacts must not be empty");
      }
      return;
    default:
      throw new InvalidParameter(`Param type must be one of the supported message types, not "${type}"`);
  }
}

function validateRead(body: JsonObject): ReadReceipt {
  if (body.status !== "read") throw new InvalidParameter('Param status must be "read"');
  const messageId = requireString(body, "message_id", "message_id");
  const typing = body.typing_indicator;
  if (typing !== undefined && (!isObject(typing) || typing.type !== "text")) {
    throw new InvalidParameter("Param typing_indicator['type'] must be \"text\"");
  }
  return { kind: "read", messageId, typing: typing !== undefined };
}

function validateMessage(body: JsonObject): MessageSend {
  const to = typeof body.to === "string" && body.to.trim() !== "" ? body.to : undefined;
  const recipient =
    typeof body.recipient === "string" && body.recipient.trim() !== "" ? body.recipient : undefined;
  const address = to ?? recipient;
  if (address === undefined) throw new InvalidParameter("Param to or recipient is required");
  if (to !== undefined && !/^\+?[\d\s\-()]{5,}$/.test(to)) {
    throw new InvalidParameter("Param to must be a phone number");
  }
  const recipientType = body.recipient_type;
  if (recipientType !== undefined && recipientType !== "individual" && recipientType !== "group") {
    throw new InvalidParameter('Param recipient_type must be "individual" or "group"');
  }
  if (body.context !== undefined) {
    requireString(requireObject(body, "context", "context"), "message_id", "context['message_id']");
  }
  // Meta caps the value it echoes back in status webhooks at 512 characters.
  optionalString(body, "biz_opaque_callback_data", "biz_opaque_callback_data", 512);
  const type = body.type ?? "text";
  if (typeof type !== "string") throw new InvalidParameter("Param type must be a string");
  checkType(body, type);
  return {
    kind: "message",
    ...(to === undefined ? {} : { to }),
    ...(recipient === undefined ? {} : { recipient }),
    address,
    type,
    body,
  };
}

/**
 * Checks a `POST /{phone-number-id}/messages` body the way Meta does: a
 * message of a known type with the fields and limits Meta documents, or a
 * mark-as-read (optionally with the typing indicator). Invalid bodies get
 * the `details` Meta's error 100 would carry.
 */
export function validateSend(body: unknown): SendValidation {
  try {
    if (!isObject(body)) throw new InvalidParameter("The request body must be a JSON object");
    if (body.messaging_product !== "whatsapp") {
      throw new InvalidParameter('Param messaging_product must be "whatsapp"');
    }
    const send = body.status !== undefined ? validateRead(body) : validateMessage(body);
    return { ok: true, send };
  } catch (error) {
    if (error instanceof InvalidParameter) return { ok: false, details: error.message };
    throw error;
  }
}

/** A phone number as Meta's `wa_id`: digits only. */
export function waIdOf(phone: string): string {
  return phone.replace(/\D/g, "");
}

/** One key per customer: "+234 801-234" and "234801234" are the same number; a BSUID is kept as it is. */
export function customerKey(address: string): string {
  return /^[+\d\s\-()]+$/.test(address) ? waIdOf(address) : address;
}
