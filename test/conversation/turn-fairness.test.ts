import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { createRedisConversationState } from "../../src/conversation/redis/index.js";
import type { TurnJob } from "../../src/queue/index.js";
import { createKeys, createTurnScheduler } from "../../src/queue/redis/index.js";
import { deleteKeys, skipWithoutRedis, TEST_REDIS_URL, uniquePrefix } from "../support/redis.js";

const redis = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: null });
const prefix = uniquePrefix("fairness");

afterAll(async () => {
  if (!skipWithoutRedis) await deleteKeys(redis, prefix);
  redis.disconnect();
});

describe.skipIf(skipWithoutRedis)("turn scheduler fairness", () => {
  it("queues a flooding tenant's turns behind a quiet tenant's, and urgent conversations first", async () => {
    const keys = createKeys(prefix);
    const turns = new Queue<TurnJob>("turns", { connection: redis, prefix });
    const scheduler = createTurnScheduler({ redis, keys, turns, batchSize: 500 });
    const state = createRedisConversationState({ redis, prefix });
    const flood = Array.from({ length: 200 }, (_, index) => `a:1:23480${String(index).padStart(8, "0")}`);
    const quiet = Array.from({ length: 5 }, (_, index) => `b:1:23490${String(index).padStart(8, "0")}`);
    await state.setMode("a:1:human-waiting", "human");
    await state.markPriority("a:1:paying", Date.now() + 60_000);
    await redis.zadd(keys.ready, ...flood.flatMap((key) => [0, key]));
    await scheduler.runOnce();
    await redis.zadd(keys.ready, ...[...quiet, "a:1:human-waiting", "a:1:paying"].flatMap((key) => [0, key]));
    await scheduler.runOnce();

    const jobs = await turns.getJobs(["prioritized"]);
    expect(jobs).toHaveLength(207);
    const priorityOf = new Map(jobs.map((job) => [job.data.conversationKey, job.opts.priority ?? 0]));
    const floodPriorities = flood.map((key) => priorityOf.get(key) as number);
    const quietPriorities = quiet.map((key) => priorityOf.get(key) as number);
    expect(Math.max(...quietPriorities)).toBeLessThan(10);
    expect(
      floodPriorities.filter((priority) => priority > Math.max(...quietPriorities)).length,
    ).toBeGreaterThan(190);
    expect(priorityOf.get("a:1:human-waiting")).toBe(1);
    expect(priorityOf.get("a:1:paying")).toBe(1);

    // What a worker takes first: the urgent ones, then the quiet tenant's, before most of the flood.
    const order = [...jobs]
      .sort((x, y) => (x.opts.priority ?? 0) - (y.opts.priority ?? 0))
      .map((job) => job.data.conversationKey);
    expect(order.slice(0, 2).sort()).toEqual(["a:1:human-waiting", "a:1:paying"]);
    expect(order.indexOf(quiet[4] as string)).toBeLessThan(20);
    await turns.close();
  });
});
