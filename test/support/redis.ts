import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";

/** Redis the integration tests use; CI starts it (see .ci/run). */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** Whether Redis answers. Under CI=true the tests run regardless, so a missing Redis fails them instead of skipping. */
export async function redisAvailable(url = TEST_REDIS_URL): Promise<boolean> {
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on("error", () => {});
  try {
    await probe.connect();
    await probe.ping();
    return true;
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

const available = await redisAvailable();
if (!available && process.env.CI === "true") {
  // Under CI a missing Redis is a failure, never a silent skip.
  throw new Error(
    `Redis does not answer at ${TEST_REDIS_URL}, and CI=true requires it (start it: see .ci/run)`,
  );
}

/** Skip Redis-backed suites on a laptop without Redis, never in CI. */
export const skipWithoutRedis = !available;

export function uniquePrefix(label: string): string {
  return `sstest-${label}-${randomBytes(4).toString("hex")}`;
}

/** Deletes every key under `prefix:` (tests clean up after themselves). */
export async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
    cursor = next;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== "0");
}

export async function keysUnder(redis: Redis, prefix: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
    cursor = next;
    found.push(...keys);
  } while (cursor !== "0");
  return found.sort();
}

/** Conversations with a turn a worker could claim or holds (the ready, delayed and leased sets), sorted. */
export async function turnsOf(redis: Redis, prefix: string): Promise<string[]> {
  const sets = ["ready", "turns:delayed", "turns:leased"].map((name) => `${prefix}:${name}`);
  const members = await Promise.all(sets.map((key) => redis.zrange(key, 0, -1)));
  return members.flat().sort();
}
