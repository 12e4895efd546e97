import { afterEach, describe, expect, it } from "vitest";
import { deliveryFigures, echoedId, printFigures } from "../support/fault-figures.js";
import { type RedisGateway, startRedisGateway } from "../support/fault-gateway.js";
import { driveLoadThroughFault, loadMessages } from "../support/fault-load.js";
import { createOwnRedis, type OwnRedis } from "../support/own-redis.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Scenario 1: Redis (AOF on, appendfsync everysec) stopped and started
 * again in the middle of the load. SIGTERM makes Redis fsync its AOF before
 * it exits. Under everysec Redis write()s each command to the AOF before it
 * answers and fsyncs once a second, so a kill -9 of the Redis *process*
 * leaves every answered write in the kernel's page cache, and it is reloaded
 * too: nothing acknowledged may be lost either way (short of a disk so slow that
 * Redis postpones its AOF writes behind a running fsync). What this cannot test is
 * a crash of the host (power, kernel): that loses up to the last second of
 * acknowledged writes (docs/guarantees.md, "The fault suite").
 */
describe("fault: Redis restarted mid-load (AOF everysec)", () => {
  let redis: OwnRedis | undefined;
  let gateway: RedisGateway | undefined;
  afterEach(async () => {
    await gateway?.close();
    await redis?.close();
  });

  it.each(["SIGTERM", "SIGKILL"] as const)(
    "%s: every acknowledged message answered exactly once; ingress and workers reconnect",
    async (signal) => {
      redis = await createOwnRedis({ appendonly: true });
      await redis.start();
      const own = redis;
      gateway = await startRedisGateway({ label: "fault-redis-restart", redisUrl: own.url, workers: 2 });
      const g = gateway;
      const messages = loadMessages({
        run: `restart${signal}`,
        conversations: 150,
        perConversation: 2,
        customerBase: 2348100000000,
      });
      let restartedAt = 0;
      const run = await driveLoadThroughFault({
        messages,
        ratePerSecond: 40,
        baseUrl: () => g.url,
        faultAfterMs: 3000,
        fault: async () => {
          await own.stop(signal);
          await sleep(1000);
          await own.start();
          restartedAt = Date.now();
        },
        answered: () => new Set(g.fake.fake.messages().map(echoedId)).size >= messages.length,
      });
      const { ledger } = run;
      const firstAckAfter = Math.min(
        ...ledger
          .all()
          .filter((a) => a.result === 200 && a.at >= restartedAt)
          .map((a) => a.at + a.ms),
      );
      expect(run.unacked).toBe(0);
      const figures = deliveryFigures({
        messages,
        ledger,
        replies: g.fake.fake.messages(),
        replyOf: echoedId,
      });
      printFigures(`redis-restart-${signal}`, {
        ...figures,
        redisDownMs: restartedAt - run.faultStartedAt,
        firstAckAfterRestartMs: firstAckAfter - restartedAt,
        ingressAlive: g.ingress.alive(),
        workersAlive: g.workers.filter((w) => w.child.exitCode === null).length,
      });
      expect(figures.lost, g.logs().slice(-4000)).toEqual([]);
      expect(figures.duplicated).toEqual([]);
      expect(figures.unmatched).toBe(0);
      expect(figures.answered).toBe(messages.length);
      expect(g.ingress.alive()).toBe(true);
    },
  );
});
