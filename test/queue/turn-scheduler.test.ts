import { type Job, Worker } from "bullmq";
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import type { TurnJob } from "../../src/queue/index.js";
import { createKeys, createTurnScheduler } from "../../src/queue/redis/index.js";
import { eventually } from "../support/eventually.js";
import { createIngressHarness, type IngressHarness } from "../support/ingress-harness.js";
import { skipWithoutRedis, TEST_REDIS_URL } from "../support/redis.js";
import { textWebhook } from "../support/webhook-builder.js";

const from = "2348070000001";
const conversation = `default:106540352242922:${from}`;
const post = (h: IngressHarness, n: number) =>
  h.post(
    textWebhook([[{ wamid: `wamid.sched.${n}`, from, timestamp: 1795173000 + n, text: `message ${n}` }]]),
  );

/** A second scheduler whose job creation waits until `releaseGate()`: a slow scheduler, on demand. */
function gatedScheduler(harness: IngressHarness, options: { leaseMs?: number; stepTimeoutMs?: number } = {}) {
  let releaseGate: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    releaseGate = resolve;
  });
  const slowTurns = {
    addBulk: async (jobs: Parameters<typeof harness.queues.turns.addBulk>[0]) => {
      await gate;
      return harness.queues.turns.addBulk(jobs);
    },
  } as unknown as typeof harness.queues.turns;
  const slow = createTurnScheduler({
    redis: harness.redis,
    keys: createKeys(harness.prefix),
    turns: slowTurns,
    ...options,
  });
  return { slow, releaseGate };
}

describe.skipIf(skipWithoutRedis)("turn scheduler", () => {
  let h: IngressHarness | undefined;
  let worker: Worker | undefined;
  let workerRedis: Redis | undefined;
  afterEach(async () => {
    await worker?.close(true);
    workerRedis?.disconnect();
    await h?.close();
    h = worker = workerRedis = undefined;
  });

  it("turns a burst of messages in one conversation into one waiting turn and empties the ready set", async () => {
    h = await createIngressHarness({ label: "sched-burst" });
    for (let n = 0; n < 5; n++) expect((await post(h, n)).statusCode).toBe(200);
    expect(await h.queues.scheduler.runOnce()).toBe(1);
    for (let n = 5; n < 8; n++) await post(h, n);
    await h.queues.scheduler.runOnce();
    const jobs = await h.queues.turns.getJobs(["waiting", "prioritized"]);
    expect(jobs.map((job) => job.data)).toEqual([{ tenantId: "default", conversationKey: conversation }]);
    expect(await h.admin.zcard(`${h.prefix}:ready`)).toBe(0);
    expect((await h.queues.inbox.read(conversation)).length).toBe(8);
  });

  it("keeps a conversation due when a message arrives while its claim is being turned into a job", async () => {
    h = await createIngressHarness({ label: "sched-race" });
    const harness = h;
    await post(harness, 1);
    const { slow, releaseGate } = gatedScheduler(harness);
    const moving = slow.runOnce();
    await eventually(
      async () => Number(await harness.admin.zscore(`${harness.prefix}:ready`, conversation)) > Date.now(),
    );
    await post(harness, 2); // arrives while leased
    releaseGate();
    await moving;
    expect(await harness.admin.zcard(`${harness.prefix}:ready`)).toBe(1);
    await harness.queues.scheduler.runOnce();
    expect(await harness.admin.zcard(`${harness.prefix}:ready`)).toBe(0);
    expect(await harness.queues.turns.getJobCountByTypes("waiting", "prioritized")).toBe(1);
  });

  it("keeps a conversation due when its message arrives after a slow scheduler's lease ran out", async () => {
    h = await createIngressHarness({ label: "sched-late" });
    const harness = h;
    await post(harness, 1);
    const { slow, releaseGate } = gatedScheduler(harness, { leaseMs: 50, stepTimeoutMs: 5000 });
    const moving = slow.runOnce();
    await new Promise((resolve) => setTimeout(resolve, 150)); // the lease has run out
    await post(harness, 2);
    releaseGate();
    await moving;
    expect(await harness.admin.zcard(`${harness.prefix}:ready`)).toBe(1);
  });

  it("makes the turn due again for messages that waited too long with none (a turn that failed for good)", async () => {
    h = await createIngressHarness({ label: "sched-sweep" });
    const harness = h;
    await post(harness, 1);
    await harness.queues.scheduler.runOnce();
    await harness.queues.turns.obliterate({ force: true }); // the turn is gone; the message still waits
    const sweeper = createTurnScheduler({
      redis: harness.redis,
      keys: createKeys(harness.prefix),
      turns: harness.queues.turns,
      sweepAfterMs: 0,
    });
    expect(await sweeper.sweep()).toBe(1);
    expect(await sweeper.runOnce()).toBe(1);
    expect(await harness.queues.turns.getJobCountByTypes("waiting", "prioritized")).toBe(1);
    // Sweeping again while the message still waits never makes a second waiting turn.
    await sweeper.sweep();
    await sweeper.runOnce();
    expect(await harness.queues.turns.getJobCountByTypes("waiting", "prioritized")).toBe(1);
  });

  it("retries a claim whose scheduler failed once the lease runs out", async () => {
    h = await createIngressHarness({ label: "sched-lease" });
    const harness = h;
    await post(harness, 1);
    const failing = createTurnScheduler({
      redis: harness.redis,
      keys: createKeys(harness.prefix),
      turns: {
        addBulk: async () => Promise.reject(new Error("crashed")),
      } as unknown as typeof harness.queues.turns,
      leaseMs: 150,
    });
    await expect(failing.runOnce()).rejects.toThrow("crashed");
    expect(await harness.queues.scheduler.runOnce()).toBe(0); // still leased
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await harness.queues.scheduler.runOnce()).toBe(1);
    expect(await harness.queues.turns.getJobCountByTypes("waiting", "prioritized")).toBe(1);
  });

  it("picks up turns recorded by another process when started, without being kicked", async () => {
    h = await createIngressHarness({ label: "sched-loop" });
    const harness = h;
    const other = createTurnScheduler({
      redis: harness.redis,
      keys: createKeys(harness.prefix),
      turns: harness.queues.turns,
      idlePollMs: 50,
    });
    other.start();
    try {
      await post(harness, 1); // kicks only harness.queues.scheduler, which is not started
      await eventually(
        async () => (await harness.queues.turns.getJobCountByTypes("waiting", "prioritized")) === 1,
      );
    } finally {
      await other.stop();
    }
  });

  it("keeps at most one waiting turn besides the running one, however many messages arrive during a turn", async () => {
    h = await createIngressHarness({ label: "sched-active" });
    const harness = h;
    await post(harness, 1);
    await harness.queues.scheduler.runOnce();
    let finish: () => void = () => {};
    const running = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const started: Job<TurnJob>[] = [];
    workerRedis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    worker = new Worker<TurnJob>(
      "turns",
      async (job) => {
        started.push(job);
        await running;
      },
      { connection: workerRedis, prefix: harness.prefix, concurrency: 5 },
    );
    worker.on("error", () => {});
    await eventually(async () => started.length === 1);
    for (let n = 2; n <= 6; n++) {
      await post(harness, n);
      await harness.queues.scheduler.runOnce();
    }
    const counts = await harness.queues.turns.getJobCounts("active", "waiting", "delayed", "prioritized");
    expect(Object.values(counts).reduce((sum, n) => sum + n, 0)).toBeLessThanOrEqual(2);
    expect(started).toHaveLength(1); // never two turns of one conversation at once
    finish();
    await eventually(async () => started.length === 2);
  });
});
