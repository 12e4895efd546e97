import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { createRedisSendRateLimiter } from "../../src/outbound/redis/index.js";
import { deleteKeys, skipWithoutRedis, TEST_REDIS_URL, uniquePrefix } from "../support/redis.js";

// Port behaviour (bursts, pacing, horizon) is in test/contracts/send-rate-limiter.contract.ts.
describe.skipIf(skipWithoutRedis)("Redis send rate limiter (GCRA in one Lua script)", () => {
  const clients: Redis[] = [];
  let prefix = "";
  afterEach(async () => {
    const [first] = clients;
    if (first !== undefined) await deleteKeys(first, prefix);
    for (const client of clients.splice(0)) client.disconnect();
  });
  const limiterOn = (
    options: Parameters<typeof createRedisSendRateLimiter>[0] extends infer O ? Partial<O> : never,
  ) => {
    const redis = new Redis(TEST_REDIS_URL);
    clients.push(redis);
    return createRedisSendRateLimiter({ redis, prefix, ...options });
  };

  it("shares one pair budget across processes: the burst, then refusals that reserve nothing and hold up no other recipient", async () => {
    prefix = uniquePrefix("out-gcra");
    const options = { throughputMps: 1000, pairLimit: { burst: 2, intervalMs: 1000 }, horizonMs: 1000 };
    const a = limiterOn(options);
    const b = limiterOn(options);
    const slots = [
      await a.reserve("pn1", "234801"),
      await b.reserve("pn1", "234801"),
      await a.reserve("pn1", "234801"),
      await b.reserve("pn1", "234801"),
      await a.reserve("pn1", "234801"),
    ];
    expect(slots.map((s) => s.granted)).toEqual([true, true, false, false, false]);
    expect(slots[0]?.waitMs).toBe(0);
    expect(slots[1]?.waitMs).toBe(0);
    // A refusal reserves nothing, so asking again does not push the wait further out.
    for (const slot of slots.slice(2)) {
      expect(slot.waitMs).toBeGreaterThan(800); // ~1 s minus the time the calls took
      expect(slot.waitMs).toBeLessThanOrEqual(1000);
    }
    // Nor does it hold up the number's other recipients.
    expect(await a.reserve("pn1", "234802")).toEqual({ granted: true, waitMs: 0 });
  });
});
