import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { signatureFor } from "../../src/ingress/signature.js";
import { deleteKeys, skipWithoutRedis, TEST_REDIS_URL, uniquePrefix } from "../support/redis.js";
import { textWebhook } from "../support/webhook-builder.js";

const bin = fileURLToPath(new URL("../../bin/sharpsharp.js", import.meta.url));

function run(
  env: Record<string, string>,
  command = "ingress",
): { child: ChildProcess; output: () => string } {
  let output = "";
  const child = spawn(process.execPath, [bin, command], {
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

async function waitFor(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("sharpsharp ingress (the built CLI)", () => {
  it("refuses to start with no configuration, listing what is missing, exit code 2", async () => {
    const { child, output } = run({});
    const [code] = await once(child, "exit");
    expect(code).toBe(2);
    expect(output()).toMatch(/no tenant is configured: set WHATSAPP_APP_SECRET and WHATSAPP_VERIFY_TOKEN/);
  });

  it("lists every configuration problem of one run, one line each, with no stack trace and no secret", async () => {
    const { child, output } = run({
      WHATSAPP_APP_SECRET: "app-secret-never-printed",
      PORT: "eighty",
      LOG_LEVEL: "loud",
      ADMIN_HOST: "0.0.0.0",
      ADMIN_TOKEN: "short-secret",
      REDIS_URL: "http://not-redis",
    });
    const [code] = await once(child, "exit");
    expect(code).toBe(2);
    const text = output();
    for (const variable of ["WHATSAPP_VERIFY_TOKEN", "PORT", "LOG_LEVEL", "ADMIN_TOKEN", "REDIS_URL"]) {
      expect(text).toMatch(new RegExp(`^  - ${variable}: `, "m"));
    }
    expect(text).not.toMatch(/^\s+at /m);
    expect(text).not.toContain("app-secret-never-printed");
    expect(text).not.toContain("short-secret");
  });

  it("start with REDIS_URL or DATABASE_URL but no WhatsApp settings names what is missing, never a demo", async () => {
    const shared: Record<string, string>[] = [
      { REDIS_URL: "redis://127.0.0.1:1" },
      { DATABASE_URL: "postgres://127.0.0.1:1/x" },
    ];
    for (const env of shared) {
      const { child, output } = run({ ...env, SHARPSHARP_DATA_DIR: "/nonexistent/never-used" }, "start");
      const [code] = await once(child, "exit");
      expect(code).toBe(2);
      expect(output()).toMatch(/WHATSAPP_APP_SECRET/);
      expect(output()).not.toMatch(/demo/i);
    }
  });

  describe.skipIf(skipWithoutRedis)("with Redis", () => {
    const prefix = uniquePrefix("cli");
    const admin = new Redis(TEST_REDIS_URL);
    afterAll(async () => {
      await deleteKeys(admin, prefix);
      admin.disconnect();
    });

    it("says where it listens and which backend it uses, warns about a Redis without persistence, accepts a signed webhook and stops cleanly on SIGTERM", async () => {
      const { child, output } = run({
        WHATSAPP_APP_SECRET: "cli-secret",
        WHATSAPP_VERIFY_TOKEN: "cli-verify",
        REDIS_URL: TEST_REDIS_URL,
        REDIS_PREFIX: prefix,
        HOST: "127.0.0.1",
        PORT: "0",
        ADMIN_PORT: "0",
      });
      try {
        await waitFor(() => /sharpsharp ingress listening on (http:\/\/[\d.:]+)/.test(output()));
        const url = /sharpsharp ingress listening on (http:\/\/[\d.:]+)/.exec(output())?.[1] as string;
        expect(output()).toContain(`queue: redis redis://127.0.0.1:6379, prefix \\"${prefix}\\"`);
        await waitFor(() => output().includes("REDIS KEEPS NOTHING ON DISK"));
        const body = textWebhook([
          [{ wamid: "wamid.cli.1", from: "2348060000001", timestamp: 1795172000, text: "How far" }],
        ]);
        const response = await fetch(`${url}/webhook`, {
          method: "POST",
          body,
          headers: {
            "content-type": "application/json",
            "x-hub-signature-256": signatureFor(body, "cli-secret"),
          },
        });
        expect(response.status).toBe(200);
        expect(await admin.zcard(`${prefix}:inbox:default:106540352242922:2348060000001`)).toBe(1);
        expect(output()).not.toContain("cli-secret");
        expect(output()).not.toContain("How far");
      } finally {
        child.kill("SIGTERM");
      }
      const [code] = await once(child, "exit");
      expect(code).toBe(0);
      expect(output()).toMatch(/"msg":"stopped"/);
    });
  });
});
