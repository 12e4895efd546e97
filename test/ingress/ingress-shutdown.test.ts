import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { startIngress } from "../../src/app/index.js";
import { loadConfig } from "../../src/config/index.js";
import { signatureFor } from "../../src/ingress/signature.js";
import { createLogger } from "../../src/observability/index.js";
import { eventually } from "../support/eventually.js";
import { deleteKeys, skipWithoutRedis, TEST_REDIS_URL, uniquePrefix } from "../support/redis.js";
import { TcpProxy } from "../support/tcp-proxy.js";
import { textWebhook } from "../support/webhook-builder.js";

describe.skipIf(skipWithoutRedis)("ingress shutdown", () => {
  const prefix = uniquePrefix("shutdown");
  const admin = new Redis(TEST_REDIS_URL);
  afterAll(async () => {
    await deleteKeys(admin, prefix);
    admin.disconnect();
  });

  it("finishes a request in flight (telling its client to close), then refuses new connections", async () => {
    const target = new URL(TEST_REDIS_URL);
    const proxy = await TcpProxy.create({ host: target.hostname, port: Number(target.port || 6379) });
    await proxy.start();
    const config = loadConfig({
      env: {
        WHATSAPP_APP_SECRET: "s",
        WHATSAPP_VERIFY_TOKEN: "v",
        REDIS_URL: proxy.url,
        REDIS_PREFIX: prefix,
        HOST: "127.0.0.1",
        PORT: "0",
        ADMIN_PORT: "0",
      },
      cwd: process.cwd(),
    });
    const running = await startIngress(config, { logger: createLogger({ level: "silent" }) });
    try {
      await eventually(async () => (await fetch(`${running.url}/readyz`)).status === 200);
      proxy.mode = "delay"; // Redis now answers 300 ms late: the next webhook is in flight when we stop
      const body = textWebhook([
        [{ wamid: "wamid.shutdown.1", from: "2348090000001", timestamp: 1795174000, text: "hi" }],
      ]);
      const inFlight = fetch(`${running.url}/webhook`, {
        method: "POST",
        body,
        headers: { "content-type": "application/json", "x-hub-signature-256": signatureFor(body, "s") },
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      const closing = running.close();
      const answered = await inFlight;
      expect(answered.headers.get("connection")).toBe("close");
      expect(answered.status).toBe(200);
      await closing;
      await expect(fetch(`${running.url}/healthz`)).rejects.toThrow();
      expect(await admin.zcard(`${prefix}:inbox:default:106540352242922:2348090000001`)).toBe(1);
    } finally {
      await proxy.stop();
    }
  });
});
