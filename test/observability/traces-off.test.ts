import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { trace } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import Database from "better-sqlite3";
import { Redis } from "ioredis";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { startEmbedded, startIngress } from "../../src/app/index.js";
import { loadConfig } from "../../src/config/index.js";
import { signatureFor } from "../../src/ingress/index.js";
import { createLogger } from "../../src/observability/index.js";
import { embeddedEnvConfig } from "../support/embedded-config.js";
import { eventually } from "../support/eventually.js";
import { startFake } from "../support/fake-graph.js";
import { APP_SECRET } from "../support/ingress-harness.js";
import { deleteKeys, skipWithoutRedis, TEST_REDIS_URL, uniquePrefix } from "../support/redis.js";
import { captureTraces, only } from "../support/trace-capture.js";
import { textWebhook } from "../support/webhook-builder.js";

const logger = createLogger({ level: "silent" });
const CUSTOMER = "2348031234567";
const CONVERSATION = `default:106540352242922:${CUSTOMER}`;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function post(url: string, wamid: string): Promise<Response> {
  const body = textWebhook([
    [{ wamid, from: CUSTOMER, timestamp: Math.floor(Date.now() / 1000), text: "how far" }],
  ]);
  return fetch(`${url}/webhook`, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", "x-hub-signature-256": signatureFor(body, APP_SECRET) },
  });
}

describe("traces off (no OTLP endpoint: the default)", () => {
  it("makes no span, even for a tracer provider registered globally, and stores no trace field", async () => {
    // Were any step to reach for the global OpenTelemetry API, this provider would see its spans.
    const global = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(
      new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(global)] }),
    );
    cleanups.push(async () => trace.disable());
    const fake = await startFake();
    cleanups.push(() => fake.fake.close());
    const dataDir = mkdtempSync(join(tmpdir(), "ss-traces-off-"));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const config = embeddedEnvConfig(fake.url, dataDir);
    expect(config.tracing).toBeUndefined();
    const running = await startEmbedded(config, { logger, graceMs: 500 });
    cleanups.push(() => running.close());

    expect((await post(running.url, "wamid.off.1")).status).toBe(200);
    await eventually(() => fake.fake.messages({ to: `+${CUSTOMER}` }).length === 1, 10_000, 25);
    const [sent] = fake.fake.messages({ to: `+${CUSTOMER}` });
    const status = await fake.fake.postStatus({
      webhookUrl: `${running.url}/webhook`,
      appSecret: APP_SECRET,
      wamid: (sent as { id: string }).id,
      status: "delivered",
    });
    expect(status.status).toBe(200);

    const db = new Database(running.databasePath, { readonly: true, fileMustExist: true });
    cleanups.push(async () => {
      db.close();
    });
    await eventually(
      () =>
        (db.prepare("SELECT status FROM delivery_messages").get() as { status?: string } | undefined)
          ?.status === "delivered",
      10_000,
      25,
    );
    const jobs = db.prepare("SELECT queue, data FROM queue_jobs").all() as { queue: string; data: string }[];
    // The events job of the status is gone once done; the send's stays with its data.
    expect(jobs.map((job) => job.queue)).toContain("outbound");
    for (const job of jobs) expect(JSON.parse(job.data)).not.toHaveProperty("traceparent");
    expect(db.prepare("SELECT traceparent FROM delivery_messages").all()).toEqual([{ traceparent: null }]);
    expect(global.getFinishedSpans()).toEqual([]);
  });
});

describe.skipIf(skipWithoutRedis)("the recorded message on Redis", () => {
  const redis = new Redis(TEST_REDIS_URL);
  afterAll(() => redis.disconnect());

  async function recordedWith(tracing: ReturnType<typeof captureTraces> | undefined) {
    const prefix = uniquePrefix("traces-record");
    cleanups.push(async () => deleteKeys(redis, prefix));
    const config = loadConfig({
      env: {
        WHATSAPP_APP_SECRET: APP_SECRET,
        WHATSAPP_VERIFY_TOKEN: "v",
        REDIS_URL: TEST_REDIS_URL,
        REDIS_PREFIX: prefix,
        REDIS_ALLOW_EVICTION: "on",
        HOST: "127.0.0.1",
        PORT: "0",
        ADMIN_PORT: "0",
      },
      cwd: process.cwd(),
    });
    // An ingress alone: the message waits in its inbox, as a worker would find it.
    const ingress = await startIngress(config, {
      logger,
      ...(tracing === undefined ? {} : { tracing: tracing.tracing }),
    });
    cleanups.push(() => ingress.close());
    expect((await post(ingress.url, "wamid.record.1")).status).toBe(200);
    const json = await redis.hget(`${prefix}:msg:${CONVERSATION}`, "wamid.record.1");
    expect(json).not.toBeNull();
    return json as string;
  }

  it("holds no trace field with tracing off, and the webhook span's traceparent with it on", async () => {
    const off = await recordedWith(undefined);
    expect(off).not.toContain("traceparent");

    const traces = captureTraces("ingress");
    cleanups.push(() => traces.close());
    const on = JSON.parse(await recordedWith(traces)) as { traceparent?: string };
    const webhook = only(await traces.until("POST /webhook"), "POST /webhook");
    const { traceId, spanId } = webhook.spanContext();
    expect(on.traceparent).toBe(`00-${traceId}-${spanId}-01`);
    // That field is all tracing adds to the record.
    expect(Object.keys(on).filter((key) => key !== "traceparent")).toEqual(Object.keys(JSON.parse(off)));
  });
});
