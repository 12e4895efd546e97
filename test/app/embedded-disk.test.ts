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

  /**
   * Fills the disk after `before` messages were answered and `settleMs` went by, posts 300 more while
   * it is full, frees it, posts one more: answers the webhooks' statuses and the replies sent.
   */
  const fillWhileRunning = async (f: RunningFake, dir: string, before: number, settleMs: number) => {
    const running = await startAll(configOn(dir, f.url), { logger: silent });
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
      for (let n = 0; n < before; n += 1) await post(1000 + n);
      expect([...statuses.values()].every((status) => status === 200)).toBe(true);
      await eventually(() => f.fake.messages().length >= before, 20_000, 50);
      await new Promise((resolve) => setTimeout(resolve, settleMs));
      disk?.fill();
      for (let n = 1; n <= 300; n += 1) await post(n);
      expect((await fetch(`${running.url}/readyz`)).status).toBe(503);
      disk?.free();
      await post(301);
      expect(statuses.get(301)).toBe(200);
      const acknowledged = [...statuses].filter(([, status]) => status === 200).map(([n]) => n);
      await eventually(() => f.fake.messages().length >= acknowledged.length, 20_000, 50);
      // A moment more: a reply sent twice would show now.
      await new Promise((resolve) => setTimeout(resolve, 500));
      return { statuses, acknowledged, sent: f.fake.messages().map((m) => Number(String(m.to).slice(-6))) };
    } finally {
      disk?.free();
      await running.close();
    }
  };

  it("answers 503 while the disk is full, never 200 for a message it did not store; all acknowledged ones are answered once space is back", async () => {
    disk = mountSmallDisk(2048) as SmallDisk;
    fake = await startFake();
    const { statuses, acknowledged, sent } = await fillWhileRunning(fake, disk.dir, 1, 0);
    const refused = [...statuses.values()].filter((status) => status === 503).length;
    expect(refused).toBeGreaterThan(0);
    expect([...statuses.values()].every((status) => status === 200 || status === 503)).toBe(true);
    expect([...sent].sort()).toEqual([...acknowledged].sort());
    process.stdout.write(
      `full disk: ${acknowledged.length} acknowledged (all answered after space came back), ${refused} refused with 503\n`,
    );
  }, 60_000);

  it("answers every acknowledged message once when writes fail and succeed in turn (the full disk's WAL still has room)", async () => {
    disk = mountSmallDisk(2048) as SmallDisk;
    fake = await startFake();
    // Answered and left a second: the checkpointer has reset the WAL, whose pages the next writes reuse
    // without new space, so some commits go through on the full disk and others fail.
    const { statuses, acknowledged, sent } = await fillWhileRunning(fake, disk.dir, 5, 1000);
    const refused = [...statuses.values()].filter((status) => status === 503).length;
    expect(refused).toBeGreaterThan(0);
    expect(acknowledged.filter((n) => n >= 1 && n <= 300).length).toBeGreaterThan(0);
    expect([...sent].sort()).toEqual([...acknowledged].sort());
  }, 60_000);
});
