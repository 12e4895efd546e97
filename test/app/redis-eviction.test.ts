import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startIngress } from "../../src/app/index.js";
import { loadConfig } from "../../src/config/index.js";
import { createLogger } from "../../src/observability/index.js";
import { eventually } from "../support/eventually.js";

// A Redis of this test's own, so its eviction policy cannot touch the Redis the other suites share.
const haveRedisServer = spawnSync("redis-server", ["--version"]).status === 0;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe.skipIf(!haveRedisServer && process.env.CI !== "true")("a Redis that may evict keys", () => {
  let server: ChildProcess;
  let url: string;
  beforeAll(async () => {
    const port = await freePort();
    url = `redis://127.0.0.1:${port}`;
    server = spawn(
      "redis-server",
      [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no",
        "--maxmemory-policy",
        "allkeys-lru",
      ],
      { stdio: "ignore" },
    );
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => 100 });
    probe.on("error", () => {});
    await eventually(async () => (await probe.ping().catch(() => "")) === "PONG", 10_000);
    probe.disconnect();
  });
  afterAll(() => {
    server?.kill("SIGKILL");
  });

  const config = (extra: Record<string, string> = {}) =>
    loadConfig({
      env: {
        WHATSAPP_APP_SECRET: "s",
        WHATSAPP_VERIFY_TOKEN: "v",
        REDIS_URL: url,
        HOST: "127.0.0.1",
        PORT: "0",
        ADMIN_PORT: "0",
        ...extra,
      },
      cwd: process.cwd(),
    });

  it("refuses to start the ingress, naming the policy and the way out", async () => {
    await expect(startIngress(config(), { logger: createLogger({ level: "silent" }) })).rejects.toThrow(
      /maxmemory-policy is allkeys-lru.*noeviction.*REDIS_ALLOW_EVICTION=on/s,
    );
  });

  it("starts with REDIS_ALLOW_EVICTION=on, saying so at error level", async () => {
    const lines: string[] = [];
    const logger = createLogger({
      level: "info",
      destination: { write: (line: string) => lines.push(line) },
    });
    const running = await startIngress(config({ REDIS_ALLOW_EVICTION: "on" }), { logger });
    await running.close();
    expect(lines.join("")).toMatch(/"alert":"redis_may_evict"/);
  });
});
