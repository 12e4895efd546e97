import { randomUUID } from "node:crypto";
import type { ConversationLock } from "../ports.js";

export interface LocalConversationLockOptions {
  /** Lease length without renewal, ms. Default 6,000. */
  readonly ttlMs?: number;
  /** Clock, ms since the epoch; default Date.now. */
  readonly now?: () => number;
  /** Makes tokens; default randomUUID. */
  readonly newToken?: () => string;
}

/**
 * ConversationLock in this process's memory, for embedded mode where one
 * process runs every turn. Leases still expire `ttlMs` after their last
 * renewal, as on Redis, so a turn that stops renewing cannot hold its conversation for ever.
 */
export function createLocalConversationLock(options: LocalConversationLockOptions = {}): ConversationLock {
  const ttlMs = options.ttlMs ?? 6_000;
  const now = options.now ?? Date.now;
  const newToken = options.newToken ?? randomUUID;
  const leases = new Map<string, { readonly token: string; readonly expiresAt: number }>();
  const live = (conversationKey: string) => {
    const lease = leases.get(conversationKey);
    if (lease === undefined || lease.expiresAt > now()) return lease;
    leases.delete(conversationKey);
    return undefined;
  };
  return {
    ttlMs,
    async acquire(conversationKey) {
      if (live(conversationKey) !== undefined) return undefined;
      const token = newToken();
      leases.set(conversationKey, { token, expiresAt: now() + ttlMs });
      return token;
    },
    async extend(conversationKey, token) {
      if (live(conversationKey)?.token !== token) return false;
      leases.set(conversationKey, { token, expiresAt: now() + ttlMs });
      return true;
    },
    async release(conversationKey, token) {
      if (live(conversationKey)?.token === token) leases.delete(conversationKey);
    },
  };
}
