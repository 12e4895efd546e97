import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { deliveryFigures, echoedId, printFigures } from "../support/fault-figures.js";
import { type RedisGateway, startRedisGateway } from "../support/fault-gateway.js";
import { driveFourHundredThroughFault } from "../support/fault-load.js";
import { TEST_REDIS_URL } from "../support/redis.js";
import { TcpProxy } from "../support/tcp-proxy.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const OUTAGE_MS = 10_000;
/**
 * A send in flight when its worker loses Redis for longer than WORKER_LOCK_MS: Meta has it, the worker
 * cannot record it until Redis returns, and by then the job's lock has lapsed and another worker may take
 * the job over as stalled and send it again, once ("outcome unknown"), as after a kill.
 */
const IN_FLIGHT_WINDOW_MS = 1000;

/**
 * Scenario 2: Redis unreachable for 10 s in the middle of the load (a proxy
 * between every process and Redis closes its port and drops every
 * connection). The ingress must answer 503 within about 2 s, never 200 and
 * never hang; afterwards it answers 200 again and the workers resume.
 */
describe("fault: Redis unreachable for 10 s mid-load", () => {
  let proxy: TcpProxy | undefined;
  let gateway: RedisGateway | undefined;
  afterEach(async () => {
    await gateway?.close();
    await proxy?.stop();
  });

  it("answers 503 while Redis is away, recovers, and answers every acknowledged message exactly once", async () => {
    const target = new URL(TEST_REDIS_URL);
    proxy = await TcpProxy.create({ host: target.hostname, port: Number(target.port || 6379) });
    await proxy.start();
    const p = proxy;
    gateway = await startRedisGateway({
      label: "fault-redis-outage",
      redisUrl: p.url,
      adminRedisUrl: TEST_REDIS_URL,
      workers: 2,
    });
    const g = gateway;
    // 20 s of load at 20/s: 4 s before the cut, 10 s without Redis, 6 s after.
    const run = await driveFourHundredThroughFault({
      run: "outage",
      customerBase: 2348110000000,
      baseUrl: () => g.url,
      fault: async () => {
        await p.stop();
        await sleep(OUTAGE_MS);
        await p.start();
      },
      answeredIds: () => new Set(g.fake.fake.messages().map(echoedId)),
    });
    const { ledger, messages, faultStartedAt: cutAt, faultEndedAt: restoredAt } = run;
    // Posts begun well inside the outage (a post may wait up to 1.5 s for a reconnect before its 503).
    const during = ledger.all().filter((a) => a.at >= cutAt + 200 && a.at + 2000 <= restoredAt);
    const afterRestore = ledger.all().filter((a) => a.result === 200 && a.at >= restoredAt);
    const firstAckAfterMs =
      afterRestore.length === 0 ? undefined : Math.min(...afterRestore.map((a) => a.at + a.ms)) - restoredAt;
    const figures = deliveryFigures({ messages, ledger, replies: g.fake.fake.messages(), replyOf: echoedId });
    const duringResults: Record<string, number> = {};
    for (const a of during) duringResults[String(a.result)] = (duringResults[String(a.result)] ?? 0) + 1;
    const lastReply = Math.max(...g.fake.fake.messages().map((m) => m.receivedAt));
    printFigures("redis-outage", {
      ...figures,
      outageMs: restoredAt - cutAt,
      postsDuringOutage: duringResults,
      slowestPostDuringOutageMs: Math.max(...during.map((a) => a.ms)),
      firstAckAfterRestoreMs: firstAckAfterMs,
      backlogAnsweredAfterRestoreMs: Math.min(lastReply, run.answeredAt) - restoredAt,
      // Each doubled reply's copies, ms from the cut.
      duplicateCopiesFromCutMs: figures.duplicated.map((id) =>
        g.fake.fake
          .messages()
          .filter((m) => echoedId(m) === id)
          .map((m) => m.receivedAt - cutAt)
          .join("/"),
      ),
      ingressAlive: g.ingress.alive(),
      workersAlive: g.workers.filter((w) => w.child.exitCode === null).length,
    });
    expect(run.unacked).toBe(0);
    expect(during.length).toBeGreaterThan(100);
    // Never a 200 without Redis, never a hang: a 503 Meta retries.
    expect(during.every((a) => a.result === 503)).toBe(true);
    // 1.5 s of INGRESS_ENQUEUE_TIMEOUT_MS plus the request, with room for a busy 2-core CI machine.
    expect(Math.max(...during.map((a) => a.ms))).toBeLessThan(3000);
    expect(firstAckAfterMs).toBeLessThan(5000);
    expect(figures.lost, g.logs().slice(-4000)).toEqual([]);
    const firstCopy = (id: string) =>
      Math.min(
        ...g.fake.fake
          .messages()
          .filter((m) => echoedId(m) === id)
          .map((m) => m.receivedAt),
      );
    const copies = (id: string) => g.fake.fake.messages().filter((m) => echoedId(m) === id).length;
    const unexplained = figures.duplicated.filter(
      (id) => copies(id) > 2 || Math.abs(firstCopy(id) - cutAt) > IN_FLIGHT_WINDOW_MS,
    );
    if (figures.duplicated.length > 0) {
      const path = join(tmpdir(), `fault-redis-outage-${Date.now()}.log`);
      writeFileSync(path, g.logs());
      process.stdout.write(`redis-outage: doubled replies; the processes' logs are in ${path}\n`);
    }
    expect(unexplained).toEqual([]);
    expect(figures.answered).toBe(messages.length);
    expect(g.ingress.alive()).toBe(true);
    expect(g.workers.every((w) => w.child.exitCode === null)).toBe(true);
  });
});
