import type { messageContentSchemas } from "./webhook-schema.js";

/** Message types sharpsharp models; anything else arrives as `unsupported` with `originalType`. */
export type InboundMessageType = keyof typeof messageContentSchemas;

/**
 * Why a customer message is recorded but never answered. Each is a message a
 * reply would be wrong for: a reaction, an edit or a deletion is about an
 * earlier message, not something new to answer; a system notice is Meta's,
 * not the customer's; a group is not a one-to-one chat; a number no tenant
 * lists has no token of its own to answer with; and a sender with neither a
 * wa_id nor a BSUID, or our own number, has no address a reply could go to.
 */
export type UnanswerableReason =
  | "reaction"
  | "edit"
  | "revoke"
  | "system"
  | "group"
  | "unlisted_number"
  | "no_reply_address"
  | "own_number";

/** Who wrote: a phone number (wa_id), a business-scoped user id (BSUID), or both. */
export interface CustomerIdentity {
  /** Digits only: a reply's `to`. */
  readonly waId?: string;
  /** A well-formed BSUID: a reply's `recipient` when there is no wa_id. */
  readonly userId?: string;
  /** What named the sender when it was neither (a placeholder, a malformed id): never an address. */
  readonly rawId?: string;
  readonly parentUserId?: string;
  readonly name?: string;
  readonly username?: string;
}

/** The kinds of media a customer message can carry, each with its own size limit at Meta. */
export type MediaKind = "audio" | "image" | "document" | "video" | "sticker";

/**
 * What the turn worker read from a message's media before the turn ran (see
 * src/media/): never filled in by the ingress. The bytes themselves are not
 * kept here: only what a reader (the router, the agent, an operator) needs.
 */
export interface MediaReading {
  readonly kind: MediaKind;
  readonly mediaId: string;
  readonly mimeType?: string;
  /** Bytes downloaded. */
  readonly size?: number;
  /** Base64, as Meta writes it. */
  readonly sha256?: string;
  readonly fileName?: string;
  /** A voice note or audio file, as speech to text heard it. */
  readonly transcript?: {
    readonly text: string;
    readonly language?: string;
    readonly provider: string;
    readonly model: string;
    readonly costUsd?: number;
  };
  /** A bank transfer receipt read from an image: amount, date, bank, reference, names. */
  readonly receipt?: Readonly<Record<string, unknown>>;
  /** Text taken from a document (a PDF's first pages), bounded. */
  readonly extractedText?: string;
  /** One line a reader sees in place of the media (an image's description, a document's name). */
  readonly description?: string;
  /** Why it could not be read; the message stays in the turn with this marker. */
  readonly failure?: { readonly code: string; readonly reason: string };
}

/** One customer message, normalised from a webhook and ready for the conversation inbox. */
export interface InboundMessage {
  readonly tenantId: string;
  readonly phoneNumberId: string;
  readonly wabaId: string;
  /** tenant : phone_number_id : wa_id (or BSUID when there is no number) — the unit of ordering. */
  readonly conversationKey: string;
  readonly wamid: string;
  /**
   * Meta's timestamp, Unix seconds; the second of arrival instead when Meta's
   * was ahead of it by more than the tolerance (see `futureTimestamp`).
   */
  readonly timestamp: number;
  /** Meta's timestamp when it lay in the future: kept, but never used to order the inbox. */
  readonly futureTimestamp?: number;
  /** When the ingress received it, Unix ms. */
  readonly receivedAt: number;
  readonly type: InboundMessageType;
  /**
   * Meta's own type name when it differs from `type`: one we do not model
   * (then `type` is "unsupported") or a legacy name (`voice`, now `audio`).
   */
  readonly originalType?: string;
  readonly customer: CustomerIdentity;
  /** What a reader of the conversation sees as text: body, caption, button or list title. */
  readonly text?: string;
  /** Interactive reply id or template button payload, for routing without reading text. */
  readonly replyId?: string;
  /**
   * The type-named object as Meta sent it (unknown fields kept; numeric-string
   * coordinates made numbers); left out for a text whose only field is `body`.
   */
  readonly content?: unknown;
  /** The wamid a reaction, an edit or a revoke is about. */
  readonly targetWamid?: string;
  /** The group the message was written in (Groups API); the conversation is the group's. */
  readonly groupId?: string;
  /** Why the message is recorded and never answered; absent: it is answered (see answerability.ts). */
  readonly unanswerable?: UnanswerableReason;
  readonly context?: Readonly<Record<string, unknown>>;
  readonly referral?: Readonly<Record<string, unknown>>;
  readonly errors?: readonly unknown[];
  /** What the turn worker read from the media (a transcript, a receipt's slots…); never set by the ingress. */
  readonly reading?: MediaReading;
  /** The W3C traceparent of the webhook's span, carried to the turn; only when tracing is on. */
  readonly traceparent?: string;
}

/** A delivery status of a message we sent. Deduplicated by (tenant, wamid, status). */
export interface StatusEvent {
  readonly kind: "status";
  readonly dedupeId: string;
  readonly tenantId: string;
  readonly phoneNumberId: string;
  readonly wamid: string;
  readonly status: string;
  readonly timestamp: number;
  readonly receivedAt: number;
  readonly recipient: { readonly waId?: string; readonly userId?: string };
  readonly errors?: readonly unknown[];
  readonly pricing?: Readonly<Record<string, unknown>>;
  readonly conversation?: Readonly<Record<string, unknown>>;
  readonly bizOpaqueCallbackData?: string;
  /** The W3C traceparent of the status webhook's span; only when tracing is on. */
  readonly traceparent?: string;
}

/** `value.errors` (system, app or account level) and changes of fields other than "messages". */
export interface ChangeEvent {
  readonly kind: "webhook_error" | "change";
  readonly dedupeId: string;
  readonly tenantId: string;
  readonly wabaId: string;
  readonly field: string;
  readonly phoneNumberId?: string;
  readonly receivedAt: number;
  readonly value: unknown;
}

/**
 * A message that is recorded and never answered (a reaction, an edit, a
 * system notice…): it takes the events path, so it never enters a
 * conversation inbox or starts a turn. Deduplicated by (tenant, wamid).
 */
export interface RecordOnlyMessageEvent {
  readonly kind: "message";
  readonly dedupeId: string;
  readonly tenantId: string;
  readonly phoneNumberId: string;
  readonly receivedAt: number;
  readonly message: InboundMessage & { readonly unanswerable: UnanswerableReason };
}

export type InboundEvent = StatusEvent | ChangeEvent | RecordOnlyMessageEvent;

/** Why a message in an otherwise valid webhook could not be queued. */
export type DroppedReason = "malformed_message" | "no_sender" | "malformed_status";

export interface ParsedWebhook {
  readonly messages: InboundMessage[];
  readonly events: InboundEvent[];
  /** `value.errors` entries, for logging and counting. */
  readonly webhookErrors: { readonly phoneNumberId: string; readonly code: unknown }[];
  readonly dropped: { readonly reason: DroppedReason; readonly id?: string }[];
}
