import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { type RunningEmbedded, startEmbedded } from "../../src/app/index.js";
import { createLogger } from "../../src/observability/index.js";
import { embeddedEnvConfig } from "../support/embedded-config.js";

const TOKEN = "admin-token-0123456789abcdef";
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The embedded gateway on loopback, its log lines kept. */
async function gateway(
  extra: Record<string, string> = {},
): Promise<{ running: RunningEmbedded; log: string[] }> {
  const dataDir = mkdtempSync(join(tmpdir(), "ss-admin-"));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const log: string[] = [];
  const stream = new PassThrough();
  stream.on("data", (chunk: Buffer) => log.push(chunk.toString("utf8")));
  const running = await startEmbedded(embeddedEnvConfig("http://127.0.0.1:9", dataDir, extra), {
    logger: createLogger({ level: "info", destination: stream }),
    graceMs: 200,
  });
  cleanups.push(() => running.close());
  return { running, log };
}

const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers });

describe("the public port and the admin listener", () => {
  it("serve the webhook, /healthz and a bare /readyz publicly, and /metrics and the detailed /readyz apart", async () => {
    const { running, log } = await gateway();
    expect(new URL(running.adminUrl).hostname).toBe("127.0.0.1");
    expect(running.adminUrl).not.toBe(running.url);

    expect((await get(`${running.url}/metrics`)).status).toBe(404);
    expect((await get(`${running.url}/healthz`)).status).toBe(200);
    const ready = await get(`${running.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready" });

    const metrics = await get(`${running.adminUrl}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await metrics.text()).toContain("ss_ingress_requests_total");
    expect(await (await get(`${running.adminUrl}/readyz`)).json()).toEqual({
      status: "ready",
      backend: expect.stringMatching(/^sqlite /),
    });
    expect((await get(`${running.adminUrl}/webhook`)).status).toBe(404);
    expect(log.join("")).toContain(`metrics on ${running.adminUrl}/metrics`);
  });

  it("asks for the bearer token when ADMIN_TOKEN is set, and never logs it", async () => {
    const { running, log } = await gateway({ ADMIN_TOKEN: TOKEN });
    const attempts: Record<string, string>[] = [
      {},
      { authorization: "Bearer wrong-token-0123456789" },
      { authorization: TOKEN },
    ];
    for (const headers of attempts) {
      const refused = await get(`${running.adminUrl}/metrics`, headers);
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer /);
      expect(await refused.json()).toMatchObject({ error: "SS_ADMIN_UNAUTHORIZED" });
    }
    expect((await get(`${running.adminUrl}/readyz`)).status).toBe(401);
    expect((await get(`${running.adminUrl}/metrics`, { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    expect((await get(`${running.adminUrl}/readyz`, { authorization: `bearer ${TOKEN}` })).status).toBe(200);
    // The public port's health needs no token: load balancers ask it.
    expect((await get(`${running.url}/readyz`)).status).toBe(200);
    expect(log.join("")).toContain("(bearer token)");
    expect(log.join("")).not.toContain(TOKEN);
  });

  it("fails the start, before the webhook listens, when the admin port is taken", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise<void>((resolve) => blocker.close(() => resolve())));
    const { port } = blocker.address() as { port: number };
    await expect(gateway({ ADMIN_PORT: String(port) })).rejects.toThrow(/EADDRINUSE|address already in use/);
  });
});
