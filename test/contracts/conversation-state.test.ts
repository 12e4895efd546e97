import { describe, expect, it } from "vitest";
import { createSqliteConversationState } from "../../src/conversation/embedded/index.js";
import { createRedisConversationState } from "../../src/conversation/redis/index.js";
import { redisPerTest, sqlitePerTest } from "../support/contract-backends.js";
import { skipWithoutRedis } from "../support/redis.js";
import { describeConversationStateContract } from "./conversation-state.contract.js";

describe.skipIf(skipWithoutRedis)("redis", () => {
  const backend = redisPerTest("c-convstate");
  describeConversationStateContract("redis", async (options) =>
    createRedisConversationState({ redis: backend.redis, prefix: backend.prefix(), ...options }),
  );
});

describe("sqlite", () => {
  const backend = sqlitePerTest();
  describeConversationStateContract("sqlite", async (options) =>
    createSqliteConversationState({ db: backend.open(), ...options }),
  );

  it("isUrgent: a human's conversation, or one marked until after now (the embedded scheduler's priority 1)", async () => {
    let now = 1_000_000;
    const state = createSqliteConversationState({ db: backend.open(), ttlMs: 10_000, now: () => now });
    expect(state.isUrgent("a", now)).toBe(false);
    await state.markPriority("a", now + 500);
    expect(state.isUrgent("a", now + 499)).toBe(true);
    expect(state.isUrgent("a", now + 500)).toBe(false);
    await state.setMode("b", "human");
    expect(state.isUrgent("b", now + 5_000)).toBe(true);
    await state.setMode("b", "paused");
    expect(state.isUrgent("b", now)).toBe(false);
    await state.setMode("a", "human");
    now += 10_000;
    expect(state.isUrgent("a", 0)).toBe(false);
  });

  it("sweeps expired history and state", async () => {
    let now = 1_000_000;
    const state = createSqliteConversationState({ db: backend.open(), ttlMs: 1000, now: () => now });
    await state.append("a", [
      { at: 1, from: "customer", type: "text" },
      { at: 2, from: "bot", type: "text" },
    ]);
    await state.setMode("a", "human");
    await state.setMode("b", "paused");
    now += 999;
    expect(state.sweepExpired()).toBe(0);
    now += 1;
    expect(state.sweepExpired()).toBe(4);
  });

  it("sweeps a conversation's history only once its newest entry expired, never a live one's older entries", async () => {
    let now = 1_000_000;
    const state = createSqliteConversationState({ db: backend.open(), ttlMs: 1000, now: () => now });
    const text = (at: number, from: "customer" | "bot" = "customer") => ({
      at,
      from,
      type: "text" as const,
      text: `m${at}`,
    });
    await state.append("live", [text(1), text(2, "bot")]);
    await state.append("gone", [text(1)]);
    now += 900;
    await state.append("live", [text(3)]);
    // Past the first entries' own expiry: "live" was written to since, "gone" was not.
    now += 100;
    expect(state.sweepExpired()).toBe(1);
    expect((await state.recent("live")).map((entry) => entry.text)).toEqual(["m1", "m2", "m3"]);
    expect(await state.recent("gone")).toEqual([]);
    now += 900;
    expect(state.sweepExpired()).toBe(3);
    expect(await state.recent("live")).toEqual([]);
  });
});
