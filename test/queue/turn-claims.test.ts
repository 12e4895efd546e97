import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { createTurnWorker, type TurnWorker } from "../../src/conversation/redis/index.js";
import { createLogger } from "../../src/observability/index.js";
import { type JobOutcome, jobDone, retryAt, type TurnJob } from "../../src/queue/index.js";
import { createKeys, createRedisTurnClaims } from "../../src/queue/redis/index.js";
import { eventually } from "../support/eventually.js";
import { createIngressHarness, type IngressHarness } from "../support/ingress-harness.js";
import { skipWithoutRedis, TEST_REDIS_URL, turnsOf } from "../support/redis.js";
import { textWebhook } from "../support/webhook-builder.js";

const conversationOf = (from: string) => `default:106540352242922:${from}`;
const from = "2348070000001";
const conversation = conversationOf(from);
let sent = 0;
const post = (h: IngressHarness, customer = from) => {
  sent += 1;
  return h.post(
    textWebhook([
      [
        {
          wamid: `wamid.claim.${sent}`,
          from: customer,
          timestamp: 1795173000 + sent,
          text: `message ${sent}`,
        },
      ],
    ]),
  );
};

describe.skipIf(skipWithoutRedis)("turn claims on the ready set", () => {
  let h: IngressHarness | undefined;
  const clients: Redis[] = [];
  const workers: TurnWorker[] = [];
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.close(true)));
    for (const client of clients.splice(0)) client.disconnect();
    await h?.close();
    h = undefined;
  });
  const open = async (label: string, leaseMs = 5000) => {
    h = await createIngressHarness({ label });
    const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    clients.push(redis);
    const claims = createRedisTurnClaims({ redis, prefix: h.prefix, leaseMs, failureBackoffMs: 200 });
    return { h, claims, redis, keys: createKeys(h.prefix) };
  };

  it("makes a burst in one conversation one claimable turn, claimed once", async () => {
    const { h, claims } = await open("claim-burst");
    for (let n = 0; n < 5; n++) expect((await post(h)).statusCode).toBe(200);
    expect(await turnsOf(h.admin, h.prefix)).toEqual([conversation]);
    expect((await claims.claim(10, "worker-a")).conversations).toEqual([conversation]);
    expect((await claims.claim(10, "worker-b")).conversations).toEqual([]);
    expect((await h.queues.status.depth()).unscheduledConversations).toBe(0);
  });

  it("keeps a message that arrives during a turn for that worker's settlement, then makes the turn ready again", async () => {
    const { h, claims, keys } = await open("claim-during");
    await post(h);
    const [claimed] = (await claims.claim(1, "worker-a")).conversations;
    expect(claimed).toBe(conversation);
    await post(h); // arrives while worker-a runs the turn: no second worker may take it
    expect((await claims.claim(1, "worker-b")).conversations).toEqual([]);
    const first = await h.queues.inbox.read(conversation);
    await h.queues.inbox.complete(conversation, [first[0]?.wamid as string]);
    // Ready again for the message that came during the turn: the worker knows to claim at once.
    expect(await claims.settle(conversation, "worker-a", { kind: "done" })).toEqual({
      settled: true,
      failuresInARow: 0,
      readyTurns: 1,
    });
    expect((await claims.claim(1, "worker-b")).conversations).toEqual([conversation]);
    await h.queues.inbox.complete(
      conversation,
      (await h.queues.inbox.read(conversation)).map((message) => message.wamid),
    );
    // Nothing left anywhere: the worker can wait for a wake-up instead of claiming again.
    expect((await claims.settle(conversation, "worker-b", { kind: "done" })).readyTurns).toBe(0);
    expect(await turnsOf(h.admin, h.prefix)).toEqual([]);
    expect(await h.admin.zcard(keys.ready)).toBe(0);
  });

  it("hands a dead worker's turn to another once its lease lapses; the first can neither renew nor settle it", async () => {
    const { h, claims } = await open("claim-takeover", 300);
    await post(h);
    expect((await claims.claim(1, "dead")).conversations).toEqual([conversation]);
    expect((await claims.claim(1, "alive")).conversations).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect((await claims.claim(1, "alive")).conversations).toEqual([conversation]);
    expect(await claims.renew(conversation, "dead")).toBe(false);
    expect((await claims.settle(conversation, "dead", { kind: "done" })).settled).toBe(false);
    expect(await claims.renew(conversation, "alive")).toBe(true);
    expect(await turnsOf(h.admin, h.prefix)).toEqual([conversation]);
  });

  it("keeps a renewed lease: nobody takes the turn while its worker renews it", async () => {
    const { h, claims } = await open("claim-renew", 300);
    await post(h);
    await claims.claim(1, "busy");
    for (let i = 0; i < 4; i++) {
      await new Promise((resolve) => setTimeout(resolve, 120));
      expect(await claims.renew(conversation, "busy")).toBe(true);
      expect((await claims.claim(1, "other")).conversations).toEqual([]);
    }
  });

  it("waits out a retry time without a claim, and says when the next one is due", async () => {
    const { h, claims } = await open("claim-retry");
    await post(h);
    await claims.claim(1, "w");
    await claims.settle(conversation, "w", { kind: "retry", at: Date.now() + 400 });
    await post(h); // a message during the wait does not cut it short
    const early = await claims.claim(1, "w");
    expect(early.conversations).toEqual([]);
    expect(early.nextDueInMs).toBeGreaterThan(200);
    expect(early.nextDueInMs).toBeLessThanOrEqual(400);
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect((await claims.claim(1, "w")).conversations).toEqual([conversation]);
  });

  it("backs off after failures in a row, doubling, and forgets them after a run that ends", async () => {
    const { h, claims, keys } = await open("claim-failed");
    await post(h);
    const waits: number[] = [];
    for (let failure = 1; failure <= 3; failure++) {
      await eventually(async () => (await claims.claim(1, "w")).conversations.length === 1, 3000);
      expect((await claims.settle(conversation, "w", { kind: "failed" })).failuresInARow).toBe(failure);
      const due = Number(await h.admin.zscore(keys.delayedTurns, conversation));
      waits.push(due - Date.now());
    }
    // 200, 400, 800 ms (less the time the test took).
    expect(waits[0]).toBeLessThanOrEqual(200);
    expect(waits[1]).toBeGreaterThan(250);
    expect(waits[2]).toBeGreaterThan(600);
    expect((await claims.sample()).counts.failed).toBe(1);
    await eventually(async () => (await claims.claim(1, "w")).conversations.length === 1, 3000);
    await claims.settle(conversation, "w", { kind: "done" });
    expect((await claims.sample()).counts.failed).toBe(0);
  });

  it("gives a turn again to messages left in no turn set (lost with a failover), once", async () => {
    h = await createIngressHarness({ label: "claim-sweep" });
    const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    clients.push(redis);
    const claims = createRedisTurnClaims({ redis, prefix: h.prefix, leaseMs: 5000, sweepAfterMs: 0 });
    await post(h);
    await h.admin.del(createKeys(h.prefix).ready);
    expect((await h.queues.status.depth()).unscheduledConversations).toBe(1);
    expect(await claims.sweep()).toBe(1);
    expect(await claims.sweep()).toBe(0);
    expect((await h.queues.status.depth()).unscheduledConversations).toBe(0);
    expect(await turnsOf(h.admin, h.prefix)).toEqual([conversation]);
  });

  it("wakes idle workers when the ready set stops being empty", async () => {
    const { h, keys } = await open("claim-wake");
    const subscriber = new Redis(TEST_REDIS_URL);
    clients.push(subscriber);
    const heard: string[] = [];
    subscriber.on("message", (channel: string) => heard.push(channel));
    await subscriber.subscribe(keys.turnWakeChannel);
    await post(h);
    await post(h, "2348070000002"); // the ready set was not empty: no second wake-up
    await eventually(() => heard.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(heard).toEqual([keys.turnWakeChannel]);
  });

  describe("the turn worker", () => {
    const logger = createLogger({ level: "silent" });

    it("answers every conversation once, each turn in one worker at a time, across two workers", async () => {
      const { h } = await open("claim-workers");
      const runs: string[] = [];
      let inFlight = 0;
      let most = 0;
      const seen = new Set<string>();
      const handler = async (job: { data: TurnJob }): Promise<JobOutcome> => {
        const key = job.data.conversationKey;
        expect(seen.has(key)).toBe(false);
        seen.add(key);
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 20));
        const messages = await h.queues.inbox.read(key);
        await h.queues.inbox.complete(
          key,
          messages.map((message) => message.wamid),
        );
        runs.push(key);
        inFlight -= 1;
        seen.delete(key);
        return jobDone("handled");
      };
      for (const _ of [1, 2]) {
        const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
        clients.push(redis);
        workers.push(createTurnWorker({ redis, prefix: h.prefix, logger }, handler, { concurrency: 4 }));
      }
      const customers = Array.from({ length: 30 }, (_, i) => `23481${String(i).padStart(8, "0")}`);
      for (const customer of customers) expect((await post(h, customer)).statusCode).toBe(200);
      await eventually(() => new Set(runs).size === 30, 10_000);
      expect(runs).toHaveLength(30);
      expect(most).toBeGreaterThan(1);
      expect(most).toBeLessThanOrEqual(8);
      await eventually(async () => (await turnsOf(h.admin, h.prefix)).length === 0);
    });

    it("takes the turns that came while all its slots were busy as soon as one frees, without an idle poll", async () => {
      const { h } = await open("claim-full");
      const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
      clients.push(redis);
      const answered: string[] = [];
      let releaseFirst: () => void = () => {};
      const firstHeld = new Promise<void>((resolve) => {
        releaseFirst = resolve;
      });
      const handler = async (job: { data: TurnJob }): Promise<JobOutcome> => {
        const key = job.data.conversationKey;
        if (answered.length === 0) await firstHeld;
        const messages = await h.queues.inbox.read(key);
        await h.queues.inbox.complete(
          key,
          messages.map((message) => message.wamid),
        );
        answered.push(key);
        return jobDone("handled");
      };
      // One slot, and an idle poll longer than the test waits: only a claim after the turn can find them.
      workers.push(
        createTurnWorker({ redis, prefix: h.prefix, logger }, handler, {
          concurrency: 1,
          idlePollMs: 60_000,
        }),
      );
      await post(h, "2348090000001");
      await eventually(async () => (await turnsOf(h.admin, h.prefix)).length === 1, 5_000);
      await post(h, "2348090000002");
      await post(h, "2348090000003");
      releaseFirst();
      await eventually(() => answered.length === 3, 5_000);
      expect(answered).toEqual([
        conversationOf("2348090000001"),
        conversationOf("2348090000002"),
        conversationOf("2348090000003"),
      ]);
    });

    it("runs a postponed turn again at its time and a failed one after its backoff", async () => {
      const { h } = await open("claim-outcomes");
      const runs: number[] = [];
      const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
      clients.push(redis);
      const started = Date.now();
      const handler = async (job: { data: TurnJob }): Promise<JobOutcome> => {
        runs.push(Date.now() - started);
        if (runs.length === 1) return retryAt(Date.now() + 300);
        if (runs.length === 2) throw new Error("the LLM timed out");
        const messages = await h.queues.inbox.read(job.data.conversationKey);
        await h.queues.inbox.complete(
          job.data.conversationKey,
          messages.map((message) => message.wamid),
        );
        return jobDone("handled");
      };
      workers.push(
        createTurnWorker({ redis, prefix: h.prefix, logger }, handler, {
          failureBackoffMs: 300,
          idlePollMs: 5000,
        }),
      );
      await post(h);
      await eventually(() => runs.length === 3).catch((error) => {
        throw new Error(`runs: ${JSON.stringify(runs)}: ${error}`);
      });
      expect((runs[1] as number) - (runs[0] as number)).toBeGreaterThanOrEqual(280);
      expect((runs[2] as number) - (runs[1] as number)).toBeGreaterThanOrEqual(280);
      await eventually(async () => (await turnsOf(h.admin, h.prefix)).length === 0);
    });

    it("goes on claiming after its Redis connection drops and comes back", async () => {
      const { h } = await open("claim-reconnect");
      const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
      clients.push(redis);
      const handled: string[] = [];
      workers.push(
        createTurnWorker(
          { redis, prefix: h.prefix, logger },
          async (job) => {
            const messages = await h.queues.inbox.read(job.data.conversationKey);
            await h.queues.inbox.complete(
              job.data.conversationKey,
              messages.map((message) => message.wamid),
            );
            handled.push(...messages.map((message) => message.wamid));
            return jobDone("handled");
          },
          { idlePollMs: 100 },
        ),
      );
      await post(h);
      await eventually(() => handled.length === 1);
      redis.disconnect(true);
      await post(h, "2348070000009");
      await eventually(() => handled.length === 2, 10_000);
    });

    it("takes over the turns of a worker that stopped mid-turn once their leases lapse", async () => {
      const { h } = await open("claim-crash");
      const first = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
      const second = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
      clients.push(first, second);
      const finishedBy: string[] = [];
      const hang = new Promise<never>(() => {});
      const stuck = createTurnWorker({ redis: first, prefix: h.prefix, logger }, () => hang, {
        lockTtlMs: 400,
      });
      await post(h);
      await eventually(async () => (await h.admin.zcard(`${h.prefix}:turns:leased`)) === 1);
      // The stuck worker's process dies: its renewals stop with its connection.
      await stuck.close(true);
      first.disconnect();
      workers.push(
        createTurnWorker(
          { redis: second, prefix: h.prefix, logger },
          async (job) => {
            const messages = await h.queues.inbox.read(job.data.conversationKey);
            await h.queues.inbox.complete(
              job.data.conversationKey,
              messages.map((message) => message.wamid),
            );
            finishedBy.push("second");
            return jobDone("handled");
          },
          { lockTtlMs: 400, idlePollMs: 100 },
        ),
      );
      await eventually(() => finishedBy.length > 0);
      expect(finishedBy).toEqual(["second"]);
    });
  });
});
