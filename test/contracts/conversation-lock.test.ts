import { describe, expect, it } from "vitest";
import { createLocalConversationLock } from "../../src/conversation/embedded/index.js";
import { createRedisConversationLock } from "../../src/conversation/redis/index.js";
import { redisPerTest } from "../support/contract-backends.js";
import { skipWithoutRedis } from "../support/redis.js";
import { describeConversationLockContract } from "./conversation-lock.contract.js";

describe.skipIf(skipWithoutRedis)("redis", () => {
  const backend = redisPerTest("c-convlock");
  describeConversationLockContract("redis", async (ttlMs) =>
    createRedisConversationLock({ redis: backend.redis, prefix: backend.prefix(), ttlMs }),
  );
});

describe("local", () => {
  describeConversationLockContract("local", async (ttlMs) => createLocalConversationLock({ ttlMs }));

  it("expires leases by the clock it is given", async () => {
    let now = 0;
    const lock = createLocalConversationLock({ ttlMs: 30_000, now: () => now });
    expect(await lock.acquire("a")).toBeDefined();
    now = 29_999;
    expect(await lock.acquire("a")).toBeUndefined();
    now = 30_000;
    expect(await lock.acquire("a")).toBeDefined();
  });
});
