import type { RedisClient } from "../../queue/redis/index.js";
import type { ConversationMode, ConversationStateStore, HistoryEntry } from "../ports.js";

export interface RedisConversationStateOptions {
  readonly redis: RedisClient;
  readonly prefix: string;
  /** Entries kept per conversation; default 50. */
  readonly maxEntries?: number;
  /** History and state expire this long after the last write, ms; default 7 days. */
  readonly ttlMs?: number;
}

const MODES: ReadonlySet<string> = new Set(["bot", "human", "paused"]);

/**
 * Redis adapter: `{p}:history:{conversation}` is a list trimmed to the last N
 * entries (JSON), `{p}:state:{conversation}` a hash holding `mode` and
 * `priorityUntil` (the turn scheduler reads both); both
 * expire together after `ttlMs` without writes.
 */
export function createRedisConversationState(options: RedisConversationStateOptions): ConversationStateStore {
  const { redis, prefix } = options;
  const maxEntries = options.maxEntries ?? 50;
  const ttlMs = options.ttlMs ?? 7 * 24 * 3_600_000;
  const historyKey = (conversationKey: string) => `${prefix}:history:${conversationKey}`;
  const stateKey = (conversationKey: string) => `${prefix}:state:${conversationKey}`;
  return {
    async recent(conversationKey, limit = maxEntries) {
      const lines = await redis.lrange(historyKey(conversationKey), -Math.max(1, limit), -1);
      return lines.map((line) => JSON.parse(line) as HistoryEntry);
    },
    async append(conversationKey, entries) {
      if (entries.length === 0) return;
      await redis
        .multi()
        .rpush(historyKey(conversationKey), ...entries.map((entry) => JSON.stringify(entry)))
        .ltrim(historyKey(conversationKey), -maxEntries, -1)
        .pexpire(historyKey(conversationKey), ttlMs)
        .pexpire(stateKey(conversationKey), ttlMs)
        .exec();
    },
    async mode(conversationKey) {
      const mode = await redis.hget(stateKey(conversationKey), "mode");
      return mode !== null && MODES.has(mode) ? (mode as ConversationMode) : "bot";
    },
    async setMode(conversationKey, mode) {
      await redis
        .multi()
        .hset(stateKey(conversationKey), "mode", mode)
        .pexpire(stateKey(conversationKey), ttlMs)
        .exec();
    },
    async markPriority(conversationKey, untilMs) {
      await redis
        .multi()
        .hset(stateKey(conversationKey), "priorityUntil", String(untilMs))
        .pexpire(stateKey(conversationKey), ttlMs)
        .exec();
    },
  };
}
