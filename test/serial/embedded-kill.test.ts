import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { signatureFor } from "../../src/ingress/index.js";
import { DEFAULT_RESPONDER_SETTINGS } from "../../src/router/index.js";
import { type EmbeddedProcess, spawnEmbedded } from "../support/embedded-process.js";
import { eventually } from "../support/eventually.js";
import { type RunningFake, startFake } from "../support/fake-graph.js";
import { APP_SECRET } from "../support/ingress-harness.js";
import { textWebhook } from "../support/webhook-builder.js";

const CONVERSATIONS = 500;
/** The default greeting in any of its languages (which one is the language identifier's call). */
const greetings: readonly string[] = Object.values(DEFAULT_RESPONDER_SETTINGS.replies.greeting.text);
const customer = (n: number) => `2348020${String(n).padStart(6, "0")}`;

describe("embedded mode: kill -9 in the middle of 500 conversations", () => {
  let fake: RunningFake | undefined;
  let processes: EmbeddedProcess[] = [];
  let dataDir: string | undefined;
  afterEach(async () => {
    for (const p of processes) if (p.child.exitCode === null) p.child.kill("SIGKILL");
    processes = [];
    await fake?.fake.close();
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  });

  /** Posts customer n's message; true when the gateway acknowledged it (200). */
  const post = async (url: string, n: number): Promise<boolean> => {
    const body = textWebhook([
      [{ wamid: `wamid.kill.${n}`, from: customer(n), timestamp: Math.floor(Date.now() / 1000), text: "hi" }],
    ]);
    try {
      const response = await fetch(`${url}/webhook`, {
        method: "POST",
        body,
        headers: {
          "content-type": "application/json",
          "x-hub-signature-256": signatureFor(body, APP_SECRET),
        },
      });
      return response.status === 200;
    } catch {
      return false;
    }
  };

  it("restarts and answers every acknowledged message exactly once; redeliveries are dropped", async () => {
    fake = await startFake();
    const f = fake;
    // Slow sends, so the kill lands with turns and sends in flight.
    f.fake.setFaults({ latencyMs: 40 });
    dataDir = mkdtempSync(join(tmpdir(), "ss-kill-"));
    const first = spawnEmbedded({ dataDir, graphUrl: f.url });
    processes.push(first);
    const url = await first.ready();
    const acked = new Set<number>();
    let killedAt = -1;
    const sender = (async () => {
      // Spread over a few seconds, so the kill also lands with webhooks arriving.
      for (let n = 0; n < CONVERSATIONS; n += 10) {
        const batch = Array.from({ length: Math.min(10, CONVERSATIONS - n) }, (_, i) => n + i);
        const results = await Promise.all(batch.map((i) => post(url, i)));
        batch.forEach((i, k) => {
          if (results[k] === true) acked.add(i);
        });
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
    })();
    await eventually(() => f.fake.messages().length >= 120, 20_000, 5);
    // Sends in flight at the kill never reach Meta here: one Meta accepted whose answer the
    // process never read has an unknown outcome, which the sender retries once by design (a
    // possible second copy, as in Redis mode; bench/RESULTS.md counts them for a kill at random).
    f.fake.setFaults({ hangRate: 1 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    first.child.kill("SIGKILL");
    killedAt = f.fake.messages().length;
    await first.exited();
    await sender;
    const ackedBeforeKill = acked.size;

    f.fake.setFaults({ hangRate: 0, latencyMs: 0 });
    const second = spawnEmbedded({ dataDir, graphUrl: f.url });
    processes.push(second);
    const url2 = await second.ready();
    // Meta retries what was not acknowledged, and redelivers some of what was.
    for (let n = 0; n < CONVERSATIONS; n += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, CONVERSATIONS - n) }, (_, i) => n + i).map(async (i) => {
          if (!acked.has(i) || i % 10 === 0) expect(await post(url2, i)).toBe(true);
        }),
      );
    }
    await eventually(() => f.fake.messages().length >= CONVERSATIONS, 30_000, 50);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const perCustomer = new Map<string, number>();
    for (const message of f.fake.messages()) {
      const to = String(message.to).replace(/\D/g, "");
      perCustomer.set(to, (perCustomer.get(to) ?? 0) + 1);
      const text =
        (message.body.text as { body: string } | undefined)?.body ??
        (message.body.interactive as { body: { text: string } } | undefined)?.body.text;
      expect(greetings).toContain(text);
    }
    const doubled = [...perCustomer.values()].filter((count) => count > 1).length;
    process.stdout.write(
      `embedded kill -9: ${ackedBeforeKill} of ${CONVERSATIONS} acknowledged and ${killedAt} answered before the kill; ` +
        `after restart ${perCustomer.size} customers answered, ${doubled} twice\n`,
    );
    expect(perCustomer.size).toBe(CONVERSATIONS);
    expect(doubled).toBe(0);
    expect(f.fake.messages()).toHaveLength(CONVERSATIONS);
  }, 90_000);
});
