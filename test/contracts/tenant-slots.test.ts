import { describe, expect, it } from "vitest";
import { createLocalTenantSlots } from "../../src/agent/embedded/index.js";
import { createRedisTenantSlots } from "../../src/agent/redis/index.js";
import { redisPerTest } from "../support/contract-backends.js";
import { skipWithoutRedis } from "../support/redis.js";
import { describeTenantSlotsContract } from "./tenant-slots.contract.js";

describe.skipIf(skipWithoutRedis)("redis", () => {
  const backend = redisPerTest("c-slots");
  describeTenantSlotsContract("redis", async (leaseMs) =>
    createRedisTenantSlots(backend.redis, backend.prefix(), leaseMs),
  );
});

describe("local", () => {
  describeTenantSlotsContract("local", async (leaseMs) => createLocalTenantSlots(leaseMs));

  it("ends leases by the clock it is given", async () => {
    let now = 0;
    const slots = createLocalTenantSlots(1000, () => now);
    expect(await slots.acquire("a", 1)).toBeDefined();
    now = 999;
    expect(await slots.acquire("a", 1)).toBeUndefined();
    now = 1000;
    expect(await slots.acquire("a", 1)).toBeDefined();
  });
});
