import { Redis } from "ioredis";

export interface RedisConnectionOptions {
  /** Longest a connection attempt may take, ms. */
  readonly connectTimeoutMs?: number;
}

/**
 * An ioredis client for request paths that must fail fast rather than wait:
 * no offline queue (a command while disconnected fails at once), no silent
 * resend of commands that were in flight when the connection dropped (their
 * request has already answered 503; Meta's redelivery completes the work),
 * and reconnects every ≤1 s forever.
 */
export function createFailFastRedis(url: string, options: RedisConnectionOptions = {}): Redis {
  return new Redis(url, {
    enableOfflineQueue: false,
    autoResendUnfulfilledCommands: false,
    maxRetriesPerRequest: 0,
    connectTimeout: options.connectTimeoutMs ?? 1000,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
    // TCP keep-alive probes after 10 s idle, so a peer that vanished is noticed even without traffic.
    keepAlive: 10_000,
    // Keep the process alive only while something else holds it open.
    lazyConnect: false,
  });
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
