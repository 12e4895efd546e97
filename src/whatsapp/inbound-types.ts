import type { messageContentSchemas } from "./webhook-schema.js";

/** Message types sharpsharp models; anything else arrives as `unsupported` with `originalType`. */
export type InboundMessageType = keyof typeof messageContentSchemas;

/** Who wrote: a phone number (wa_id), a business-scoped user id (BSUID), or both. */
export interface CustomerIdentity {
  readonly waId?: string;
  readonly userId?: string;
  readonly parentUserId?: string;
  readonly name?: string;
  readonly username?: string;
}

/** One customer message, normalised from a webhook and ready for the conversation inbox. */
export interface InboundMessage {
  readonly tenantId: string;
  readonly phoneNumberId: string;
  readonly wabaId: string;
  /** tenant : phone_number_id : wa_id (or BSUID when there is no number) — the unit of ordering. */
  readonly conversationKey: string;
  readonly wamid: string;
  /** Meta's timestamp, Unix seconds. */
  readonly timestamp: number;
  /** When the ingress received it, Unix ms. */
  readonly receivedAt: number;
  readonly type: InboundMessageType;
  /** Meta's own type name when it is not one we model (then `type` is "unsupported"). */
  readonly originalType?: string;
  readonly customer: CustomerIdentity;
  /** What a reader of the conversation sees as text: body, caption, button or list title. */
  readonly text?: string;
  /** Interactive reply id or template button payload, for routing without reading text. */
  readonly replyId?: string;
  /** The type-named object as Meta sent it (unknown fields kept); left out for a text whose only field is `body`. */
  readonly content?: unknown;
  readonly context?: Readonly<Record<string, unknown>>;
  readonly referral?: Readonly<Record<string, unknown>>;
  readonly errors?: readonly unknown[];
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

export type InboundEvent = StatusEvent | ChangeEvent;

/** Why a message in an otherwise valid webhook could not be queued. */
export type DroppedReason = "malformed_message" | "no_sender" | "malformed_status";

export interface ParsedWebhook {
  readonly messages: InboundMessage[];
  readonly events: InboundEvent[];
  /** `value.errors` entries, for logging and counting. */
  readonly webhookErrors: { readonly phoneNumberId: string; readonly code: unknown }[];
  readonly dropped: { readonly reason: DroppedReason; readonly id?: string }[];
}
