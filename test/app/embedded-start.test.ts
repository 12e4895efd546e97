import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { startAll, startIngress, startWorker } from "../../src/app/index.js";
import { createLogger } from "../../src/observability/index.js";
import { embeddedEnvConfig, postSignedWebhook } from "../support/embedded-config.js";
import { eventually } from "../support/eventually.js";
import { type RunningFake, startFake } from "../support/fake-graph.js";
import { textWebhook } from "../support/webhook-builder.js";

const silent = createLogger({ level: "silent" });
const dirs: string[] = [];
let fake: RunningFake | undefined;
afterEach(async () => {
  await fake?.fake.close();
  fake = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const embeddedConfig = embeddedEnvConfig;
const post = postSignedWebhook;

const hi = (wamid: string, from = "2348090000009") =>
  textWebhook([[{ wamid, from, timestamp: Math.floor(Date.now() / 1000), text: "hi" }]]);

describe("sharpsharp start without REDIS_URL (embedded on SQLite)", () => {
  it("answers a signed webhook once, drops its redelivery, and keeps the answer across a restart", async () => {
    fake = await startFake();
    const dataDir = mkdtempSync(join(tmpdir(), "ss-embedded-"));
    dirs.push(dataDir);
    const config = embeddedConfig(fake.url, dataDir);
    const running = await startAll(config, { logger: silent });
    try {
      expect((await fetch(`${running.url}/readyz`)).status).toBe(200);
      expect((await post(running.url, hi("wamid.emb.1"))).status).toBe(200);
      await eventually(() => fake?.fake.messages().length === 1, 5000);
      expect((await post(running.url, hi("wamid.emb.1"))).status).toBe(200);
      const metrics = await (await fetch(`${running.adminUrl}/metrics`)).text();
      expect(metrics).toMatch(/ss_turn_latency_seconds_count\{tenant="default"\} 1/);
      expect(metrics).toContain("ss_outbound_sends_total");
    } finally {
      await running.close();
    }
    const again = await startAll(config, { logger: silent });
    try {
      expect((await post(again.url, hi("wamid.emb.1"))).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(fake.fake.messages()).toHaveLength(1);
    } finally {
      await again.close();
    }
  }, 20_000);

  it("refuses a separate ingress or worker, naming sharpsharp start and REDIS_URL", async () => {
    const config = embeddedConfig("http://127.0.0.1:9", "./unused");
    await expect(startIngress(config, { logger: silent })).rejects.toThrow(/sharpsharp start.*REDIS_URL/s);
    await expect(startWorker(config, { logger: silent })).rejects.toThrow(/one process owns the SQLite file/);
  });

  it("sets a conversation's mode in the SQLite file with the CLI while the gateway is stopped", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "ss-embedded-"));
    dirs.push(dataDir);
    const cli = (...args: string[]) =>
      execFileSync(
        process.execPath,
        [fileURLToPath(new URL("../../bin/sharpsharp.js", import.meta.url)), ...args],
        {
          env: { PATH: process.env.PATH ?? "", SHARPSHARP_DATA_DIR: dataDir },
          encoding: "utf8",
        },
      );
    const key = "default:106540352242922:2348090000009";
    expect(cli("conversation", "mode", key, "human")).toBe(`${key}: human\n`);
    expect(cli("conversation", "mode", key)).toBe(`${key}: human\n`);
  });

  it("refuses a second process on the same data directory", async () => {
    fake = await startFake();
    const dataDir = mkdtempSync(join(tmpdir(), "ss-embedded-"));
    dirs.push(dataDir);
    const first = await startAll(embeddedConfig(fake.url, dataDir), { logger: silent });
    try {
      await expect(startAll(embeddedConfig(fake.url, dataDir), { logger: silent })).rejects.toThrow(
        /held by another sharpsharp process/,
      );
    } finally {
      await first.close();
    }
  });
});
