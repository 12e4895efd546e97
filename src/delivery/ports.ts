import type { SentMessage, SentMessageRecorder } from "../outbound/index.js";

/**
 * Delivery statuses Meta reports for a message we sent (docs/whatsapp-cloud-api.md §4).
 * `deleted` (the customer deleted it) is not a Cloud API status; older
 * senders report it, and it is kept as the last step, after `played`.
 */
export type DeliveryStatus = "sent" | "delivered" | "read" | "played" | "deleted" | "failed";

/** One status of one of our messages, as a webhook reported it. */
export interface StatusUpdate {
  readonly tenantId: string;
  readonly wamid: string;
  readonly status: DeliveryStatus;
  /** Meta's timestamp, Unix seconds. */
  readonly timestamp: number;
  /** The customer's wa_id or business-scoped user id, when the webhook named one. */
  readonly recipient?: string;
  /** For `failed`: Meta's first error. */
  readonly error?: { readonly code: number; readonly title: string };
}

/** `applied`: the message's state moved forward; `stale_ignored`: it was already as far or further. */
export type ApplyOutcome = "applied" | "stale_ignored";

/** What is known of one of our messages: how it was sent (if this process family sent it) and its latest status. */
export interface DeliveryRecord {
  readonly tenantId: string;
  readonly wamid: string;
  /** Present when the sender recorded the message; absent for statuses of messages sent elsewhere. */
  readonly sent?: SentMessage;
  readonly status?: DeliveryStatus;
  /** Meta's timestamp of `status`, Unix seconds. */
  readonly statusAt?: number;
  readonly recipient?: string;
  readonly errorCode?: number;
  readonly errorTitle?: string;
}

/**
 * The state of our outbound messages, per (tenant, wamid). States only move
 * forward: sent < delivered < read < played < deleted, decided by rank, never by
 * arrival order; `failed` moves a message that is not yet read, and is
 * final. Also where the sender records what it sent.
 */
export interface DeliveryStatusStore extends SentMessageRecorder {
  /** Applies a status atomically; concurrent and repeated calls are safe. */
  applyStatus(update: StatusUpdate): Promise<ApplyOutcome>;
  get(tenantId: string, wamid: string): Promise<DeliveryRecord | undefined>;
}
