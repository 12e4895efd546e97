import type { AppConfig, RedisServerConfig } from "../../config/index.js";
import type { Logger } from "../../observability/index.js";
import {
  checkRedisPersistence,
  MINIMUM_REDIS_VERSION,
  type PersistenceVerdict,
  primariesOf,
  type RedisClient,
  redisEvictionPolicy,
  redisGuardsReplicaWrites,
  redisTooOld,
} from "../../queue/redis/index.js";
import { StartupError } from "../errors.js";
import { describeRedisServer, openRedisClient } from "./redis-clients.js";

/** The least safe answer of several primaries (a cluster's): volatile, then unknown, then persistent. */
function worstVerdict(verdicts: readonly PersistenceVerdict[]): PersistenceVerdict {
  if (verdicts.includes("volatile")) return "volatile";
  return verdicts.includes("unknown") || verdicts.length === 0 ? "unknown" : "persistent";
}

/**
 * Runs a start-up check once Redis answers (start-up does not wait for Redis);
 * a check that fails is logged at debug and never stops the process. Resolves
 * when the check is done, for tests.
 */
function onceReady(
  redis: RedisClient,
  check: () => Promise<void>,
  logger: Logger,
  onError: string,
): Promise<void> {
  return new Promise((resolve) => {
    const run = () => {
      check()
        .catch((error: unknown) => logger.debug({ err: error }, onError))
        .finally(() => resolve());
    };
    if (redis.status === "ready") run();
    else redis.once("ready", run);
  });
}

/** Warns once Redis answers if it keeps nothing on disk or is too old (each primary of a cluster). */
export function warnIfVolatile(redis: RedisClient, logger: Logger): void {
  const check = async () => {
    const primaries = primariesOf(redis);
    for (const old of await Promise.all(primaries.map(redisTooOld))) {
      if (old === undefined) continue;
      logger.error(
        `Redis ${old} is older than ${MINIMUM_REDIS_VERSION}, which sharpsharp needs: upgrade Redis`,
      );
      break;
    }
    const verdict = worstVerdict(await Promise.all(primaries.map(checkRedisPersistence)));
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
  void onceReady(redis, check, logger, "persistence check failed");
}

/**
 * Warns once Redis answers if a failover can lose acknowledged messages: with
 * Sentinel or a cluster, a primary without `min-replicas-to-write` keeps
 * accepting writes after its replica was promoted, until it is demoted.
 */
export function warnIfFailoverLosesWrites(
  redis: RedisClient,
  server: RedisServerConfig,
  logger: Logger,
): Promise<void> {
  if (server.kind !== "sentinel" && server.kind !== "cluster") return Promise.resolve();
  const check = async () => {
    const guarded = await Promise.all(primariesOf(redis).map(redisGuardsReplicaWrites));
    if (!guarded.includes(false)) return;
    logger.warn(
      { alert: "redis_failover_may_lose_writes" },
      "the Redis primary accepts writes with no replica behind it (min-replicas-to-write is 0): after a failover, " +
        "messages the old primary acknowledges until it is demoted are lost. Set min-replicas-to-write 1 " +
        "and min-replicas-max-lag 10 on every data node (see docs/operations.md, Sentinel).",
    );
  };
  return onceReady(redis, check, logger, "replica write check failed");
}

/** A fail-fast Redis client that logs each distinct connection error once. */
export function connectRedis(
  server: RedisServerConfig,
  logger: Logger,
): { redis: RedisClient; backend: string } {
  const backend = describeRedisServer(server);
  const redis = openRedisClient(server, "failFast");
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
export async function closeRedis(redis: RedisClient): Promise<void> {
  const quit = redis.quit().catch(() => undefined);
  await Promise.race([quit, new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
  redis.disconnect();
}

/** Where Redis is (REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES), or a StartupError saying how to set it. */
export function requireRedisServer(config: AppConfig, role: string): RedisServerConfig {
  if (config.redis.server === undefined) {
    throw new StartupError(
      `REDIS_URL is not set, so sharpsharp runs embedded: one process owns the SQLite file in SHARPSHARP_DATA_DIR, ` +
        `and a separate ${role} cannot share it. Run \`sharpsharp start\` (npm start) for the whole gateway in one process, ` +
        "or set REDIS_URL (for example redis://127.0.0.1:6379; or REDIS_SENTINELS, or REDIS_CLUSTER_NODES) " +
        "to run ingress and workers as separate processes.",
    );
  }
  return config.redis.server;
}

/**
 * Refuses to go on when Redis may evict keys (maxmemory-policy other than
 * noeviction): under memory pressure it would delete queued messages and
 * dedupe marks silently. REDIS_ALLOW_EVICTION=on starts anyway, loudly.
 */
export async function refuseEviction(redis: RedisClient, config: AppConfig, logger: Logger): Promise<void> {
  const policies = await Promise.all(primariesOf(redis).map(redisEvictionPolicy));
  // A cluster's primaries answer apart: one that may evict decides, then one that cannot tell.
  const evicting = policies.find((one) => one !== undefined && one !== "noeviction");
  const unknown = policies.length === 0 || policies.includes(undefined);
  const policy = evicting ?? (unknown ? undefined : "noeviction");
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
