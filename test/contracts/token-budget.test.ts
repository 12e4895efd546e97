import { describe, expect, it } from "vitest";
import { createSqliteTokenBudget } from "../../src/agent/embedded/index.js";
import { createRedisTokenBudget } from "../../src/agent/redis/index.js";
import { redisPerTest, sqlitePerTest } from "../support/contract-backends.js";
import { skipWithoutRedis } from "../support/redis.js";
import { describeTokenBudgetContract } from "./token-budget.contract.js";

describe.skipIf(skipWithoutRedis)("redis", () => {
  const backend = redisPerTest("c-tokens");
  describeTokenBudgetContract("redis", async (now) =>
    createRedisTokenBudget(backend.redis, backend.prefix(), now),
  );

  it("keeps a day's count two days after its last record", async () => {
    const prefix = backend.prefix();
    const now = Date.parse("2026-06-01T10:00:00Z");
    const budget = createRedisTokenBudget(backend.redis, prefix, () => now);
    await budget.record("a", 10.4);
    await budget.record("a", 5);
    const key = `${prefix}:tokens:a:2026-06-01`;
    expect(await backend.redis.get(key)).toBe("15");
    const ttl = await backend.redis.ttl(key);
    expect(ttl).toBeGreaterThan(2 * 86_400 - 5);
    expect(ttl).toBeLessThanOrEqual(2 * 86_400);
  });
});

describe("sqlite", () => {
  const backend = sqlitePerTest();
  describeTokenBudgetContract("sqlite", async (now) => createSqliteTokenBudget({ db: backend.open(), now }));

  it("keeps a day's count two days after its last record, then sweeps it", async () => {
    let now = Date.parse("2026-06-01T10:00:00Z");
    const budget = createSqliteTokenBudget({ db: backend.open(), now: () => now });
    await budget.record("a", 10);
    now += 2 * 86_400_000 - 1;
    expect(budget.sweepExpired()).toBe(0);
    now += 1;
    expect(budget.sweepExpired()).toBe(1);
  });
});
