import { Cluster, type Redis } from "ioredis";

/** A connection to a single primary (directly or found through Sentinel) or to a Redis Cluster. */
export type RedisClient = Redis | Cluster;

/** Whether the client speaks to a Redis Cluster. */
export function isCluster(client: RedisClient): client is Cluster {
  return client instanceof Cluster;
}

/**
 * The servers that hold the data: the primary itself, or each primary of a
 * cluster (server-wide checks such as CONFIG GET must ask each one).
 */
export function primariesOf(client: RedisClient): Redis[] {
  return isCluster(client) ? client.nodes("master") : [client];
}

/**
 * A second connection like `client` (same servers, login and TLS) that waits
 * out reconnects instead of failing commands: for a subscriber or a blocking
 * reader, whose client may be a fail-fast one.
 */
export function duplicatePatient(client: RedisClient): RedisClient {
  const patient = { enableOfflineQueue: true, maxRetriesPerRequest: null, lazyConnect: false } as const;
  if (isCluster(client)) {
    return client.duplicate(undefined, {
      enableOfflineQueue: true,
      lazyConnect: false,
      redisOptions: { ...client.options.redisOptions, maxRetriesPerRequest: null },
    });
  }
  return client.duplicate(patient);
}
