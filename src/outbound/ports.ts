import type { OutboundReply } from "../queue/index.js";

export type { OutboundReply } from "../queue/index.js";

/** Where a turn hands its reply: queued durably, sent later by the outbound worker. */
export interface OutboundQueue {
  /**
   * Queues each reply part once. A part whose (tenant, turn, part) is already
   * queued, sending or sent within the dedupe window is skipped, so a retried
   * turn never queues a second copy. Rejects with OutboundReplyInvalidError
   * (nothing queued) when a reply names no customer or both kinds of id.
   */
  enqueue(replies: readonly OutboundReply[]): Promise<void>;
}

/** The answer of a rate limiter. */
export interface SendSlot {
  /** True: a slot is reserved `waitMs` from now; send then. False: nothing reserved, ask again after `waitMs`. */
  readonly granted: boolean;
  /** ms. */
  readonly waitMs: number;
}

/** Meta's send limits, shared by every worker process. */
export interface SendRateLimiter {
  /**
   * Reserves the next slot for one send from `phoneNumberId` to `customer`
   * under both the number's throughput and the pair limit; reserves nothing
   * when that slot is further away than the limiter's reservation horizon (or `horizonMs`, when
   * given: a campaign asks with 0, so it takes only a slot free now and never one a reply waits for).
   */
  reserve(phoneNumberId: string, customer: string, horizonMs?: number): Promise<SendSlot>;
}

/**
 * Tenants whose sends are stopped for a while (a rejected token), or one
 * number of a tenant (blocked by Meta): `tenantId` is then the number's scope
 * (numberPauseScope in send-pause-scope.ts).
 */
export interface TenantSendPause {
  /** Stops the tenant's (or the scope's) sends for `forMs` ms (a later pause replaces an earlier one). */
  pause(tenantId: string, forMs: number): Promise<void>;
  /** ms until the longest of the scopes' pauses ends (one look, however many scopes); 0 when none is paused. */
  remainingMs(...scopes: readonly string[]): Promise<number>;
}

/** What the sender knows of a message Meta accepted: enough to tie its statuses to the reply. */
export interface SentMessage {
  readonly tenantId: string;
  /** Meta's id of the message, as the send answered it. */
  readonly wamid: string;
  readonly phoneNumberId: string;
  readonly conversationKey: string;
  readonly to?: string;
  readonly recipient?: string;
  readonly turnId: string;
  readonly part: number;
  /** The message was itself a re-engagement template. */
  readonly reengagement?: true;
  /**
   * What was sent, for a message no queue recorded before (a campaign's template), so the message
   * log shows it in the conversation; absent: the log knows it from the queue, or not at all.
   */
  readonly content?: { readonly type: string; readonly text?: string };
  /** When Meta accepted it, ms since the epoch. */
  readonly sentAt: number;
  /** The W3C traceparent of the send's span, which its statuses link to; only when tracing is on. */
  readonly traceparent?: string;
}

/** Where the sender records each accepted message (the delivery status store implements it). */
export interface SentMessageRecorder {
  recordSent(message: SentMessage): Promise<void>;
}

/** Where a conversation's send order stands. */
export interface SendOrderCursor {
  /** The lowest sequence number not yet sent or given up. */
  readonly next: number;
  /** The job id holding `next`, when one was given it. */
  readonly jobId?: string;
}

/**
 * Per-conversation send order, shared by every worker process: sequence
 * numbers given at enqueue, and a cursor advanced as replies finish.
 */
export interface SendOrder {
  /** Gives each job id (in send order) the next sequence number, or the one it already holds. */
  assign(tenantId: string, conversationKey: string, jobIds: readonly string[]): Promise<number[]>;
  /** The conversation's cursor. */
  peek(tenantId: string, conversationKey: string): Promise<SendOrderCursor>;
  /** Marks `seq` sent or given up (idempotent); answers the cursor after it. */
  finish(tenantId: string, conversationKey: string, seq: number): Promise<SendOrderCursor>;
}
