import { afterEach, describe, expect, it } from "vitest";
import { createEmbeddedQueues, createJobTable } from "../../src/queue/embedded/index.js";
import { QUEUE_NAMES, QueueUnavailableError } from "../../src/queue/index.js";
import {
  createFailFastRedis,
  createKeys,
  createRedisQueues,
  type RedisQueues,
} from "../../src/queue/redis/index.js";
import { redisPerTest, sqlitePerTest } from "../support/contract-backends.js";
import { skipWithoutRedis, TEST_REDIS_URL } from "../support/redis.js";
import { describeInboundQueueContract } from "./inbound-queue.contract.js";

describe.skipIf(skipWithoutRedis)("redis", () => {
  const backend = redisPerTest("c-inbound");
  const opened: { queues: RedisQueues; close: () => void }[] = [];
  afterEach(async () => {
    for (const { queues, close } of opened.splice(0)) {
      await queues.close();
      close();
    }
  });
  describeInboundQueueContract("redis", async ({ dedupeTtlSeconds }) => {
    const redis = createFailFastRedis(TEST_REDIS_URL);
    redis.on("error", () => {});
    await new Promise<void>((resolve) =>
      redis.status === "ready" ? resolve() : redis.once("ready", () => resolve()),
    );
    const prefix = backend.prefix();
    const queues = createRedisQueues({
      redis,
      prefix,
      dedupeTtlSeconds,
      enqueueTimeoutMs: 5000,
    });
    opened.push({ queues, close: () => redis.disconnect() });
    // Redis: a due turn is an entry in the ready set (or the delayed set), where workers claim it.
    const keys = createKeys(prefix);
    return {
      inbound: queues.inbound,
      inbox: queues.inbox,
      status: queues.status,
      async dueTurns() {
        const [ready, delayed] = await Promise.all([
          redis.zrange(keys.ready, 0, -1),
          redis.zrange(keys.delayedTurns, 0, -1),
        ]);
        return [...ready, ...delayed].sort();
      },
      async takeTurns() {
        await redis.del(keys.ready, keys.delayedTurns);
      },
    };
  });
});

describe("sqlite", () => {
  const backend = sqlitePerTest();
  describeInboundQueueContract("sqlite", async ({ dedupeTtlSeconds }) => {
    const db = backend.open();
    const jobs = createJobTable(db);
    const queues = createEmbeddedQueues({ db, jobs, dedupeTtlSeconds, description: "contract test db" });
    // Embedded: a due turn is a waiting row of the turns queue, keyed by conversation.
    const waitingTurns = () =>
      (
        db
          .prepare("SELECT id FROM queue_jobs WHERE queue = ? AND state = 'waiting' ORDER BY id")
          .all(QUEUE_NAMES.turns) as { id: string }[]
      ).map((row) => row.id);
    return {
      inbound: queues.inbound,
      inbox: queues.inbox,
      status: queues.status,
      async dueTurns() {
        return waitingTurns();
      },
      async takeTurns() {
        for (const id of waitingTurns()) jobs.complete(QUEUE_NAMES.turns, id, undefined, Date.now());
      },
    };
  });

  it("answers a webhook unavailable when the disk does not confirm its write in time, and takes its redelivery", async () => {
    const db = backend.open();
    let hung = true;
    const queues = createEmbeddedQueues({
      db,
      jobs: createJobTable(db),
      dedupeTtlSeconds: 3600,
      description: "contract test db",
      enqueueTimeoutMs: 100,
      // A disk whose fdatasync never returns, until it does.
      syncer: {
        sync: () => (hung ? new Promise<void>(() => {}) : Promise.resolve()),
        close: () => Promise.resolve(),
      },
    });
    const message = {
      tenantId: "shop",
      phoneNumberId: "106540352242922",
      wabaId: "1",
      conversationKey: "shop:106540352242922:2348012345678",
      wamid: "wamid.hung-disk.1",
      timestamp: 1_700_000_000,
      receivedAt: Date.now(),
      type: "text" as const,
      customer: { waId: "2348012345678" },
      text: "hello?",
    };
    const started = Date.now();
    await expect(queues.inbound.enqueue({ messages: [message], events: [] })).rejects.toBeInstanceOf(
      QueueUnavailableError,
    );
    expect(Date.now() - started).toBeLessThan(1000);
    hung = false;
    // Meta redelivers: the message is recorded once (the first write landed), and the webhook is answered.
    const redelivered = await queues.inbound.enqueue({ messages: [message], events: [] });
    expect(redelivered.messages).toEqual(["redelivered"]);
    expect(await queues.inbox.read(message.conversationKey)).toHaveLength(1);
  });

  it("counts a turn that runs now as active in the depth, not as waiting", async () => {
    const db = backend.open();
    const queues = createEmbeddedQueues({
      db,
      jobs: createJobTable(db),
      dedupeTtlSeconds: 60,
      description: "t",
    });
    const conv = "acme:106540352242922:2348012345678";
    await queues.inbound.enqueue({
      messages: [
        {
          tenantId: "acme",
          phoneNumberId: "106540352242922",
          wabaId: "114098765432109",
          conversationKey: conv,
          wamid: "wamid.run",
          timestamp: 1,
          receivedAt: Date.now(),
          type: "text",
          customer: { waId: "2348012345678" },
          text: "hi",
        },
      ],
      events: [],
    });
    expect((await queues.status.depth()).jobs.turns).toMatchObject({ waiting: 1, active: 0 });
    queues.signals.turnsRunning = () => new Set([conv]);
    expect((await queues.status.depth()).jobs.turns).toMatchObject({ waiting: 0, active: 1 });
  });
});
