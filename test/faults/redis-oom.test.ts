import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { deliveryFigures, echoedId, printFigures } from "../support/fault-figures.js";
import { type RedisGateway, startRedisGateway } from "../support/fault-gateway.js";
import { driveFourHundredThroughFault } from "../support/fault-load.js";
import { createOwnRedis, type OwnRedis } from "../support/own-redis.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const FULL_MS = 8_000;

/**
 * Redis out of memory in the middle of the load: `maxmemory` set below what it holds, under the
 * `noeviction` policy sharpsharp requires, so every command that would add data is refused with an
 * OOM error while reads and deletes still work. Unlike an outage, every connection stays up and
 * answers: a process that treats an error reply as "done" (a send job failed for good, a turn set
 * aside) loses the message for good. Afterwards memory is given back, and every message the ingress
 * acknowledged must be answered, exactly once.
 */
describe("fault: Redis out of memory for 8 s mid-load (noeviction)", () => {
  let redis: OwnRedis | undefined;
  let gateway: RedisGateway | undefined;
  let admin: Redis | undefined;
  afterEach(async () => {
    admin?.disconnect();
    await gateway?.close();
    await redis?.close();
  });

  it("refuses webhooks while full, and answers every acknowledged message exactly once after", async () => {
    redis = await createOwnRedis({ appendonly: false });
    await redis.start();
    const own = redis;
    admin = new Redis(own.url, { maxRetriesPerRequest: 1 });
    const a = admin;
    gateway = await startRedisGateway({ label: "fault-redis-oom", redisUrl: own.url, workers: 2 });
    const g = gateway;
    // Slow answers, so that when memory runs out turns are mid-answer and replies mid-send: their next
    // writes (journal steps, the outbound job, the sent mark, the delivery record) are the ones refused.
    g.llm.setFaults({ latencyMs: [200, 1200] });
    g.fake.fake.setFaults({ latencyMs: 150 });
    // 20 s of load at 20/s: 4 s before memory runs out, 8 s full, 8 s after.
    const run = await driveFourHundredThroughFault({
      run: "oom",
      customerBase: 2348180000000,
      baseUrl: () => g.url,
      fault: async () => {
        await a.config("SET", "maxmemory", "1");
        await sleep(FULL_MS);
        await a.config("SET", "maxmemory", "0");
      },
      answeredIds: () => new Set(g.fake.fake.messages().map(echoedId)),
    });
    const { ledger, messages, faultStartedAt: fullAt, faultEndedAt: freedAt } = run;
    const during = ledger.all().filter((x) => x.at >= fullAt + 200 && x.at + 2000 <= freedAt);
    const duringResults: Record<string, number> = {};
    for (const x of during) duringResults[String(x.result)] = (duringResults[String(x.result)] ?? 0) + 1;
    // The workers' refused writes: the turns and sends the fault reached, not only the ingress.
    const workerOomErrors = g.workers.reduce(
      (n, w) => n + (w.output().match(/OOM command not allowed/g)?.length ?? 0),
      0,
    );
    // The fake model answers every call: a fallback reply here is a refused write taken for a failed call.
    const fallbackReplies = g.workers.reduce(
      (n, w) => n + (w.output().match(/LLM call failed: fallback reply/g)?.length ?? 0),
      0,
    );
    const figures = deliveryFigures({ messages, ledger, replies: g.fake.fake.messages(), replyOf: echoedId });
    printFigures("redis-oom", {
      ...figures,
      fullMs: freedAt - fullAt,
      postsWhileFull: duringResults,
      // The workers' refused writes: the turns and sends the fault reached, not only the ingress.
      workerOomErrors,
      fallbackReplies,
      ingressAlive: g.ingress.alive(),
      workersAlive: g.workers.filter((w) => w.child.exitCode === null).length,
    });
    if (figures.lost.length > 0 || figures.duplicated.length > 0) {
      const path = join(tmpdir(), `fault-redis-oom-${Date.now()}.log`);
      writeFileSync(path, g.logs());
      process.stdout.write(`redis-oom: lost or doubled replies; the processes' logs are in ${path}\n`);
    }
    expect(run.unacked).toBe(0);
    expect(during.length).toBeGreaterThan(100);
    expect(workerOomErrors).toBeGreaterThan(0);
    expect(fallbackReplies).toBe(0);
    // Nothing could be recorded: never a 200, and never a hang.
    expect(during.every((x) => x.result !== 200)).toBe(true);
    expect(Math.max(...during.map((x) => x.ms))).toBeLessThan(3000);
    expect(figures.lost, g.logs().slice(-4000)).toEqual([]);
    expect(figures.duplicated).toEqual([]);
    expect(figures.answered).toBe(messages.length);
    expect(g.ingress.alive()).toBe(true);
    expect(g.workers.every((w) => w.child.exitCode === null)).toBe(true);
  });
});
