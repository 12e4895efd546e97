import { describe, expect, it } from "vitest";
import { createSqliteTenantSendPause } from "../../src/outbound/embedded/index.js";
import { createRedisTenantSendPause } from "../../src/outbound/redis/index.js";
import { redisPerTest, sqlitePerTest } from "../support/contract-backends.js";
import { skipWithoutRedis } from "../support/redis.js";
import { describeTenantSendPauseContract } from "./tenant-send-pause.contract.js";

describe.skipIf(skipWithoutRedis)("redis", () => {
  const backend = redisPerTest("c-pause");
  describeTenantSendPauseContract("redis", async () =>
    createRedisTenantSendPause({ redis: backend.redis, prefix: backend.prefix() }),
  );
});

describe("sqlite", () => {
  const backend = sqlitePerTest();
  describeTenantSendPauseContract("sqlite", async () => createSqliteTenantSendPause({ db: backend.open() }));

  it("ends pauses by the clock it is given, and sweeps ended ones", async () => {
    let now = 5_000;
    const pauses = createSqliteTenantSendPause({ db: backend.open(), now: () => now });
    await pauses.pause("a", 1_000);
    await pauses.pause("b", 3_000);
    now = 5_999;
    expect(await pauses.remainingMs("a")).toBe(1);
    expect(pauses.sweepExpired()).toBe(0);
    now = 6_000;
    expect(await pauses.remainingMs("a")).toBe(0);
    expect(pauses.sweepExpired()).toBe(1);
    expect(await pauses.remainingMs("b")).toBe(2_000);
  });
});
