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

/** What claiming a pending action found. */
export type ClaimResult =
  | { readonly kind: "claimed"; readonly action: PendingAction }
  /** Claimed before by another message (a double tap): the action already ran. */
  | { readonly kind: "already"; readonly action: PendingAction }
  | { readonly kind: "missing" };

/**
 * Pending confirmations, per conversation. A conversation is one customer of
 * one business number, so an action can only be confirmed from the
 * conversation (the customer) it was proposed to.
 */
export interface PendingActionStore {
  /** Stores the action (a fresh id) for `ttlMs`. */
  create(conversationKey: string, action: Omit<PendingAction, "id">, ttlMs: number): Promise<PendingAction>;
  /**
   * Claims the action for the message `by` (the Confirm or Cancel tap). The
   * same message claiming again (a retried turn) gets it again, so a crash
   * after the claim cannot lose the confirmation; any other message finds it
   * `already` claimed. Claimed actions stay until their TTL ends.
   */
  claim(conversationKey: string, id: string, by: string): Promise<ClaimResult>;
}

/** Interactive reply ids of the Confirm and Cancel buttons. */
export const CONFIRM_PREFIX = "ss-confirm:";
export const CANCEL_PREFIX = "ss-cancel:";

/**
 * claimPendingAction: KEYS[1] the action; ARGV[1] the claiming message id.
 * Returns {status, json}: status "claimed" (first claim, or the same message
 * again), "already" (claimed by another message) or "missing".
 */
const CLAIM_LUA = `
local raw = redis.call("GET", KEYS[1])
if not raw then return {"missing", ""} end
local action = cjson.decode(raw)
if action.claimedBy == nil then
  action.claimedBy = ARGV[1]
  redis.call("SET", KEYS[1], cjson.encode(action), "KEEPTTL")
  return {"claimed", raw}
end
if action.claimedBy == ARGV[1] then return {"claimed", raw} end
return {"already", raw}
`;

export function createRedisPendingActions(redis: Redis, prefix: string): PendingActionStore {
  const key = (conversationKey: string, id: string) => `${prefix}:pending:${conversationKey}:${id}`;
  return {
    async create(conversationKey, action, ttlMs) {
      const stored: PendingAction = { ...action, id: randomBytes(9).toString("base64url") };
      await redis.set(key(conversationKey, stored.id), JSON.stringify(stored), "PX", ttlMs);
      return stored;
    },
    async claim(conversationKey, id, by) {
      if (!/^[A-Za-z0-9_-]{1,32}$/.test(id)) return { kind: "missing" };
      const [status, raw] = (await redis.eval(CLAIM_LUA, 1, key(conversationKey, id), by)) as [
        string,
        string,
      ];
      if (status === "missing") return { kind: "missing" };
      const { claimedBy: _claimedBy, ...action } = JSON.parse(raw) as PendingAction & { claimedBy?: string };
      return { kind: status === "claimed" ? "claimed" : "already", action };
    },
  };
}
