import { Queue, Worker } from "bullmq";
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { SharpsharpError } from "../../src/errors/index.js";
import { giveUp, type JobHandler, jobDone, retryAt } from "../../src/queue/index.js";
import { bullProcessor, JobLockLostError } from "../../src/queue/redis/index.js";
import { eventually } from "../support/eventually.js";
import { deleteKeys, skipWithoutRedis, TEST_REDIS_URL, uniquePrefix } from "../support/redis.js";

const Q = "outcomes";

describe.skipIf(skipWithoutRedis)("job outcomes on BullMQ (bullProcessor)", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  let prefix = "";
  async function start(handler: JobHandler<{ step: number }>) {
    prefix = uniquePrefix("outcome");
    const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    const queue = new Queue<{ step: number }>(Q, { connection: redis, prefix });
    const worker = new Worker<{ step: number }, string>(Q, bullProcessor(handler), {
      connection: redis,
      prefix,
    });
    // A job taken over from this worker cannot be finished by it: BullMQ reports that as an error event.
    worker.on("error", () => {});
    cleanups.push(async () => {
      await worker.close(true);
      await queue.close();
      await deleteKeys(redis, prefix);
      redis.disconnect();
    });
    return queue;
  }

  it("records done with its result", async () => {
    const queue = await start(async () => jobDone("wamid.1"));
    const job = await queue.add("j", { step: 0 }, { jobId: "done-1" });
    await eventually(async () => (await queue.getJobState("done-1")) === "completed");
    expect((await queue.getJob(job.id as string))?.returnvalue).toBe("wamid.1");
  });

  it("runs a retried job again at its time without spending an attempt", async () => {
    const runs: number[] = [];
    const queue = await start(async (job) => {
      runs.push(Date.now());
      if (job.data.step < 2) {
        await job.updateData({ step: job.data.step + 1 });
        return retryAt(Date.now() + 150);
      }
      return jobDone("finally");
    });
    await queue.add("j", { step: 0 }, { jobId: "retry-1", attempts: 1 });
    await eventually(async () => (await queue.getJobState("retry-1")) === "completed", 5000);
    const job = await queue.getJob("retry-1");
    expect(runs.length).toBe(3);
    expect((runs[2] ?? 0) - (runs[0] ?? 0)).toBeGreaterThanOrEqual(290);
    expect(job?.attemptsMade).toBe(1);
    expect(job?.returnvalue).toBe("finally");
  });

  it("fails a job that gives up at once, whatever attempts remain, recording why", async () => {
    let runs = 0;
    const queue = await start(async () => {
      runs += 1;
      return giveUp(new SharpsharpError("SS_TEST_GIVEN_UP", "outcome_unknown (Graph code 131000)"));
    });
    await queue.add(
      "j",
      { step: 0 },
      { jobId: "give-up-1", attempts: 5, backoff: { type: "fixed", delay: 10 } },
    );
    await eventually(async () => (await queue.getJobState("give-up-1")) === "failed");
    const job = await queue.getJob("give-up-1");
    expect(runs).toBe(1);
    expect(job?.failedReason).toBe("outcome_unknown (Graph code 131000)");
  });

  it("ensureOwned passes while the worker holds the job, and throws once another worker took it over", async () => {
    const checks: unknown[] = [];
    let sideEffects = 0;
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const queue = await start(async (job) => {
      checks.push(await job.ensureOwned?.().then(() => "owned"));
      await held;
      try {
        await job.ensureOwned?.();
        sideEffects += 1;
      } catch (error) {
        checks.push(error);
      }
      return jobDone("x");
    });
    await queue.add("j", { step: 0 }, { jobId: "owned-1" });
    await eventually(() => checks.length === 1);
    // What a stalled-job check of another worker leaves after this one was cut off longer than its lock.
    const admin = new Redis(TEST_REDIS_URL);
    await admin.set(`${prefix}:${Q}:owned-1:lock`, "another-workers-token");
    admin.disconnect();
    release();
    await eventually(() => checks.length === 2);
    expect(checks[0]).toBe("owned");
    expect(checks[1]).toBeInstanceOf(JobLockLostError);
    expect(sideEffects).toBe(0);
  });
});
