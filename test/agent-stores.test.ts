import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import {
  createKnowledgeBase,
  createRedisPendingActions,
  createRedisTenantSlots,
  createRedisTokenBudget,
} from "../src/agent/index.js";
import { deleteKeys, skipWithoutRedis, TEST_REDIS_URL, uniquePrefix } from "./support/redis.js";

const redis = new Redis(TEST_REDIS_URL, { lazyConnect: true });
const prefix = uniquePrefix("agent-stores");

afterAll(async () => {
  if (!skipWithoutRedis) await deleteKeys(redis, prefix);
  redis.disconnect();
});

describe.skipIf(skipWithoutRedis)("agent stores on Redis", () => {
  it("pending actions: claimed by one message (again on its retry), from their own conversation only, and expire", async () => {
    const pending = createRedisPendingActions(redis, prefix);
    const action = await pending.create(
      "shop:1:2348011111111",
      {
        toolName: "refund_order",
        args: { orderId: "A1" },
        idempotencyKey: "ss-k",
        summary: "Refund A1",
        createdAt: 1,
      },
      60_000,
    );
    expect(await pending.claim("shop:1:2348022222222", action.id, "wamid.other")).toEqual({
      kind: "missing",
    });
    const first = await pending.claim("shop:1:2348011111111", action.id, "wamid.tap1");
    expect(first).toMatchObject({
      kind: "claimed",
      action: { toolName: "refund_order", idempotencyKey: "ss-k" },
    });
    expect(await pending.claim("shop:1:2348011111111", action.id, "wamid.tap1")).toEqual(first);
    expect(await pending.claim("shop:1:2348011111111", action.id, "wamid.tap2")).toMatchObject({
      kind: "already",
    });
    expect(await pending.claim("shop:1:2348011111111", "../../etc", "wamid.tap1")).toEqual({
      kind: "missing",
    });
    const short = await pending.create("shop:1:x", { ...action, createdAt: 2 }, 50);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(await pending.claim("shop:1:x", short.id, "wamid.late")).toEqual({ kind: "missing" });
  });

  it("tenant slots: at most `limit` at once per tenant, freed on release or lease expiry", async () => {
    const slots = createRedisTenantSlots(redis, prefix, 200);
    const a1 = await slots.acquire("a", 2);
    const a2 = await slots.acquire("a", 2);
    expect(a1).toBeDefined();
    expect(a2).toBeDefined();
    expect(await slots.acquire("a", 2)).toBeUndefined();
    expect(await slots.acquire("b", 2)).toBeDefined();
    await slots.release("a", a1 as string);
    expect(await slots.acquire("a", 2)).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await slots.acquire("a", 2)).toBeDefined();
  });

  it("token budget: counts per tenant per UTC day", async () => {
    let now = Date.parse("2026-11-30T23:59:00Z");
    const budget = createRedisTokenBudget(redis, prefix, () => now);
    await budget.record("a", 1200);
    await budget.record("a", 300);
    await budget.record("b", 5);
    expect(await budget.spentToday("a")).toBe(1500);
    now = Date.parse("2026-12-01T00:00:01Z");
    expect(await budget.spentToday("a")).toBe(0);
  });
});

describe("knowledge base", () => {
  const base = createKnowledgeBase([
    { id: "delivery-fee", q: "How much is delivery?", a: "₦1,500 within Lekki, ₦2,500 elsewhere in Lagos." },
    { id: "hours", q: "When are you open?", a: "8am to 9pm every day." },
    { id: "refunds", q: "How do refunds work?", a: "Refunds go back to your card within 5 working days." },
  ]);

  it("finds entries by question words, despite typos, best first, with ids", () => {
    expect(base.search("delivry fee")[0]?.id).toBe("delivery-fee");
    expect(base.search("what time una open")[0]?.id).toBe("hours");
    expect(base.search("refund my card")[0]?.id).toBe("refunds");
    expect(base.search("football")).toEqual([]);
  });
});
