import type { Redis } from "ioredis";
import type { AppConfig } from "../../config/index.js";
import type { Logger } from "../../observability/index.js";
import {
  checkRedisPersistence,
  createFailFastRedis,
  describeRedisUrl,
  MINIMUM_REDIS_VERSION,
  redisEvictionPolicy,
  redisTooOld,
} from "../../queue/redis/index.js";
import { StartupError } from "../errors.js";

/** Warns once Redis answers if it keeps nothing on disk or is too old. */
export function warnIfVolatile(redis: Redis, logger: Logger): void {
  const check = async () => {
    const old = await redisTooOld(redis);
    if (old !== undefined) {
      logger.error(
        `Redis ${old} is older than ${MINIMUM_REDIS_VERSION}, which sharpsharp needs: upgrade Redis`,
      );
    }
    const verdict = await checkRedisPersistence(redis);
    if (verdict === "volatile") {
      logger.warn(
        "REDIS KEEPS NOTHING ON DISK (no AOF, no RDB): acknowledged messages waiting in Redis are lost if it restarts. " +
          "In production enable appendonly yes (appendfsync everysec) or RDB snapshots.",
      );
    } else if (verdict === "unknown") {
      logger.info(
        "could not tell whether Redis persists data (CONFIG is disabled); make sure AOF or RDB is on",
      );
    }
  };
  const run = () => {
    check().catch((error: unknown) => logger.debug({ err: error }, "persistence check failed"));
  };
  if (redis.status === "ready") run();
  else redis.once("ready", run);
}

/** A fail-fast Redis client that logs each distinct connection error once. */
export function connectRedis(url: string, logger: Logger): { redis: Redis; backend: string } {
  const backend = describeRedisUrl(url);
  const redis = createFailFastRedis(url);
  let lastRedisError = "";
  redis.on("error", (error: Error) => {
    // ioredis repeats the same error on every reconnect attempt; log each distinct one.
    if (error.message !== lastRedisError) logger.warn({ err: error, backend }, "redis connection error");
    lastRedisError = error.message;
  });
  redis.on("ready", () => {
    lastRedisError = "";
    logger.info({ backend }, "redis connected");
  });
  return { redis, backend };
}

/** QUIT politely, but never let a dead connection hold shutdown for more than a second. */
export async function closeRedis(redis: Redis): Promise<void> {
  const quit = redis.quit().catch(() => undefined);
  await Promise.race([quit, new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
  redis.disconnect();
}

/** REDIS_URL, or a StartupError saying how to set it. */
export function requireRedisUrl(config: AppConfig, role: string): string {
  if (config.redis.url === undefined) {
    throw new StartupError(
      `REDIS_URL is not set, so sharpsharp runs embedded: one process owns the SQLite file in SHARPSHARP_DATA_DIR, ` +
        `and a separate ${role} cannot share it. Run \`sharpsharp start\` (npm start) for the whole gateway in one process, ` +
        "or set REDIS_URL (for example redis://127.0.0.1:6379) to run ingress and workers as separate processes.",
    );
  }
  return config.redis.url;
}

/**
 * Refuses to go on when Redis may evict keys (maxmemory-policy other than
 * noeviction): under memory pressure it would delete queued messages and
 * dedupe marks silently. REDIS_ALLOW_EVICTION=on starts anyway, loudly.
 */
export async function refuseEviction(redis: Redis, config: AppConfig, logger: Logger): Promise<void> {
  const policy = await redisEvictionPolicy(redis);
  if (policy === undefined) {
    logger.warn("could not read Redis's maxmemory-policy; make sure it is noeviction");
    return;
  }
  if (policy === "noeviction") return;
  const why =
    `Redis's maxmemory-policy is ${policy}: when Redis runs out of memory it deletes keys, ` +
    "which here are acknowledged messages, dedupe marks and locks, without an error";
  if (!config.redis.allowEviction) {
    throw new StartupError(
      `${why}. Set maxmemory-policy noeviction (CONFIG SET maxmemory-policy noeviction, and in redis.conf), ` +
        "or REDIS_ALLOW_EVICTION=on to start anyway.",
    );
  }
  logger.error(
    { alert: "redis_may_evict", policy },
    `${why}; starting anyway because REDIS_ALLOW_EVICTION=on`,
  );
}
