import type { InboundEvent } from "../whatsapp/index.js";

/**
 * Queue and job names and their payloads, in one place.
 *
 * turns  — one job means "this conversation has waiting messages"; at most one
 *          waits per conversation (deduplicated by conversation key) besides
 *          the one running. Payload: TurnJob.
 * events — statuses and other webhook events, deduplicated by their dedupeId
 *          for the dedupe TTL. Payload: the InboundEvent itself. In Redis mode
 *          not a BullMQ queue but a stream (queue/redis/redis-event-stream.ts).
 * outbound — one job per reply part to send through the Graph API; its job id
 *          is derived from (tenant, turn, part), so a retried turn never
 *          queues a second copy. Payload: OutboundJob.
 */
export const QUEUE_NAMES = { turns: "turns", events: "events", outbound: "outbound" } as const;

export const JOB_NAMES = { turn: "turn", send: "send" } as const;

export interface TurnJob {
  readonly tenantId: string;
  readonly conversationKey: string;
}

export type EventJob = InboundEvent;

/**
 * One part of a reply to send. Exactly one of `to` (wa_id) and `recipient`
 * (business-scoped user id) names the customer.
 */
export interface OutboundReply {
  readonly tenantId: string;
  /** The sending business number. */
  readonly phoneNumberId: string;
  readonly conversationKey: string;
  /** The customer's wa_id (phone number). */
  readonly to?: string;
  /** The customer's business-scoped user id, for customers without a phone number. */
  readonly recipient?: string;
  /** The turn that produced the reply; with `part`, the reply's identity. */
  readonly turnId: string;
  /** 0-based index of this message within the turn's reply. */
  readonly part: number;
  /** Graph API body fields: `type` and its object, optionally `context` (no `to`/`recipient`). */
  readonly message: Readonly<Record<string, unknown>>;
  /** Set on the re-engagement template sent in place of a reply refused with 131047 (never re-engaged again). */
  readonly reengagement?: true;
  /** The operator who wrote the reply (their id), when it came from the console; absent: the bot. */
  readonly sentBy?: string;
  /** When the turn's earliest message reached the ingress (webhook arrival), ms since the epoch; for the end-to-end latency. */
  readonly receivedAt?: number;
  /** The W3C traceparent of the turn's span, the send's parent; only when tracing is on. */
  readonly traceparent?: string;
}

/**
 * Payload of an `outbound` job: the reply plus the sender's own bookkeeping
 * (BullMQ's attempt counter is not used: waits and retries move the job to
 * delayed without spending attempts).
 */
export interface OutboundJob extends OutboundReply {
  /** Send attempts that failed so far. */
  readonly failedAttempts?: number;
  /** An earlier attempt ended with an unknown outcome and was retried once. */
  readonly unknownOutcomeRetried?: boolean;
  /** Set just before a send; found set on a job that starts again, the last send's outcome is unknown. */
  readonly sending?: boolean;
  /**
   * Meta's wamid, written the moment the send answered: a job that starts
   * again with it set was sent, and only its bookkeeping is redone.
   */
  readonly sentWamid?: string;
  /**
   * The reply's place in its conversation's send order (1, 2, …), given at
   * enqueue; absent on jobs queued before ordering existed (sent unordered).
   */
  readonly seq?: number;
  /** ms since the epoch: when the send was first held back for an earlier reply of its conversation. */
  readonly orderHeldSince?: number;
}
