import { describe, expect, it } from "vitest";
import { createLocalSendRateLimiter } from "../../src/outbound/embedded/index.js";
import { createRedisSendRateLimiter } from "../../src/outbound/redis/index.js";
import { redisPerTest } from "../support/contract-backends.js";
import { skipWithoutRedis } from "../support/redis.js";
import { describeSendRateLimiterContract } from "./send-rate-limiter.contract.js";

describe.skipIf(skipWithoutRedis)("redis", () => {
  const backend = redisPerTest("c-rate");
  describeSendRateLimiterContract("redis", async (options) =>
    createRedisSendRateLimiter({ redis: backend.redis, prefix: backend.prefix(), ...options }),
  );
});

describe("local", () => {
  describeSendRateLimiterContract("local", async (options) => createLocalSendRateLimiter(options));

  it("computes the same slots as the script on the clock it is given", async () => {
    let now = 1_000_000;
    const limiter = createLocalSendRateLimiter({
      throughputMps: 4,
      throughputBurst: 2,
      pairLimit: { burst: 2, intervalMs: 6000 },
      horizonMs: 600,
      now: () => now,
    });
    const waits = [];
    for (const customer of ["a", "b", "c", "d", "e"]) waits.push(await limiter.reserve("pn", customer));
    // Interval 250 ms, burst 2: two now, then 250 and 500; 750 is past the 600 ms horizon.
    expect(waits).toEqual([
      { granted: true, waitMs: 0 },
      { granted: true, waitMs: 0 },
      { granted: true, waitMs: 250 },
      { granted: true, waitMs: 500 },
      { granted: false, waitMs: 750 },
    ]);
    now += 10_000;
    // The pair's burst of 2 at once, then one per 6 s.
    expect(await limiter.reserve("pn", "a")).toEqual({ granted: true, waitMs: 0 });
    expect(await limiter.reserve("pn", "a")).toEqual({ granted: true, waitMs: 0 });
    expect(await limiter.reserve("pn", "a")).toEqual({ granted: false, waitMs: 6000 });
    now += 0.4;
    expect(await limiter.reserve("pn", "a")).toEqual({ granted: false, waitMs: 6000 });
    now += 6000;
    expect(await limiter.reserve("pn", "a")).toEqual({ granted: true, waitMs: 0 });
  });
});
