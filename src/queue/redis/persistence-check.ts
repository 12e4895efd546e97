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
