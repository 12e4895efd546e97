import { afterEach, describe, expect, it } from "vitest";
import { eventually } from "../support/eventually.js";
import { createIngressHarness, type IngressHarness } from "../support/ingress-harness.js";
import { skipWithoutRedis, TEST_REDIS_URL, turnsOf } from "../support/redis.js";
import { TcpProxy } from "../support/tcp-proxy.js";
import { textWebhook } from "../support/webhook-builder.js";

const redisTarget = (() => {
  const url = new URL(TEST_REDIS_URL);
  return { host: url.hostname, port: Number(url.port || 6379) };
})();

describe.skipIf(skipWithoutRedis)("webhook ingress when Redis fails", () => {
  let h: IngressHarness | undefined;
  let proxy: TcpProxy | undefined;
  afterEach(async () => {
    await proxy?.stop();
    await h?.close();
    h = undefined;
    proxy = undefined;
  });

  const body = (n: string) =>
    textWebhook([
      [
        {
          wamid: `wamid.fail.${n}`,
          from: "2348050000001",
          timestamp: 1795171000,
          text: "my money never drop",
        },
      ],
    ]);
  const conversation = "default:106540352242922:2348050000001";

  async function expectEnqueuedOnce(harness: IngressHarness, wamid: string) {
    const inbox = await harness.queues.inbox.read(conversation);
    expect(inbox.map((m) => m.wamid)).toEqual([wamid]);
    expect((await turnsOf(harness.admin, harness.prefix)).filter((key) => key === conversation)).toHaveLength(
      1,
    );
  }

  async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
    const started = performance.now();
    const result = await run();
    return [result, performance.now() - started];
  }

  it("answers 503 within 2 s while Redis is unreachable, then accepts the retry exactly once", async () => {
    proxy = await TcpProxy.create(redisTarget); // port reserved, nothing listening
    h = await createIngressHarness({ label: "down", redisUrl: proxy.url, waitForReady: false });
    const harness = h;
    const payload = body("down");
    const [response, ms] = await timed(() => harness.post(payload));
    expect(response.statusCode).toBe(503);
    expect(response.json().error).toBe("SS_INGRESS_UNAVAILABLE");
    expect(ms).toBeLessThan(2000);
    expect((await h.app.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(503);
    expect(await h.keys()).toEqual([]);

    await proxy.start();
    await eventually(
      async () => (await harness.app.inject({ method: "GET", url: "/readyz" })).statusCode === 200,
    );
    expect((await h.post(payload)).statusCode).toBe(200);
    expect((await h.post(payload)).statusCode).toBe(200);
    await expectEnqueuedOnce(h, "wamid.fail.down");
  });

  it("answers 503 within 2 s when Redis stops answering mid-request, leaving nothing written", async () => {
    proxy = await TcpProxy.create(redisTarget);
    await proxy.start();
    h = await createIngressHarness({ label: "hang", redisUrl: proxy.url });
    const harness = h;
    await h.post(body("warmup")); // scripts loaded, queues initialised
    await h.queues.inbox.complete(conversation, ["wamid.fail.warmup"]);
    const before = await h.keys();

    proxy.mode = "blackhole";
    const payload = body("hang");
    const [response, ms] = await timed(() => harness.post(payload));
    expect(response.statusCode).toBe(503);
    expect(ms).toBeLessThan(2000);
    expect(await h.keys()).toEqual(before);

    proxy.dropConnections();
    proxy.mode = "forward";
    await eventually(
      async () => (await harness.app.inject({ method: "GET", url: "/readyz" })).statusCode === 200,
    );
    expect((await h.post(payload)).statusCode).toBe(200);
    await expectEnqueuedOnce(h, "wamid.fail.hang");
  });

  it("reconnects by itself when Redis keeps not answering on a connection that looks alive", async () => {
    proxy = await TcpProxy.create(redisTarget);
    await proxy.start();
    h = await createIngressHarness({ label: "silent", redisUrl: proxy.url, enqueueTimeoutMs: 200 });
    const harness = h;
    let reconnects = 0;
    harness.redis.on("reconnecting", () => {
      reconnects += 1;
    });
    await harness.post(body("warmup"));
    await harness.queues.inbox.complete(conversation, ["wamid.fail.warmup"]);
    proxy.mode = "blackhole";
    const payload = body("silent");
    for (let attempt = 0; attempt < 3; attempt++) expect((await harness.post(payload)).statusCode).toBe(503);
    proxy.mode = "forward"; // the old socket never learns: only a new connection recovers
    await eventually(() => reconnects > 0);
    await eventually(
      async () => (await harness.app.inject({ method: "GET", url: "/readyz" })).statusCode === 200,
      8000,
    );
    expect((await harness.post(payload)).statusCode).toBe(200);
    await expectEnqueuedOnce(harness, "wamid.fail.silent");
  });

  it("completes the work on redelivery when the connection drops after Redis recorded the message", async () => {
    proxy = await TcpProxy.create(redisTarget);
    await proxy.start();
    h = await createIngressHarness({ label: "cut", redisUrl: proxy.url });
    const harness = h;
    await h.post(body("warmup"));
    await h.queues.inbox.complete(conversation, ["wamid.fail.warmup"]);

    proxy.mode = "cut-after-forward";
    const payload = body("cut");
    const [response, ms] = await timed(() => harness.post(payload));
    expect(response.statusCode).toBe(503);
    expect(ms).toBeLessThan(2000);
    // Redis ran the record step but the answer never came back: recorded, not acknowledged.
    expect(await h.admin.get(`${h.prefix}:wamid:default:wamid.fail.cut`)).toBe("p");
    // A turn job created in between and already run (the worker drained the inbox but crashed
    // before completing) must not strand the message: take it out of the inbox by hand.
    await h.admin.del(
      `${h.prefix}:inbox:${conversation}`,
      `${h.prefix}:msg:${conversation}`,
      `${h.prefix}:ready`,
    );

    proxy.mode = "forward";
    proxy.dropConnections();
    await eventually(
      async () => (await harness.app.inject({ method: "GET", url: "/readyz" })).statusCode === 200,
    );
    expect((await h.post(payload)).statusCode).toBe(200);
    expect((await h.post(payload)).statusCode).toBe(200);
    await expectEnqueuedOnce(h, "wamid.fail.cut");
    const metrics = await h.metrics.registry.getSingleMetricAsString("ss_ingress_requests_total");
    expect(metrics).toMatch(/outcome="unavailable"} 1/);
  });
});
