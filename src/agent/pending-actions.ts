import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";

/** A side-effect tool call waiting for the customer's Confirm. */
export interface PendingAction {
  readonly id: string;
  readonly toolName: string;
  /** The validated arguments, as the model gave them. */
  readonly args: Readonly<Record<string, unknown>>;
  /** Derived from the turn that proposed it, so a retried confirmation repeats no effect. */
  readonly idempotencyKey: string;
  /** What the customer was asked to confirm. */
  readonly summary: string;
  readonly createdAt: number;
}

/**
 * Pending confirmations, per conversation. A conversation is one customer of
 * one business number, so an action can only be confirmed from the
 * conversation (the customer) it was proposed to.
 */
export interface PendingActionStore {
  /** Stores the action (a fresh id) for `ttlMs`. */
  create(conversationKey: string, action: Omit<PendingAction, "id">, ttlMs: number): Promise<PendingAction>;
  /** Removes and returns the action: a second Confirm (a double tap, a redelivery) finds nothing. */
  take(conversationKey: string, id: string): Promise<PendingAction | undefined>;
}

/** Interactive reply ids of the Confirm and Cancel buttons. */
export const CONFIRM_PREFIX = "ss-confirm:";
export const CANCEL_PREFIX = "ss-cancel:";

export function createRedisPendingActions(redis: Redis, prefix: string): PendingActionStore {
  const key = (conversationKey: string, id: string) => `${prefix}:pending:${conversationKey}:${id}`;
  return {
    async create(conversationKey, action, ttlMs) {
      const stored: PendingAction = { ...action, id: randomBytes(9).toString("base64url") };
      await redis.set(key(conversationKey, stored.id), JSON.stringify(stored), "PX", ttlMs);
      return stored;
    },
    async take(conversationKey, id) {
      if (!/^[A-Za-z0-9_-]{1,32}$/.test(id)) return undefined;
      const raw = await redis.getdel(key(conversationKey, id));
      return raw === null ? undefined : (JSON.parse(raw) as PendingAction);
    },
  };
}
