import { describe, expect, it } from "vitest";
import { createSqliteDeliveryStatusStore } from "../../src/delivery/embedded/index.js";
import { createRedisDeliveryStatusStore } from "../../src/delivery/redis/index.js";
import { redisPerTest, sqlitePerTest } from "../support/contract-backends.js";
import { skipWithoutRedis } from "../support/redis.js";
import { describeDeliveryStatusStoreContract } from "./delivery-status-store.contract.js";

describe.skipIf(skipWithoutRedis)("redis", () => {
  const backend = redisPerTest("c-delivery");
  describeDeliveryStatusStoreContract("redis", async () =>
    createRedisDeliveryStatusStore({ redis: backend.redis, prefix: backend.prefix() }),
  );
});

describe("sqlite", () => {
  const backend = sqlitePerTest();
  describeDeliveryStatusStoreContract("sqlite", async () =>
    createSqliteDeliveryStatusStore({ db: backend.open() }),
  );

  it("forgets a record ttlMs after its last write, and sweeps it", async () => {
    let now = 1_000_000;
    const store = createSqliteDeliveryStatusStore({ db: backend.open(), ttlMs: 1000, now: () => now });
    const update = { tenantId: "t", wamid: "w1", status: "read", timestamp: 5 } as const;
    await store.applyStatus(update);
    await store.applyStatus({ ...update, wamid: "w2" });
    now += 999;
    await store.applyStatus({ ...update, wamid: "w2", status: "played" });
    expect(await store.get("t", "w1")).toMatchObject({ status: "read" });
    now += 1;
    expect(await store.get("t", "w1")).toBeUndefined();
    // An expired record is gone for writes too: a lower status starts afresh.
    expect(await store.applyStatus({ ...update, status: "sent" })).toBe("applied");
    expect(await store.get("t", "w2")).toMatchObject({ status: "played" });
    now += 1000;
    expect(store.sweepExpired()).toBe(2);
    expect(store.sweepExpired()).toBe(0);
  });
});
