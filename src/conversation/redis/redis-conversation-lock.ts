import { randomUUID } from "node:crypto";
import { defineScript, type RedisClient } from "../../queue/redis/index.js";
import type { ConversationLock } from "../ports.js";

/**
 * releaseConversationLock — deletes the lock only if it still holds our token.
 *
 * KEYS[1]   lock key
 * ARGV[1]   token
 * Returns   1 released, 0 held by someone else or expired
 */
const RELEASE_LUA = `
if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end
return 0
`;

/**
 * extendConversationLock — renews the lease only if it still holds our token.
 *
 * KEYS[1]   lock key
 * ARGV[1]   token; ARGV[2] ttl ms
 * Returns   1 renewed, 0 held by someone else or expired
 */
const EXTEND_LUA = `
if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) end
return 0
`;

export interface RedisConversationLockOptions {
  /** Owned by the caller. */
  readonly redis: RedisClient;
  readonly prefix: string;
  /** Lease length without renewal, ms. Default 6,000. */
  readonly ttlMs?: number;
  /** Makes tokens; default randomUUID. */
  readonly newToken?: () => string;
}

/** ConversationLock on Redis: `{p}:turnlock:{conversationKey}` = token, SET NX PX. */
export function createRedisConversationLock(options: RedisConversationLockOptions): ConversationLock {
  const { redis, prefix } = options;
  const ttlMs = options.ttlMs ?? 6_000;
  const newToken = options.newToken ?? randomUUID;
  const key = (conversationKey: string) => `${prefix}:turnlock:${conversationKey}`;
  const extendLock = defineScript(redis, "ssExtendConversationLock", EXTEND_LUA);
  const releaseLock = defineScript(redis, "ssReleaseConversationLock", RELEASE_LUA);
  return {
    ttlMs,
    async acquire(conversationKey) {
      const token = newToken();
      const taken = await redis.set(key(conversationKey), token, "PX", ttlMs, "NX");
      return taken === "OK" ? token : undefined;
    },
    async extend(conversationKey, token) {
      return (await extendLock(1, key(conversationKey), token, ttlMs)) === 1;
    },
    async release(conversationKey, token) {
      await releaseLock(1, key(conversationKey), token);
    },
  };
}
