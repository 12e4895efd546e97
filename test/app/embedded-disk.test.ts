import { afterEach, describe, expect, it } from "vitest";
import { startAll } from "../../src/app/index.js";
import { createLogger } from "../../src/observability/index.js";
import { SqliteUnavailableError } from "../../src/sqlite/index.js";
import { embeddedEnvConfig, postSignedWebhook } from "../support/embedded-config.js";
import { eventually } from "../support/eventually.js";
import { type RunningFake, startFake } from "../support/fake-graph.js";
import { canMount, mountSmallDisk, type SmallDisk } from "../support/small-disk.js";
import { textWebhook } from "../support/webhook-builder.js";

const silent = createLogger({ level: "silent" });

const configOn = (dataDir: string, graphUrl: string) => embeddedEnvConfig(graphUrl, dataDir);

describe.skipIf(!canMount)("embedded mode on a read-only or full disk (tmpfs)", () => {
  let disk: SmallDisk | undefined;
  let fake: RunningFake | undefined;
  afterEach(async () => {
    await fake?.fake.close();
    fake = undefined;
    disk?.unmount();
    disk = undefined;
  });

  it("refuses to start on a read-only disk, saying what to change", async () => {
    disk = mountSmallDisk(1024) as SmallDisk;
    disk.remountReadOnly();
    const started = startAll(configOn(disk.dir, "http://127.0.0.1:9"), { logger: silent });
    await expect(started).rejects.toThrow(SqliteUnavailableError);
    await expect(started).rejects.toThrow(/not a writable directory.*EROFS/);
  });

  it("refuses to start on a full disk", async () => {
    disk = mountSmallDisk(256) as SmallDisk;
    disk.fill();
    await expect(startAll(configOn(disk.dir, "http://127.0.0.1:9"), { logger: silent })).rejects.toThrow(
      SqliteUnavailableError,
    );
  });

  it("answers 503 while the disk is full, never 200 for a message it did not store; all acknowledged ones are answered once space is back", async () => {
    disk = mountSmallDisk(2048) as SmallDisk;
    fake = await startFake();
    const f = fake;
    const running = await startAll(configOn(disk.dir, f.url), { logger: silent });
    const statuses = new Map<number, number>();
    const post = async (n: number) => {
      const body = textWebhook([
        [
          {
            wamid: `wamid.full.${n}.${"x".repeat(400)}`,
            from: `2348030${String(n).padStart(6, "0")}`,
            timestamp: Math.floor(Date.now() / 1000),
            text: `hi ${"abeg ".repeat(150)}`,
          },
        ],
      ]);
      const response = await postSignedWebhook(running.url, body);
      statuses.set(n, response.status);
    };
    try {
      await post(0);
      expect(statuses.get(0)).toBe(200);
      disk.fill();
      for (let n = 1; n <= 300; n += 1) await post(n);
      const refused = [...statuses.values()].filter((status) => status === 503).length;
      expect(refused).toBeGreaterThan(0);
      expect([...statuses.values()].every((status) => status === 200 || status === 503)).toBe(true);
      expect((await fetch(`${running.url}/readyz`)).status).toBe(503);

      disk.free();
      await post(301);
      expect(statuses.get(301)).toBe(200);
      const acknowledged = [...statuses].filter(([, status]) => status === 200).map(([n]) => n);
      await eventually(() => f.fake.messages().length >= acknowledged.length, 20_000, 50);
      const answered = new Set(f.fake.messages().map((m) => Number(String(m.to).slice(-6))));
      for (const n of acknowledged) expect(answered.has(n)).toBe(true);
      expect(f.fake.messages()).toHaveLength(acknowledged.length);
      process.stdout.write(
        `full disk: ${acknowledged.length} acknowledged (all answered after space came back), ${refused} refused with 503\n`,
      );
    } finally {
      disk.free();
      await running.close();
    }
  }, 60_000);
});
