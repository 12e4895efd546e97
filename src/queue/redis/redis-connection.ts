import { Redis, type RedisOptions } from "ioredis";

export interface RedisConnectionOptions {
  /** Longest a connection attempt may take, ms. */
  readonly connectTimeoutMs?: number;
}

/**
 * How a client behaves while Redis is away:
 * - `failFast` (request paths that must answer rather than wait): no offline
 *   queue (a command while disconnected fails at once), no silent resend of
 *   commands that were in flight when the connection dropped (their request
 *   has already answered 503; Meta's redelivery completes the work);
 * - `patient` (BullMQ and the workers): commands wait out reconnects
 *   (`maxRetriesPerRequest: null`, which BullMQ requires);
 * - `command` (a one-off CLI command): one retry, connects when asked.
 * All reconnect every ≤1 s forever.
 */
export type RedisBehaviour = "failFast" | "patient" | "command";

/** Per-connection ioredis options of a behaviour (a cluster applies them to each node). */
export function connectionOptionsFor(
  behaviour: RedisBehaviour,
  options: RedisConnectionOptions = {},
): RedisOptions {
  const common: RedisOptions = {
    connectTimeout: options.connectTimeoutMs ?? 1000,
    // TCP keep-alive probes after 10 s idle, so a peer that vanished is noticed even without traffic.
    keepAlive: 10_000,
  };
  switch (behaviour) {
    case "failFast":
      return {
        ...common,
        enableOfflineQueue: false,
        autoResendUnfulfilledCommands: false,
        maxRetriesPerRequest: 0,
        lazyConnect: false,
      };
    case "patient":
      return { ...common, maxRetriesPerRequest: null };
    case "command":
      return { ...common, maxRetriesPerRequest: 1, lazyConnect: true };
  }
}

/** Reconnect delays of every client: 100 ms more per attempt, at most 1 s. */
export const reconnectDelayMs = (attempt: number): number => Math.min(attempt * 100, 1000);

/** A fail-fast ioredis client to one primary by URL (see RedisBehaviour). */
export function createFailFastRedis(url: string, options: RedisConnectionOptions = {}): Redis {
  return new Redis(url, { ...connectionOptionsFor("failFast", options), retryStrategy: reconnectDelayMs });
}

/** host:port of a Redis URL for logs, without credentials. */
export function describeRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const db = parsed.pathname.length > 1 ? parsed.pathname : "";
    return `${parsed.protocol}//${parsed.hostname}:${parsed.port || "6379"}${db}`;
  } catch {
    return "redis (unparsable URL)";
  }
}
