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
