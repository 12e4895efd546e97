import type { Redis } from "ioredis";

export type PersistenceVerdict = "persistent" | "volatile" | "unknown";

/**
 * Whether this Redis keeps data across a restart (AOF or RDB snapshots). An
 * acknowledged message lives only in Redis until a worker handles it, so a
 * Redis that keeps nothing loses acknowledged messages when it restarts.
 */
export async function checkRedisPersistence(redis: Redis): Promise<PersistenceVerdict> {
  try {
    const [, appendonly] = (await redis.config("GET", "appendonly")) as [string, string];
    const [, save] = (await redis.config("GET", "save")) as [string, string];
    return appendonly === "yes" || (save ?? "").trim() !== "" ? "persistent" : "volatile";
  } catch {
    // Managed services often disable CONFIG; INFO still tells whether AOF is on.
    try {
      const info = await redis.info("persistence");
      if (/aof_enabled:1/.test(info)) return "persistent";
      return "unknown";
    } catch {
      return "unknown";
    }
  }
}

/** The oldest Redis the scripts and BullMQ's deduplication are tested on (SET KEEPTTL, script effects). */
export const MINIMUM_REDIS_VERSION = "6.2.0";

/** The server's version when it is older than MINIMUM_REDIS_VERSION, else undefined. */
export async function redisTooOld(redis: Redis): Promise<string | undefined> {
  const info = await redis.info("server");
  const version = /redis_version:([\d.]+)/.exec(info)?.[1];
  if (version === undefined) return undefined;
  const [major = 0, minor = 0] = version.split(".").map(Number);
  const [needMajor = 0, needMinor = 0] = MINIMUM_REDIS_VERSION.split(".").map(Number);
  return major < needMajor || (major === needMajor && minor < needMinor) ? version : undefined;
}

/**
 * Redis's `maxmemory-policy`, or undefined when it cannot be read. Anything
 * but `noeviction` lets Redis delete keys under memory pressure: queued
 * messages, dedupe marks and locks would vanish without an error.
 */
export async function redisEvictionPolicy(redis: Redis): Promise<string | undefined> {
  try {
    const [, policy] = (await redis.config("GET", "maxmemory-policy")) as [string, string];
    if (policy !== undefined) return policy;
  } catch {
    // CONFIG is often disabled on managed services; INFO still says.
  }
  try {
    return /maxmemory_policy:(\S+)/.exec(await redis.info("memory"))?.[1];
  } catch {
    return undefined;
  }
}

/**
 * Whether this primary refuses writes when no replica is close behind
 * (`min-replicas-to-write` with `min-replicas-max-lag`; INFO names
 * `min_slaves_good_slaves` only then). Without it, a write a demoted primary
 * accepts after a failover is acknowledged and then thrown away.
 */
export async function redisGuardsReplicaWrites(redis: Redis): Promise<boolean | undefined> {
  try {
    return /min_slaves_good_slaves:/.test(await redis.info("replication"));
  } catch {
    return undefined;
  }
}
