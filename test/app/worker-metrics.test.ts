import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { type RunningWorker, startWorker } from "../../src/app/index.js";
import { loadConfig } from "../../src/config/index.js";
import { createLogger } from "../../src/observability/index.js";
import { sampleJobQueues } from "../../src/queue/redis/index.js";
import { eventually } from "../support/eventually.js";
import { GRAPH_TOKEN, PHONE_NUMBER_ID, type RunningFake, startFake } from "../support/fake-graph.js";
import {
  APP_SECRET,
  createIngressHarness,
  type IngressHarness,
  VERIFY_TOKEN,
} from "../support/ingress-harness.js";
import { deleteKeys, skipWithoutRedis, TEST_REDIS_URL, uniquePrefix } from "../support/redis.js";
import { textWebhook } from "../support/webhook-builder.js";

const CUSTOMER = "2348012345678";

/** The value of one sample line of a Prometheus text exposition (`name{labels} value`). */
function sample(text: string, name: string, labels = ""): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${name}${labels === "" ? " " : `{${labels}}`}`));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(" ") + 1));
}

describe.skipIf(skipWithoutRedis)("worker /metrics", () => {
  let ingress: IngressHarness | undefined;
  let fake: RunningFake | undefined;
  let worker: RunningWorker | undefined;
  afterEach(async () => {
    await worker?.close();
    await fake?.fake.close();
    await ingress?.close();
    worker = undefined;
    fake = undefined;
    ingress = undefined;
  });

  it('shows turn, end-to-end and queue metrics with sensible values after a "hi"', async () => {
    ingress = await createIngressHarness({ label: "worker-metrics" });
    fake = await startFake();
    const config = loadConfig({
      env: {
        WHATSAPP_APP_SECRET: APP_SECRET,
        WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
        WHATSAPP_TOKEN: GRAPH_TOKEN,
        WHATSAPP_PHONE_NUMBER_ID: PHONE_NUMBER_ID,
        GRAPH_API_BASE_URL: fake.url,
        REDIS_URL: TEST_REDIS_URL,
        REDIS_PREFIX: ingress.prefix,
        COALESCE_WINDOW_MS: "0",
        COALESCE_MAX_MS: "0",
        HOST: "127.0.0.1",
        PORT: "0",
        ADMIN_PORT: "0",
      },
      cwd: process.cwd(),
    });
    worker = await startWorker(config, {
      logger: createLogger({ level: "silent" }),
    });
    const started = Date.now();
    const response = await ingress.post(
      textWebhook([
        [{ wamid: "wamid.metrics.1", from: CUSTOMER, timestamp: Math.floor(started / 1000), text: "hi" }],
      ]),
    );
    expect(response.statusCode).toBe(200);
    await eventually(() => fake?.fake.messages().length === 1, 5000);
    const elapsed = (Date.now() - started) / 1000;

    const text = await (await fetch(`${worker.adminUrl}/metrics`)).text();
    const turnCount = sample(text, "ss_turn_latency_seconds_count", 'tenant="default"');
    const turnSum = sample(text, "ss_turn_latency_seconds_sum", 'tenant="default"') as number;
    const e2eCount = sample(text, "ss_end_to_end_seconds_count", 'tenant="default"');
    const e2eSum = sample(text, "ss_end_to_end_seconds_sum", 'tenant="default"') as number;
    process.stdout.write(`"hi": turn latency ${turnSum.toFixed(3)} s, end to end ${e2eSum.toFixed(3)} s\n`);
    expect(turnCount).toBe(1);
    expect(e2eCount).toBe(1);
    expect(turnSum).toBeGreaterThan(0);
    expect(e2eSum).toBeGreaterThanOrEqual(turnSum);
    // The worker observes end to end when the send's answer reaches it, a little after the fake recorded it.
    expect(e2eSum).toBeLessThanOrEqual(elapsed + 0.5);
    for (const queue of ["turns", "outbound", "events"]) {
      expect(sample(text, "ss_queue_depth", `queue="${queue}",state="waiting"`), queue).toBe(0);
      expect(sample(text, "ss_queue_depth", `queue="${queue}",state="failed"`), queue).toBe(0);
      expect(sample(text, "ss_queue_oldest_waiting_seconds", `queue="${queue}"`), queue).toBe(0);
    }
  }, 15_000);

  it("samples the oldest waiting job of a queue, not the newest", async () => {
    const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    const prefix = uniquePrefix("queue-sample");
    const queue = new Queue("outbound", { connection: redis, prefix });
    try {
      await queue.add("send", {}, { timestamp: Date.now() - 5000 });
      await queue.add("send", {}, { timestamp: Date.now() - 1000 });
      await queue.add("send", {}, { delay: 60_000 });
      const [depth] = await sampleJobQueues([queue]);
      expect(depth?.queue).toBe("outbound");
      expect(depth?.counts).toMatchObject({ waiting: 2, delayed: 1, active: 0 });
      expect(Date.now() - (depth?.oldestWaitingAt ?? 0)).toBeGreaterThanOrEqual(5000);
    } finally {
      await queue.close();
      await deleteKeys(redis, prefix);
      redis.disconnect();
    }
  });
});
