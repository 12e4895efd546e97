import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { createRedisConversationState } from "../../src/conversation/redis/index.js";
import {
  createFailFastRedis,
  createRedisQueues,
  createRedisTurnClaims,
} from "../../src/queue/redis/index.js";
import type { InboundMessage } from "../../src/whatsapp/index.js";
import { deleteKeys, skipWithoutRedis, TEST_REDIS_URL, uniquePrefix } from "../support/redis.js";

const redis = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: null });
const ingressRedis = createFailFastRedis(TEST_REDIS_URL);
const prefix = uniquePrefix("fairness");

afterAll(async () => {
  if (!skipWithoutRedis) await deleteKeys(redis, prefix);
  redis.disconnect();
  ingressRedis.disconnect();
});

function messageOf(conversationKey: string, n: number): InboundMessage {
  const [tenantId, phoneNumberId, waId] = conversationKey.split(":") as [string, string, string];
  return {
    tenantId,
    phoneNumberId,
    conversationKey,
    wamid: `wamid.fair.${n}`,
    timestamp: 1795170000 + n,
    receivedAt: Date.now(),
    type: "text",
    text: `message ${n}`,
    customer: { waId },
  } as InboundMessage;
}

describe.skipIf(skipWithoutRedis)("turn fairness on the ready set", () => {
  it("claims a flooding tenant's turns behind a quiet tenant's, and urgent conversations first", async () => {
    const queues = createRedisQueues({
      redis: ingressRedis,
      prefix,
      dedupeTtlSeconds: 3600,
      enqueueTimeoutMs: 5000,
    });
    await queues.status.whenReady();
    const claims = createRedisTurnClaims({ redis, prefix, leaseMs: 60_000 });
    const state = createRedisConversationState({ redis, prefix });
    const flood = Array.from({ length: 200 }, (_, index) => `a:1:23480${String(index).padStart(8, "0")}`);
    const quiet = Array.from({ length: 5 }, (_, index) => `b:1:23490${String(index).padStart(8, "0")}`);
    await state.setMode("a:1:234811111111", "human");
    await state.markPriority("a:1:234822222222", Date.now() + 60_000);
    let n = 0;
    const record = (keys: readonly string[]) =>
      queues.inbound.enqueue({ messages: keys.map((key) => messageOf(key, n++)), events: [] });
    await record(flood);
    await record([...quiet, "a:1:234811111111", "a:1:234822222222"]);

    const order: string[] = [];
    for (let claimed = await claims.claim(20, "w"); claimed.conversations.length > 0; ) {
      order.push(...claimed.conversations);
      claimed = await claims.claim(20, "w");
    }
    expect(order).toHaveLength(207);
    expect(new Set(order).size).toBe(207);
    // What workers take first: the urgent ones, then the quiet tenant's, before most of the flood.
    expect(order.slice(0, 2).sort()).toEqual(["a:1:234811111111", "a:1:234822222222"]);
    expect(Math.max(...quiet.map((key) => order.indexOf(key)))).toBeLessThan(20);
    // Within one tenant, first recorded, first claimed.
    const floodOrder = order.filter((key) => flood.includes(key));
    expect(floodOrder).toEqual(flood);
    await queues.close();
  });
});
