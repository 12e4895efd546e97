import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { warnIfFailoverLosesWrites } from "../../src/app/redis/index.js";
import type { RedisServerConfig } from "../../src/config/index.js";
import { createLogger } from "../../src/observability/index.js";
import {
  GUARDED_WRITES,
  type RedisProcess,
  startRedisProcess,
  topologySkipReason,
} from "../support/redis-topology.js";

const title = `the start-up warning that a failover can lose writes${topologySkipReason === undefined ? "" : ` (skipped: ${topologySkipReason})`}`;

const sentinel: RedisServerConfig = {
  kind: "sentinel",
  sentinels: [{ host: "127.0.0.1", port: 26379 }],
  masterName: "mymaster",
  sentinelUsername: undefined,
  sentinelPassword: undefined,
  username: undefined,
  password: undefined,
  tls: undefined,
};

describe.skipIf(topologySkipReason !== undefined)(title, () => {
  let unguarded: RedisProcess;
  let guarded: RedisProcess;
  beforeAll(async () => {
    [unguarded, guarded] = await Promise.all([startRedisProcess([]), startRedisProcess(GUARDED_WRITES)]);
  }, 20_000);
  afterAll(async () => {
    await Promise.all([unguarded?.stop(), guarded?.stop()]);
  });

  /** The warnings a check against the server on `port` logs, once it has had time to answer. */
  const warningsFor = async (port: number, server: RedisServerConfig) => {
    const lines: string[] = [];
    const logger = createLogger({
      level: "debug",
      destination: { write: (line: string) => lines.push(line) },
    });
    const redis = new Redis({ host: "127.0.0.1", port });
    try {
      await warnIfFailoverLosesWrites(redis, server, logger);
      return lines.map((line) => JSON.parse(line) as { alert?: string; msg: string });
    } finally {
      redis.disconnect();
    }
  };

  it("warns with Sentinel when the primary accepts writes with no replica behind it", async () => {
    const warnings = await warningsFor(unguarded.port, sentinel);
    expect(warnings.map((w) => w.alert)).toEqual(["redis_failover_may_lose_writes"]);
    expect(warnings[0]?.msg).toContain("min-replicas-to-write 1");
  });

  it("stays quiet when the primary guards its writes, and for a single Redis with no failover", async () => {
    expect(await warningsFor(guarded.port, sentinel)).toEqual([]);
    expect(await warningsFor(unguarded.port, { kind: "single", url: "redis://x", tls: undefined })).toEqual(
      [],
    );
  });
});
