import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAll } from "../../src/app/index.js";
import { createLogger } from "../../src/observability/index.js";
import { postSignedWebhook, startEnvConfig } from "../support/embedded-config.js";
import { eventually } from "../support/eventually.js";
import { startFake } from "../support/fake-graph.js";
import { uniquePrefix } from "../support/redis.js";
import {
  redisCli,
  SENTINEL_MASTER,
  type SentinelTopology,
  startSentinel,
  topologySkipReason,
} from "../support/redis-topology.js";
import { textWebhook } from "../support/webhook-builder.js";

const title = `Redis Sentinel: a primary, a replica and a sentinel${topologySkipReason === undefined ? "" : ` (skipped: ${topologySkipReason})`}`;

describe.skipIf(topologySkipReason !== undefined)(title, () => {
  let topology: SentinelTopology;
  beforeAll(async () => {
    topology = await startSentinel();
  }, 30_000);
  afterAll(async () => {
    await topology?.stop();
  });

  it("finds the primary through Sentinel, answers a message, and after a failover answers the next", async () => {
    const fake = await startFake();
    const prefix = uniquePrefix("sentinel");
    const config = startEnvConfig(fake.url, {
      REDIS_SENTINELS: `127.0.0.1:${topology.sentinel.port}`,
      REDIS_SENTINEL_MASTER: SENTINEL_MASTER,
      REDIS_PREFIX: prefix,
    });
    const logLines: string[] = [];
    const logger = createLogger({
      level: "warn",
      destination: { write: (line: string) => logLines.push(line) },
    });
    const running = await startAll(config, { logger });
    /**
     * Posts like Meta: a non-200 answer (503 while Redis changes hands) is sent again until accepted.
     * With guarded writes that is until Sentinel has demoted the old primary (its INFO period, 10 s)
     * and it follows the new one.
     */
    const deliver = async (wamid: string, from: string) => {
      const body = textWebhook([[{ wamid, from, timestamp: Math.floor(Date.now() / 1000), text: "hello" }]]);
      const statuses: number[] = [];
      await eventually(
        async () => {
          const response = await postSignedWebhook(running.url, body);
          statuses.push(response.status);
          return response.status === 200;
        },
        30_000,
        200,
      );
      return statuses;
    };
    const mark = (wamid: string) => `${prefix}:wamid:default:${wamid}`;
    try {
      expect(await deliver("wamid.sentinel.before", "2348090000011")).toEqual([200]);
      await eventually(() => fake.fake.messages().length === 1, 10_000);
      expect(await redisCli(topology.primary.port, "exists", mark("wamid.sentinel.before"))).toBe("1");

      const failoverAt = Date.now();
      const newMaster = await topology.failover();
      const switchedAt = Date.now();
      expect(newMaster).toBe(topology.replica.port);
      // At once, before Sentinel demotes the old primary. Sentinel names the new master a moment before it
      // announces +switch-master, so a client may still be on the old one. That one refuses (NOREPLICAS:
      // its replica left it), and so does the new one until the old one follows it: 503 until then.
      const statuses = await deliver("wamid.sentinel.after", "2348090000012");
      const acceptedAt = Date.now();
      expect(statuses.at(-1)).toBe(200);
      await eventually(() => fake.fake.messages().length === 2, 15_000);
      const answeredAt = Date.now();
      await topology.demoted(topology.primary.port);
      process.stdout.write(
        `sentinel failover: switch ${switchedAt - failoverAt} ms after SENTINEL FAILOVER; the next message ` +
          `accepted ${acceptedAt - switchedAt} ms later (after ${statuses.filter((status) => status !== 200).length} refusals), answered after ` +
          `${answeredAt - acceptedAt} ms; old primary demoted ${Date.now() - switchedAt} ms after the switch\n`,
      );
      // Recorded on the promoted replica, where the dedupe mark of the first message had been replicated.
      expect(await redisCli(newMaster, "exists", mark("wamid.sentinel.after"))).toBe("1");
      expect(await redisCli(newMaster, "exists", mark("wamid.sentinel.before"))).toBe("1");
      // Each answered once: a redelivery of the first, now on the new primary, is dropped as a duplicate.
      expect(await deliver("wamid.sentinel.before", "2348090000011")).toEqual([200]);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(
        fake.fake
          .messages()
          .map((m) => m.to)
          .sort(),
      ).toEqual(["+2348090000011", "+2348090000012"]);
      // Every data node guards its writes, as operations.md asks, so start-up did not warn.
      expect(logLines.join("")).not.toContain("redis_failover_may_lose_writes");
    } finally {
      await running.close();
      await fake.fake.close();
    }
  }, 75_000);
});
