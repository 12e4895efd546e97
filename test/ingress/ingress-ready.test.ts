import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { startIngress } from "../../src/app/index.js";
import { loadConfig } from "../../src/config/index.js";
import { signatureFor } from "../../src/ingress/index.js";
import { createLogger } from "../../src/observability/index.js";
import { createIngressHarness } from "../support/ingress-harness.js";
import { deleteKeys, skipWithoutRedis, TEST_REDIS_URL, uniquePrefix } from "../support/redis.js";
import { TcpProxy } from "../support/tcp-proxy.js";
import { textWebhook } from "../support/webhook-builder.js";

const target = new URL(TEST_REDIS_URL);
const redisAddress = { host: target.hostname, port: Number(target.port || 6379) };

function configFor(redisUrl: string, prefix: string) {
  return loadConfig({
    env: {
      WHATSAPP_APP_SECRET: "s",
      WHATSAPP_VERIFY_TOKEN: "v",
      REDIS_URL: redisUrl,
      REDIS_PREFIX: prefix,
      HOST: "127.0.0.1",
      PORT: "0",
      ADMIN_PORT: "0",
    },
    cwd: process.cwd(),
  });
}

function post(url: string, wamid: string): Promise<Response> {
  const body = textWebhook([[{ wamid, from: "2348090000002", timestamp: 1795174000, text: "hi" }]]);
  return fetch(`${url}/webhook`, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", "x-hub-signature-256": signatureFor(body, "s") },
  });
}

describe.skipIf(skipWithoutRedis)("the ingress and a queue backend that is not ready yet", () => {
  const prefixes: string[] = [];
  const admin = new Redis(TEST_REDIS_URL);
  afterAll(async () => {
    for (const prefix of prefixes) await deleteKeys(admin, prefix);
    admin.disconnect();
  });

  it("answers the very first webhook after start with 200, not 503", async () => {
    const prefix = uniquePrefix("first");
    prefixes.push(prefix);
    const running = await startIngress(configFor(TEST_REDIS_URL, prefix), {
      logger: createLogger({ level: "silent" }),
    });
    try {
      expect((await post(running.url, "wamid.first.1")).status).toBe(200);
    } finally {
      await running.close();
    }
  });

  it("does not listen while Redis is unreachable, and serves once it answers", async () => {
    const prefix = uniquePrefix("waits");
    prefixes.push(prefix);
    const proxy = await TcpProxy.create(redisAddress);
    let started = false;
    const starting = startIngress(configFor(proxy.url, prefix), {
      logger: createLogger({ level: "silent" }),
    }).then((running) => {
      started = true;
      return running;
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(started).toBe(false);
      await proxy.start();
      const running = await starting;
      try {
        expect((await post(running.url, "wamid.waits.1")).status).toBe(200);
        expect((await fetch(`${running.url}/readyz`)).status).toBe(200);
      } finally {
        await running.close();
      }
    } finally {
      await proxy.stop();
    }
  });

  it("holds a webhook through a short reconnect instead of answering 503", async () => {
    const proxy = await TcpProxy.create(redisAddress);
    await proxy.start();
    const h = await createIngressHarness({ label: "reconnect", redisUrl: proxy.url, enqueueTimeoutMs: 1500 });
    prefixes.push(h.prefix);
    try {
      await proxy.stop();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(h.redis.status).not.toBe("ready");
      const body = textWebhook([
        [{ wamid: "wamid.reconnect.1", from: "2348090000003", timestamp: 1795174000, text: "hi" }],
      ]);
      const answer = h.post(body);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await proxy.start();
      expect((await answer).statusCode).toBe(200);
      // Past the deadline it is still a 503 (Meta retries): nothing waits for ever.
      await proxy.stop();
      await new Promise((resolve) => setTimeout(resolve, 200));
      const late = await h.post(
        textWebhook([
          [{ wamid: "wamid.reconnect.2", from: "2348090000003", timestamp: 1795174001, text: "hi" }],
        ]),
      );
      expect(late.statusCode).toBe(503);
    } finally {
      await h.close();
      await proxy.stop();
    }
  });
});
