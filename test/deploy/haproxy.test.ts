import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signatureFor } from "../../src/ingress/signature.js";
import { deleteKeys, skipWithoutRedis, TEST_REDIS_URL, uniquePrefix } from "../support/redis.js";
import { textWebhook } from "../support/webhook-builder.js";

// deploy/compose/haproxy.cfg run by Debian's haproxy in front of two real `sharpsharp ingress` processes on
// Redis: the same file, with the Compose names (ingress-1:3000, …) and the bind replaced by loopback ports.
const root = fileURLToPath(new URL("../../", import.meta.url));
const bin = join(root, "bin/sharpsharp.js");
const APP_SECRET = "haproxy-test-secret";
const haproxyFound = spawnSync("haproxy", ["-v"]).error === undefined;
const missing = !haproxyFound
  ? "haproxy is not installed (apt-get install haproxy)"
  : skipWithoutRedis
    ? "no Redis on TEST_REDIS_URL"
    : undefined;
if (missing !== undefined && process.env.CI !== undefined && !haproxyFound)
  throw new Error(`CI is set but ${missing}: see .ci/run`);

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function spawnLogged(command: string, args: string[], env: Record<string, string>) {
  let output = "";
  const child = spawn(command, args, {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk) => {
    output += String(chunk);
  });
  child.stderr?.on("data", (chunk) => {
    output += String(chunk);
  });
  return { child, output: () => output };
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  await once(child, "exit");
}

describe.skipIf(missing !== undefined)("haproxy.cfg in front of two real ingresses", () => {
  const prefix = uniquePrefix("haproxy");
  const redis = new Redis(TEST_REDIS_URL);
  const ingresses: { child: ChildProcess; output: () => string; port: number }[] = [];
  let proxy: { child: ChildProcess; output: () => string } | undefined;
  let proxyUrl = "";
  let dir = "";
  let sent = 0;

  /** A signed webhook for a new message, through the proxy: the status it answers. */
  async function postThroughProxy(): Promise<number> {
    sent += 1;
    const body = textWebhook([
      [
        {
          wamid: `wamid.haproxy.${sent}`,
          from: "2348060000001",
          timestamp: 1795172000 + sent,
          text: "How far",
        },
      ],
    ]);
    const response = await fetch(`${proxyUrl}/webhook`, {
      method: "POST",
      body,
      headers: { "content-type": "application/json", "x-hub-signature-256": signatureFor(body, APP_SECRET) },
    });
    return response.status;
  }

  const proxyHealth = async () => (await fetch(`${proxyUrl}/proxy-health`)).status;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "sharpsharp-haproxy-"));
    let config = readFileSync(join(root, "deploy/compose/haproxy.cfg"), "utf8");
    for (const name of ["ingress-1", "ingress-2"]) {
      const port = await freePort();
      const ingress = spawnLogged(process.execPath, [bin, "ingress"], {
        WHATSAPP_APP_SECRET: APP_SECRET,
        WHATSAPP_VERIFY_TOKEN: "haproxy-verify",
        REDIS_URL: TEST_REDIS_URL,
        REDIS_PREFIX: prefix,
        HOST: "127.0.0.1",
        PORT: String(port),
        ADMIN_PORT: "0",
      });
      ingresses.push({ ...ingress, port });
      expect(config).toContain(`${name}:3000`);
      config = config.replace(`${name}:3000`, `127.0.0.1:${port}`);
    }
    const proxyPort = await freePort();
    config = config.replace(/^(\s*)bind :8080$/m, `$1bind 127.0.0.1:${proxyPort}`);
    proxyUrl = `http://127.0.0.1:${proxyPort}`;
    writeFileSync(join(dir, "haproxy.cfg"), config);
    for (const ingress of ingresses) {
      await eventually("the ingress", async () =>
        /listening on http/.test(ingress.output()) ? true : undefined,
      );
    }
    proxy = spawnLogged("haproxy", ["-db", "-f", join(dir, "haproxy.cfg")], {});
  }, 30_000);

  afterAll(async () => {
    await stop(proxy?.child);
    for (const ingress of ingresses) await stop(ingress.child);
    await deleteKeys(redis, prefix);
    redis.disconnect();
    rmSync(dir, { recursive: true, force: true });
  });

  it("forwards webhooks to the ingresses, and keeps answering 200 while one of them is gone", async () => {
    await eventually("the proxy to be healthy", async () =>
      (await proxyHealth()) === 200 ? true : undefined,
    );
    expect(await postThroughProxy()).toBe(200);

    await stop(ingresses[0]?.child);
    // At once: a webhook the proxy cannot hand to the stopped ingress goes to the other one.
    for (let index = 0; index < 6; index++) expect(await postThroughProxy()).toBe(200);
    expect(await redis.zcard(`${prefix}:inbox:default:106540352242922:2348060000001`)).toBe(sent);
    expect(await proxyHealth()).toBe(200);
  }, 30_000);

  it("says it is unhealthy (503 on /proxy-health) once no ingress answers /readyz", async () => {
    await stop(ingresses[1]?.child);
    await eventually("the proxy to see no ingress", async () =>
      (await proxyHealth()) === 503 ? true : undefined,
    );
    expect(await postThroughProxy()).toBe(503);
    expect(proxy?.output()).toMatch(/ingresses\/ingress-2 is DOWN/);
  }, 30_000);
});

it("the haproxy behaviour test ran, or says why not", (context) => {
  if (missing !== undefined) context.skip(missing);
  expect(missing).toBeUndefined();
});
