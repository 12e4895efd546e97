import { Redis } from "ioredis";
import { Registry } from "prom-client";
import { afterEach, describe, expect, it } from "vitest";
import { createDeliveryMetrics, createEventJobHandler } from "../../src/delivery/index.js";
import {
  createEventsWorker,
  createRedisDeliveryStatusStore,
  type EventsWorker,
  type EventsWorkerOptions,
} from "../../src/delivery/redis/index.js";
import { SharpsharpError } from "../../src/errors/index.js";
import { createLogger } from "../../src/observability/index.js";
import {
  type EventJob,
  giveUp,
  type JobHandler,
  QueueUnavailableError,
  retryAt,
} from "../../src/queue/index.js";
import {
  createFailFastRedis,
  createRedisQueues,
  type RedisQueues,
  sampleJobQueues,
} from "../../src/queue/redis/index.js";
import type { InboundEvent } from "../../src/whatsapp/index.js";
import { sleep } from "../support/contract-backends.js";
import { eventually } from "../support/eventually.js";
import { deleteKeys, keysUnder, skipWithoutRedis, TEST_REDIS_URL, uniquePrefix } from "../support/redis.js";
import { TcpProxy } from "../support/tcp-proxy.js";

const PHONE = "106540352242922";
const logger = createLogger({ level: "silent" });

function statusEvent(id: string, status = "delivered"): InboundEvent {
  return {
    kind: "status",
    dedupeId: `acme:wamid.out.${id}:${status}`,
    tenantId: "acme",
    phoneNumberId: PHONE,
    wamid: `wamid.out.${id}`,
    status,
    timestamp: 1_795_173_000,
    receivedAt: Date.now(),
    recipient: { waId: "2348012345678" },
  };
}

const redisTarget = (() => {
  const url = new URL(TEST_REDIS_URL);
  return { host: url.hostname, port: Number(url.port || 6379) };
})();

/** A second worker that counts its runs per event, once the first one's events are all taken over and run. */
async function takeOverAndCount(
  worker: (handler: JobHandler<EventJob>, options?: EventsWorkerOptions) => unknown,
  queues: { readonly events: { counts(): Promise<{ readonly active: number }> } },
): Promise<Map<string, number>> {
  const runs = new Map<string, number>();
  worker(
    async (job) => {
      runs.set(job.data.dedupeId, (runs.get(job.data.dedupeId) ?? 0) + 1);
    },
    { claimIdleMs: 300 },
  );
  await eventually(async () => (await queues.events.counts()).active === 0, 5000);
  await sleep(300);
  return runs;
}

describe.skipIf(skipWithoutRedis)(
  "events stream: ingress record and consumer-group worker on real Redis",
  () => {
    const cleanups: (() => Promise<void> | void)[] = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    /** The ingress's queues on a fail-fast client (through `url`), and a worker-side client, under a fresh prefix. */
    async function open(label: string, url = TEST_REDIS_URL, enqueueTimeoutMs = 5000) {
      const prefix = uniquePrefix(label);
      const admin = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
      const ingressRedis = createFailFastRedis(url);
      ingressRedis.on("error", () => {});
      const queues: RedisQueues = createRedisQueues({
        redis: ingressRedis,
        prefix,
        dedupeTtlSeconds: 3600,
        enqueueTimeoutMs,
      });
      const workers: EventsWorker[] = [];
      cleanups.push(async () => {
        await Promise.all(workers.map((worker) => worker.close(true)));
        await queues.close();
        ingressRedis.disconnect();
        await deleteKeys(admin, prefix);
        admin.disconnect();
      });
      const worker = (handler: JobHandler<EventJob>, options: EventsWorkerOptions = {}) => {
        const started = createEventsWorker({ redis: admin, prefix, logger }, handler, {
          maintenanceIntervalMs: 20,
          ...options,
        });
        workers.push(started);
        return started;
      };
      const record = (events: InboundEvent[]) => queues.inbound.enqueue({ messages: [], events });
      return { prefix, admin, ingressRedis, queues, worker, record };
    }

    it("answers a repeated status webhook duplicate and applies it once", async () => {
      const { admin, prefix, queues, worker, record } = await open("ev-dup");
      const registry = new Registry();
      const store = createRedisDeliveryStatusStore({ redis: admin, prefix });
      worker(createEventJobHandler({ store, logger, metrics: createDeliveryMetrics(registry) }));
      const delivered = statusEvent("dup");
      expect((await record([delivered, statusEvent("dup", "read"), delivered])).events).toEqual([
        "new",
        "new",
        "duplicate",
      ]);
      // Meta redelivers the same webhook, at once and later.
      const again = await Promise.all([record([delivered]), record([delivered])]);
      expect(again.flatMap((outcome) => outcome.events)).toEqual(["duplicate", "duplicate"]);
      const statuses = async () =>
        (await registry.getSingleMetric("ss_delivery_statuses_total")?.get())?.values ?? [];
      await eventually(async () => (await statuses()).reduce((sum, v) => sum + v.value, 0) === 2);
      await sleep(200);
      // Each status ran once: a second run of "delivered" after "read" would count as stale_ignored.
      expect((await statuses()).map((v) => [v.labels.status, v.labels.outcome, v.value]).sort()).toEqual([
        ["delivered", "applied", 1],
        ["read", "applied", 1],
      ]);
      expect(await store.get("acme", "wamid.out.dup")).toMatchObject({ status: "read" });
      expect(await queues.events.counts()).toEqual({
        waiting: 0,
        active: 0,
        delayed: 0,
        prioritized: 0,
        failed: 0,
      });
      expect(await queues.events.entries()).toEqual([]);
    });

    it("takes over the events a dead worker left pending, and runs each once", async () => {
      const { queues, worker, record } = await open("ev-takeover");
      // The first worker takes every event and never finishes: its process is about to die.
      const stuck = worker(() => new Promise<never>(() => {}), { concurrency: 8 });
      const events = Array.from({ length: 6 }, (_, n) => statusEvent(`t${n}`));
      await record(events);
      await eventually(async () => (await queues.events.counts()).active === 6);
      await stuck.close(true);
      expect(await queues.events.counts()).toMatchObject({ waiting: 0, active: 6 });

      const runs = await takeOverAndCount(worker, queues);
      expect([...runs.keys()].sort()).toEqual(events.map((e) => e.dedupeId).sort());
      expect([...runs.values()]).toEqual(Array(6).fill(1));
      expect(await queues.events.counts()).toMatchObject({ waiting: 0, active: 0, failed: 0 });
    });

    it("takes over the events of a worker cut off from Redis", async () => {
      const { prefix, queues, worker, record } = await open("ev-cutoff");
      const cutOff = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
      cutOff.on("error", () => {});
      const stuck = createEventsWorker(
        { redis: cutOff, prefix, logger },
        () => new Promise<never>(() => {}),
        {
          maintenanceIntervalMs: 20,
          claimIdleMs: 300,
        },
      );
      cleanups.push(() => stuck.close(true));
      const events = Array.from({ length: 3 }, (_, n) => statusEvent(`c${n}`));
      await record(events);
      await eventually(async () => (await queues.events.counts()).active === 3);
      // Its client goes away: it can neither keep its events nor settle them.
      cutOff.disconnect();
      const runs = await takeOverAndCount(worker, queues);
      expect([...runs.entries()].sort()).toEqual(events.map((e) => [e.dedupeId, 1]).sort());
    });

    it("keeps a slow event with its live worker instead of handing it to another", async () => {
      const { queues, worker, record } = await open("ev-slow");
      const runs: string[] = [];
      const slow = async () => {
        runs.push("run");
        await sleep(1200);
      };
      // Four times the idle time: without its worker keeping it, one of the others would take it over.
      for (let n = 0; n < 4; n++) worker(slow, { claimIdleMs: 300 });
      await record([statusEvent("slow")]);
      await eventually(() => runs.length > 0);
      await eventually(async () => (await queues.events.counts()).active === 0, 5000);
      await sleep(100);
      expect(runs).toEqual(["run"]);
    });

    it("retries a throwing handler with growing backoff, dead-letters it after 5 attempts and counts it failed", async () => {
      const { queues, worker, record } = await open("ev-throw");
      const attemptsAt: number[] = [];
      worker(
        async () => {
          attemptsAt.push(Date.now());
          throw new Error("store unreachable");
        },
        { backoffMs: 50 },
      );
      const event = statusEvent("boom");
      await record([event]);
      await eventually(async () => (await queues.events.counts()).failed === 1, 10_000);
      await sleep(300);
      expect(attemptsAt).toHaveLength(5);
      const gaps = attemptsAt.slice(1).map((at, i) => at - (attemptsAt[i] as number));
      // 50, 100, 200, 400 ms (the retry set is looked at every 20 ms).
      for (const [i, gap] of gaps.entries()) expect(gap, `gap ${i}`).toBeGreaterThanOrEqual(50 * 2 ** i - 5);
      expect(gaps[3]).toBeGreaterThan(gaps[0] as number);
      const [dead] = await queues.events.deadLetters();
      expect(dead).toMatchObject({ event, attempts: 5, error: "store unreachable" });
      expect(await queues.events.counts()).toEqual({
        waiting: 0,
        active: 0,
        delayed: 0,
        prioritized: 0,
        failed: 1,
      });
      const [sample] = await sampleJobQueues([queues.events]);
      expect(sample).toMatchObject({ queue: "events", counts: { failed: 1, waiting: 0 } });
      expect((await queues.status.depth()).jobs.events).toMatchObject({ failed: 1 });
    });

    it("dead-letters a given-up event at once, with its reason", async () => {
      const { queues, worker, record } = await open("ev-giveup");
      let runs = 0;
      worker(async () => {
        runs += 1;
        return giveUp(new SharpsharpError("SS_TEST_GIVEN_UP", "not ours to apply"));
      });
      await record([statusEvent("given-up")]);
      await eventually(async () => (await queues.events.counts()).failed === 1);
      await sleep(100);
      expect(runs).toBe(1);
      expect((await queues.events.deadLetters())[0]).toMatchObject({
        attempts: 0,
        error: "not ours to apply",
      });
    });

    it("waits for a retryAt outcome without spending an attempt", async () => {
      const { queues, worker, record } = await open("ev-wait");
      const runsAt: number[] = [];
      worker(async () => {
        runsAt.push(Date.now());
        // More waits than the 5 attempts: none of them counts.
        return runsAt.length <= 6 ? retryAt(Date.now() + 100) : undefined;
      });
      await record([statusEvent("wait")]);
      await eventually(async () => (await queues.events.counts()).delayed === 1);
      expect(await queues.events.counts()).toMatchObject({ waiting: 0, active: 0, delayed: 1 });
      await eventually(() => runsAt.length === 7, 5000);
      await eventually(async () => (await queues.events.counts()).delayed === 0);
      const gaps = runsAt.slice(1).map((at, i) => at - (runsAt[i] as number));
      for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(95);
      expect(await queues.events.counts()).toEqual({
        waiting: 0,
        active: 0,
        delayed: 0,
        prioritized: 0,
        failed: 0,
      });
    });

    it("samples waiting events and the oldest one's age for the queue metrics", async () => {
      const { queues, worker, record } = await open("ev-sample");
      const before = Date.now();
      await record([statusEvent("s1"), statusEvent("s2")]);
      const firstRecorded = Date.now();
      await sleep(20);
      await record([statusEvent("s3")]);
      const [sample] = await sampleJobQueues([queues.events]);
      expect(sample?.counts).toMatchObject({ waiting: 3, active: 0 });
      expect(sample?.oldestWaitingAt).toBeGreaterThanOrEqual(before - 5);
      // The first batch's time, not the later one's.
      expect(sample?.oldestWaitingAt).toBeLessThanOrEqual(firstRecorded + 5);
      worker(async () => {});
      await eventually(async () => (await queues.events.counts()).waiting === 0);
      expect((await sampleJobQueues([queues.events]))[0]?.oldestWaitingAt).toBeUndefined();
    });

    it("rejects the enqueue while Redis is unreachable, records nothing, and takes the redelivery once", async () => {
      const proxy = await TcpProxy.create(redisTarget);
      await proxy.start();
      cleanups.push(() => proxy.stop());
      const { prefix, admin, ingressRedis, queues, record } = await open("ev-down", proxy.url, 300);
      await eventually(() => ingressRedis.status === "ready");
      await proxy.stop();
      const events = [statusEvent("down"), statusEvent("down", "read")];
      await expect(record(events)).rejects.toBeInstanceOf(QueueUnavailableError);
      // (The turns queue's BullMQ meta key is written when its Queue opens, before Redis went away.)
      expect((await keysUnder(admin, prefix)).filter((key) => key.includes(":events:"))).toEqual([]);
      await proxy.start();
      await eventually(() => ingressRedis.status === "ready", 5000);
      expect((await record(events)).events).toEqual(["new", "new"]);
      expect((await record(events)).events).toEqual(["duplicate", "duplicate"]);
      expect((await queues.events.entries()).map((entry) => entry.event)).toEqual(events);
    });

    it("keeps reading after its connection to Redis drops", async () => {
      const proxy = await TcpProxy.create(redisTarget);
      await proxy.start();
      cleanups.push(() => proxy.stop());
      const { prefix, queues, record } = await open("ev-worker-drop");
      const workerRedis = new Redis(proxy.url, { maxRetriesPerRequest: null });
      workerRedis.on("error", () => {});
      const handled: string[] = [];
      const worker = createEventsWorker(
        { redis: workerRedis, prefix, logger },
        async (job) => void handled.push(job.data.dedupeId),
        { maintenanceIntervalMs: 20 },
      );
      cleanups.push(async () => {
        await worker.close(true);
        workerRedis.disconnect();
      });
      await record([statusEvent("before")]);
      await eventually(() => handled.length === 1);
      proxy.dropConnections();
      await proxy.stop();
      await record([statusEvent("during")]);
      await sleep(300);
      await proxy.start();
      await eventually(() => handled.length === 2, 10_000);
      expect(handled).toEqual([statusEvent("before").dedupeId, statusEvent("during").dedupeId]);
      await eventually(async () => (await queues.events.counts()).active === 0);
    });
  },
);
