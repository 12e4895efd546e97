import type { ConnectionOptions } from "node:tls";
import { Cluster, type ClusterOptions, Redis, type RedisOptions } from "ioredis";
import type { RedisServerConfig, RedisTlsConfig } from "../../config/index.js";
import {
  connectionOptionsFor,
  describeRedisUrl,
  type RedisBehaviour,
  type RedisClient,
  reconnectDelayMs,
} from "../../queue/redis/index.js";

/** What ioredis is given for a server and a behaviour: a Redis (URL and/or options) or a Cluster. */
export type RedisClientSpec =
  | { readonly kind: "redis"; readonly url: string | undefined; readonly options: RedisOptions }
  | {
      readonly kind: "cluster";
      readonly nodes: readonly { host: string; port: number }[];
      readonly options: ClusterOptions;
    };

function tlsOptions(tls: RedisTlsConfig): ConnectionOptions {
  // Verification stays on (Node's default): with no CA file the system's CAs must vouch for the server.
  return { ...tls };
}

/**
 * A replica answers writes with READONLY: after a failover this connection
 * still points at the old primary. Reconnecting finds the new one (through
 * Sentinel or DNS); a patient client also resends the refused command, which
 * did not run.
 */
function reconnectOnReadOnly(behaviour: RedisBehaviour) {
  return (error: Error): boolean | 2 =>
    error.message.startsWith("READONLY") ? (behaviour === "patient" ? 2 : true) : false;
}

/** The ioredis arguments for `server` with `behaviour` (pure: nothing connects). */
export function redisClientSpec(server: RedisServerConfig, behaviour: RedisBehaviour): RedisClientSpec {
  const connection = connectionOptionsFor(behaviour);
  if (server.kind === "single") {
    return {
      kind: "redis",
      url: server.url,
      options: {
        ...connection,
        retryStrategy: reconnectDelayMs,
        reconnectOnError: reconnectOnReadOnly(behaviour),
        ...(server.tls === undefined ? {} : { tls: tlsOptions(server.tls) }),
      },
    };
  }
  const login = {
    ...(server.username === undefined ? {} : { username: server.username }),
    ...(server.password === undefined ? {} : { password: server.password }),
    ...(server.tls === undefined ? {} : { tls: tlsOptions(server.tls) }),
  };
  if (server.kind === "sentinel") {
    return {
      kind: "redis",
      url: undefined,
      options: {
        ...connection,
        ...login,
        sentinels: server.sentinels.map(({ host, port }) => ({ host, port })),
        name: server.masterName,
        ...(server.sentinelUsername === undefined ? {} : { sentinelUsername: server.sentinelUsername }),
        ...(server.sentinelPassword === undefined ? {} : { sentinelPassword: server.sentinelPassword }),
        // ioredis speaks TLS to the primary only with this flag, and to the sentinels with sentinelTLS.
        ...(server.tls === undefined
          ? {}
          : { enableTLSForSentinelMode: true, sentinelTLS: tlsOptions(server.tls) }),
        // Drop the connection as soon as a sentinel announces +switch-master: until Sentinel demotes the
        // old primary it still takes writes, which the new primary never sees.
        failoverDetector: true,
        retryStrategy: reconnectDelayMs,
        reconnectOnError: reconnectOnReadOnly(behaviour),
      },
    };
  }
  const { enableOfflineQueue, lazyConnect, ...perNode } = connection;
  return {
    kind: "cluster",
    nodes: server.nodes.map(({ host, port }) => ({ host, port })),
    options: {
      redisOptions: { ...perNode, ...login },
      enableOfflineQueue: enableOfflineQueue ?? true,
      lazyConnect: lazyConnect ?? false,
      clusterRetryStrategy: reconnectDelayMs,
    },
  };
}

/** A client for `server` with `behaviour` (see RedisBehaviour); the caller owns it. */
export function openRedisClient(server: RedisServerConfig, behaviour: RedisBehaviour): RedisClient {
  const spec = redisClientSpec(server, behaviour);
  if (spec.kind === "cluster") return new Cluster([...spec.nodes], spec.options);
  return spec.url === undefined ? new Redis(spec.options) : new Redis(spec.url, spec.options);
}

/** Where Redis is, for logs: no credentials. */
export function describeRedisServer(server: RedisServerConfig): string {
  const list = (nodes: readonly { host: string; port: number }[]) =>
    nodes.map(({ host, port }) => `${host.includes(":") ? `[${host}]` : host}:${port}`).join(",");
  const tls = server.tls === undefined ? "" : " (tls)";
  switch (server.kind) {
    case "single":
      return describeRedisUrl(server.url);
    case "sentinel":
      return `sentinel ${server.masterName} via ${list(server.sentinels)}${tls}`;
    case "cluster":
      return `cluster ${list(server.nodes)}${tls}`;
  }
}
