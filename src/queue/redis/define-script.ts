import type { RedisClient } from "./redis-client.js";

/** A Lua script defined on a client: called with the number of keys, then the keys, then the arguments. */
export type RedisScript = (numberOfKeys: number, ...keysAndArgs: (string | number)[]) => Promise<unknown>;

/**
 * Defines `lua` on the client as command `name` and answers its runner.
 * ioredis then sends EVALSHA, and the script's text only once per
 * connection (when Redis answers NOSCRIPT); EVAL would send the whole text
 * and make Redis hash it at every call, a cost paid several times a turn.
 * `name` must be unique per client: a second definition replaces the first.
 */
export function defineScript(redis: RedisClient, name: string, lua: string): RedisScript {
  redis.defineCommand(name, { lua });
  const runner = (redis as unknown as Record<string, RedisScript>)[name] as RedisScript;
  return runner.bind(redis);
}
