import type { InboundEvent } from "../whatsapp/index.js";

/**
 * Queue and job names and their payloads, in one place.
 *
 * turns  — one job means "this conversation has waiting messages"; at most one
 *          waits per conversation (deduplicated by conversation key) besides
 *          the one running. Payload: TurnJob.
 * events — statuses and other webhook events, deduplicated by their dedupeId
 *          for the dedupe TTL. Payload: the InboundEvent itself.
 */
export const QUEUE_NAMES = { turns: "turns", events: "events" } as const;

export const JOB_NAMES = { turn: "turn" } as const;

export interface TurnJob {
  readonly tenantId: string;
  readonly conversationKey: string;
}

export type EventJob = InboundEvent;
