import { describe, expect, it } from "vitest";
import type { RedisServerConfig } from "../../config/index.js";
import { describeRedisServer, redisClientSpec } from "./redis-clients.js";

const tls = { ca: "CA PEM", cert: "CERT PEM", key: "KEY PEM" };

describe("redisClientSpec", () => {
  it("gives a rediss:// URL its CA and client certificate, verification left on", () => {
    const spec = redisClientSpec({ kind: "single", url: "rediss://h:6380", tls }, "failFast");
    expect(spec.kind).toBe("redis");
    if (spec.kind !== "redis") return;
    expect(spec.url).toBe("rediss://h:6380");
    expect(spec.options.tls).toEqual(tls);
    expect(spec.options.tls).not.toHaveProperty("rejectUnauthorized");
    expect(spec.options).toMatchObject({ enableOfflineQueue: false, maxRetriesPerRequest: 0 });
  });

  it("maps Sentinel to ioredis's sentinel options, TLS towards the primary and the sentinels", () => {
    const server: RedisServerConfig = {
      kind: "sentinel",
      sentinels: [{ host: "10.0.0.1", port: 26379 }],
      masterName: "mymaster",
      sentinelUsername: undefined,
      sentinelPassword: "sp",
      username: "app",
      password: "dp",
      tls,
    };
    const spec = redisClientSpec(server, "patient");
    if (spec.kind !== "redis") throw new Error("expected a Redis spec");
    expect(spec.url).toBeUndefined();
    expect(spec.options).toMatchObject({
      sentinels: [{ host: "10.0.0.1", port: 26379 }],
      name: "mymaster",
      sentinelPassword: "sp",
      username: "app",
      password: "dp",
      tls,
      enableTLSForSentinelMode: true,
      sentinelTLS: tls,
      maxRetriesPerRequest: null,
      // Without it, writes after a switch go on to the old primary until Sentinel demotes it, and are lost.
      failoverDetector: true,
    });
    expect(spec.options).not.toHaveProperty("sentinelUsername");
  });

  it("reconnects on READONLY (a demoted primary), resending only for patient clients", () => {
    const single: RedisServerConfig = { kind: "single", url: "redis://h", tls: undefined };
    const failFast = redisClientSpec(single, "failFast");
    const patient = redisClientSpec(single, "patient");
    if (failFast.kind !== "redis" || patient.kind !== "redis") throw new Error("expected Redis specs");
    const readOnly = new Error("READONLY You can't write against a read only replica.");
    expect(failFast.options.reconnectOnError?.(readOnly)).toBe(true);
    expect(patient.options.reconnectOnError?.(readOnly)).toBe(2);
    expect(patient.options.reconnectOnError?.(new Error("ERR other"))).toBe(false);
  });

  it("opens a Cluster with per-node options, the offline queue at cluster level", () => {
    const server: RedisServerConfig = {
      kind: "cluster",
      nodes: [{ host: "127.0.0.1", port: 7000 }],
      username: undefined,
      password: "dp",
      tls: undefined,
    };
    const failFast = redisClientSpec(server, "failFast");
    if (failFast.kind !== "cluster") throw new Error("expected a Cluster spec");
    expect(failFast.nodes).toEqual([{ host: "127.0.0.1", port: 7000 }]);
    expect(failFast.options.enableOfflineQueue).toBe(false);
    expect(failFast.options.redisOptions).toMatchObject({ password: "dp", maxRetriesPerRequest: 0 });
    expect(failFast.options.redisOptions).not.toHaveProperty("enableOfflineQueue");
    const patient = redisClientSpec(server, "patient");
    if (patient.kind !== "cluster") throw new Error("expected a Cluster spec");
    // BullMQ refuses a cluster whose nodes may give up on a command.
    expect(patient.options.redisOptions?.maxRetriesPerRequest).toBeNull();
    expect(patient.options.enableOfflineQueue).toBe(true);
  });

  it("describes each topology without credentials", () => {
    expect(describeRedisServer({ kind: "single", url: "redis://:pw@h:6379/1", tls: undefined })).toBe(
      "redis://h:6379/1",
    );
    expect(
      describeRedisServer({
        kind: "cluster",
        nodes: [
          { host: "a", port: 7000 },
          { host: "::1", port: 7001 },
        ],
        username: undefined,
        password: "pw",
        tls: {},
      }),
    ).toBe("cluster a:7000,[::1]:7001 (tls)");
  });
});
