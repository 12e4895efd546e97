import type { InboundEvent, InboundMessage } from "../whatsapp/index.js";

/** Everything one webhook delivered, to be recorded together. */
export interface InboundBatch {
  readonly messages: readonly InboundMessage[];
  readonly events: readonly InboundEvent[];
}

/**
 * What happened to each message: `new` (first time seen), `redelivered`
 * (seen before but not yet handled: it is in its inbox and a turn is
 * scheduled, exactly as for a new one), `duplicate` (already handled).
 */
export type MessageEnqueueResult = "new" | "redelivered" | "duplicate";

export interface EnqueueOutcome {
  /** One result per message, in the batch's order. */
  readonly messages: readonly MessageEnqueueResult[];
  /** One result per event, in the batch's order. */
  readonly events: readonly ("new" | "duplicate")[];
}

/**
 * The ingress side of the queue: durable dedupe per (tenant, wamid), the
 * conversation inbox, turn scheduling and the events queue.
 */
export interface InboundQueue {
  /**
   * Records a webhook's messages and events. Resolves only once all of it is
   * durable; rejects with QueueUnavailableError otherwise (then the webhook
   * must not be acknowledged, and a redelivery will complete the work).
   */
  enqueue(batch: InboundBatch): Promise<EnqueueOutcome>;
}

/** The turn worker's side of a conversation inbox. */
export interface ConversationInbox {
  /** Waiting messages of one conversation, in Meta-timestamp order, ties by arrival. */
  read(conversationKey: string, limit?: number): Promise<InboundMessage[]>;
  /** Removes handled messages and marks their ids handled, so redeliveries are dropped. */
  complete(conversationKey: string, wamids: readonly string[]): Promise<void>;
}

export interface QueueDepth {
  readonly inboxMessages: number;
  readonly inboxConversations: number;
  /**
   * Conversations with waiting messages that no worker can claim yet (no due turn): 0 when the
   * scheduling keeps up. A benchmark counts a message handled by the ingress only once this is 0.
   */
  readonly unscheduledConversations: number;
  /** Job counts per queue name and BullMQ state. */
  readonly jobs: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

/** Health and depth of the queue backend, for /readyz and /metrics. */
export interface QueueStatus {
  /** Resolves when the backend answers within `timeoutMs`, rejects otherwise. */
  ping(timeoutMs: number): Promise<void>;
  /**
   * Resolves once the backend can record webhooks (connected, scripts loaded), however long
   * that takes; the ingress listens only then, so its first webhook is not turned away.
   */
  whenReady(): Promise<void>;
  depth(): Promise<QueueDepth>;
  /** Human-readable backend name for the startup line, e.g. "redis 127.0.0.1:6379". */
  readonly description: string;
}

/**
 * The part of a queued job a handler uses. BullMQ's Job has this shape, and
 * so does the embedded runner's, so one handler serves both modes. A handler
 * never moves its job itself: it returns a JobOutcome (see job-outcome.ts).
 */
export interface QueueJob<T> {
  readonly id?: string | undefined;
  readonly data: T;
  /** Replaces the job's data durably (it survives a crash of the process). */
  updateData(data: T): Promise<void>;
  /**
   * Throws if this process no longer holds the job (Redis: its lock lapsed while the worker was cut off,
   * and another worker took the job over). Called before a side effect. The embedded runner has no such
   * case and leaves it out.
   */
  ensureOwned?(): Promise<void>;
}
