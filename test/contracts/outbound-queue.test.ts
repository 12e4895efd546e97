import { Worker } from "bullmq";
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import {
  createEmbeddedOutboundQueue,
  createSqliteSendOrder,
  OUTBOUND_KEEP,
} from "../../src/outbound/embedded/index.js";
import { createRedisOutboundQueue, type RedisOutboundQueue } from "../../src/outbound/redis/index.js";
import { createJobRunner, createJobTable } from "../../src/queue/embedded/index.js";
import { type OutboundJob, QUEUE_NAMES } from "../../src/queue/index.js";
import type { SqliteDatabase } from "../../src/sqlite/index.js";
import { redisPerTest, sqlitePerTest } from "../support/contract-backends.js";
import { eventually } from "../support/eventually.js";
import { skipWithoutRedis, TEST_REDIS_URL } from "../support/redis.js";
import { describeOutboundQueueContract } from "./outbound-queue.contract.js";

describe.skipIf(skipWithoutRedis)("redis", () => {
  const backend = redisPerTest("c-outq");
  const opened: RedisOutboundQueue[] = [];
  afterEach(async () => {
    for (const queue of opened.splice(0)) await queue.close();
  });
  describeOutboundQueueContract("redis", async () => {
    const queue = createRedisOutboundQueue({ redis: backend.redis, prefix: backend.prefix() });
    opened.push(queue);
    const states = ["waiting", "prioritized", "delayed", "active", "completed", "failed"] as const;
    return {
      queue,
      async queued() {
        const found = await Promise.all(
          states.map(async (state) =>
            (await queue.queue.getJobs([state])).map((job) => ({
              id: job.id as string,
              data: job.data,
              state: state === "prioritized" ? "waiting" : state,
            })),
          ),
        );
        return found.flat();
      },
      async sendAll() {
        const connection = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
        const worker = new Worker(QUEUE_NAMES.outbound, async () => {}, {
          connection,
          prefix: queue.queue.opts.prefix,
        });
        try {
          await eventually(async () => {
            const counts = await queue.queue.getJobCounts("wait", "prioritized", "delayed", "active");
            return Object.values(counts).every((n) => n === 0);
          });
        } finally {
          await worker.close();
          connection.disconnect();
        }
      },
    };
  });
});

const outboundJobs = (db: SqliteDatabase) =>
  (
    db.prepare("SELECT id, data, state FROM queue_jobs WHERE queue = ?").all(QUEUE_NAMES.outbound) as {
      id: string;
      data: string;
      state: string;
    }[]
  ).map((row) => ({ id: row.id, data: JSON.parse(row.data) as OutboundJob, state: row.state }));

describe("sqlite", () => {
  const backend = sqlitePerTest();
  describeOutboundQueueContract("sqlite", async () => {
    const db = backend.open();
    const jobs = createJobTable(db);
    const queue = createEmbeddedOutboundQueue({ jobs, order: createSqliteSendOrder({ db }) });
    return {
      queue,
      queued: async () => outboundJobs(db),
      async sendAll() {
        const runner = createJobRunner(jobs, QUEUE_NAMES.outbound, async () => {}, {
          concurrency: 4,
          keep: OUTBOUND_KEEP,
        });
        runner.start();
        try {
          await eventually(() => {
            const counts = jobs.counts(QUEUE_NAMES.outbound, Date.now(), runner.active);
            return counts.waiting === 0 && counts.delayed === 0 && counts.active === 0;
          });
        } finally {
          await runner.close();
        }
      },
    };
  });

  it("tells the sender after adding jobs, and not after a refused call", async () => {
    const db = backend.open();
    let told = 0;
    const queue = createEmbeddedOutboundQueue({
      jobs: createJobTable(db),
      order: createSqliteSendOrder({ db }),
      added: () => {
        told += 1;
      },
    });
    const good = {
      tenantId: "acme",
      phoneNumberId: "106540352242922",
      conversationKey: "acme:106540352242922:2348012345678",
      to: "2348012345678",
      turnId: "t",
      part: 0,
      message: { type: "text", text: { body: "hi" } },
    };
    await expect(queue.enqueue([good, { ...good, part: -1 }])).rejects.toThrow(/part/);
    expect(told).toBe(0);
    await queue.enqueue([good]);
    expect(told).toBe(1);
    expect(outboundJobs(db).length).toBe(1);
  });
});
