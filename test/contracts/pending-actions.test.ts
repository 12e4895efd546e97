import { describe, expect, it } from "vitest";
import { createSqlitePendingActions } from "../../src/agent/embedded/index.js";
import { createRedisPendingActions } from "../../src/agent/redis/index.js";
import { redisPerTest, sqlitePerTest } from "../support/contract-backends.js";
import { skipWithoutRedis } from "../support/redis.js";
import { describePendingActionsContract } from "./pending-actions.contract.js";

describe.skipIf(skipWithoutRedis)("redis", () => {
  const backend = redisPerTest("c-pending");
  describePendingActionsContract("redis", async () =>
    createRedisPendingActions(backend.redis, backend.prefix()),
  );
});

describe("sqlite", () => {
  const backend = sqlitePerTest();
  describePendingActionsContract("sqlite", async () => createSqlitePendingActions({ db: backend.open() }));

  it("expires by the clock it is given, and sweeps", async () => {
    let now = 1_000;
    const pending = createSqlitePendingActions({ db: backend.open(), now: () => now });
    const summary = { toolName: "t", args: {}, idempotencyKey: "k", summary: "s", createdAt: 1 };
    const action = await pending.create("c", summary, 500);
    await pending.create("c", summary, 10_000);
    now = 1_499;
    expect(await pending.claim("c", action.id, "m")).toMatchObject({ kind: "claimed" });
    now = 1_500;
    expect(await pending.claim("c", action.id, "m")).toEqual({ kind: "missing" });
    expect(pending.sweepExpired()).toBe(1);
    expect(pending.sweepExpired()).toBe(0);
  });
});
