import { defineScript, type RedisClient } from "../../queue/redis/index.js";
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
 * appendHistory — appends entries, keeps the last N, and renews the history's and the state's expiry.
 *
 * KEYS[1]   history list    KEYS[2] state hash
 * ARGV[1]   entries kept    ARGV[2] ttl, ms    ARGV[3..] entries (JSON)
 */
const APPEND_HISTORY_LUA = `
redis.call("RPUSH", KEYS[1], unpack(ARGV, 3))
redis.call("LTRIM", KEYS[1], -tonumber(ARGV[1]), -1)
redis.call("PEXPIRE", KEYS[1], ARGV[2])
redis.call("PEXPIRE", KEYS[2], ARGV[2])
return 1
`;

/**
 * setStateField — sets one field of the state hash and renews its expiry.
 *
 * KEYS[1]   state hash
 * ARGV[1]   field    ARGV[2] value    ARGV[3] ttl, ms
 */
const SET_STATE_FIELD_LUA = `
redis.call("HSET", KEYS[1], ARGV[1], ARGV[2])
redis.call("PEXPIRE", KEYS[1], ARGV[3])
return 1
`;

/**
 * Redis adapter: `{p}:history:{conversation}` is a list trimmed to the last N
 * entries (JSON), `{p}:state:{conversation}` a hash holding `mode` and
 * `priorityUntil` (the turn scheduler reads both); both
 * expire together after `ttlMs` without writes. Each write is one script:
 * one command, where a MULTI made ioredis build a pipeline object per call.
 */
export function createRedisConversationState(options: RedisConversationStateOptions): ConversationStateStore {
  const { redis, prefix } = options;
  const maxEntries = options.maxEntries ?? 50;
  const ttlMs = options.ttlMs ?? 7 * 24 * 3_600_000;
  const historyKey = (conversationKey: string) => `${prefix}:history:${conversationKey}`;
  const stateKey = (conversationKey: string) => `${prefix}:state:${conversationKey}`;
  const appendHistory = defineScript(redis, "ssAppendHistory", APPEND_HISTORY_LUA);
  const setStateField = defineScript(redis, "ssSetStateField", SET_STATE_FIELD_LUA);
  return {
    async recent(conversationKey, limit = maxEntries) {
      const lines = await redis.lrange(historyKey(conversationKey), -Math.max(1, limit), -1);
      return lines.map((line) => JSON.parse(line) as HistoryEntry);
    },
    async append(conversationKey, entries) {
      if (entries.length === 0) return;
      await appendHistory(
        2,
        historyKey(conversationKey),
        stateKey(conversationKey),
        maxEntries,
        ttlMs,
        ...entries.map((entry) => JSON.stringify(entry)),
      );
    },
    async mode(conversationKey) {
      const mode = await redis.hget(stateKey(conversationKey), "mode");
      return mode !== null && MODES.has(mode) ? (mode as ConversationMode) : "bot";
    },
    async setMode(conversationKey, mode) {
      await setStateField(1, stateKey(conversationKey), "mode", mode, ttlMs);
    },
    async markPriority(conversationKey, untilMs) {
      await setStateField(1, stateKey(conversationKey), "priorityUntil", String(untilMs), ttlMs);
    },
  };
}
