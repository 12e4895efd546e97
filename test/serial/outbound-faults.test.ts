import { afterEach, describe, expect, it } from "vitest";
import { eventually } from "../support/eventually.js";
import {
  createOutboundHarness,
  type OutboundHarness,
  outboundCounts,
  textReply,
} from "../support/outbound-harness.js";
import { skipWithoutRedis } from "../support/redis.js";

const recipient = (i: number) => `2348040${String(i).padStart(6, "0")}`;

describe.skipIf(skipWithoutRedis)("outbound under Graph API limits and outages (long)", () => {
  let h: OutboundHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it("delivers 2,000 replies from one number across 2 workers at 80/s (±5%) with < 1% of attempts rejected 130429", async () => {
    const total = 2000;
    h = await createOutboundHarness("out-2000", { limits: { throughput: { mps: 80 } } });
    await h.queue.enqueue(Array.from({ length: total }, (_, i) => textReply(recipient(i), `t${i}`)));
    h.startWorker({ throughputMps: 80 });
    h.startWorker({ throughputMps: 80 });
    await eventually(
      async () => (await outboundCounts(h as OutboundHarness)).completed === total,
      40_000,
      100,
    );

    const accepted = h.fake.fake
      .messages()
      .map((m) => m.receivedAt)
      .sort((a, b) => a - b);
    const attempts = h.fake.fake.requests().filter((r) => r.kind === "send");
    const throttled = attempts.filter((r) => r.errorCode === 130429).length;
    // The steady part: the first and last 10% (the opening burst, the tail) left out.
    const from = Math.floor(total * 0.1);
    const to = Math.floor(total * 0.9);
    const steadyMps = (to - from) / (((accepted[to] as number) - (accepted[from] as number)) / 1000);
    const overallSeconds = ((accepted[total - 1] as number) - (accepted[0] as number)) / 1000;
    process.stdout.write(
      `2,000 replies at 80/s: ${accepted.length} delivered in ${overallSeconds.toFixed(2)} s; ` +
        `steady throughput ${steadyMps.toFixed(2)}/s (${(((steadyMps - 80) / 80) * 100).toFixed(2)}% off 80/s); ` +
        `${throttled} of ${attempts.length} attempts rejected with 130429 ` +
        `(${((throttled / attempts.length) * 100).toFixed(2)}%)\n`,
    );
    expect(accepted).toHaveLength(total);
    expect(new Set(h.fake.fake.messages().map((m) => m.to)).size).toBe(total);
    expect(Math.abs(steadyMps - 80) / 80).toBeLessThan(0.05);
    expect(throttled / attempts.length).toBeLessThan(0.01);
  }, 45_000);

  it("delivers every reply exactly once after a 30 s outage, resuming within seconds of its end", async () => {
    const total = 200;
    const outageMs = 30_000;
    h = await createOutboundHarness("out-outage");
    const outageEnd = Date.now() + outageMs;
    h.fake.fake.setFaults({ outageUntil: outageEnd });
    await h.queue.enqueue(Array.from({ length: total }, (_, i) => textReply(recipient(i), `o${i}`)));
    // Backoff capped at 2 s (the default cap is 5 min); enough attempts to outlast the outage.
    const retryPolicy = { baseDelayMs: 500, maxDelayMs: 2000, maxAttempts: 100 };
    h.startWorker({ retryPolicy });
    h.startWorker({ retryPolicy });
    await eventually(
      async () => (await outboundCounts(h as OutboundHarness)).completed === total,
      outageMs + 10_000,
      100,
    );

    const messages = h.fake.fake.messages();
    const rejected = h.fake.fake.requests().filter((r) => r.kind === "send" && r.outcome === "rejected");
    const lastDelivery = Math.max(...messages.map((m) => m.receivedAt));
    const firstDelivery = Math.min(...messages.map((m) => m.receivedAt));
    const counts = await outboundCounts(h);
    process.stdout.write(
      `30 s outage: ${rejected.length} attempts answered 5xx; first delivery ${firstDelivery - outageEnd} ms ` +
        `after the outage ended, last ${lastDelivery - outageEnd} ms after; ${messages.length} delivered, ` +
        `${counts.failed} failed\n`,
    );
    const perRecipient = new Map<string, number>();
    for (const m of messages) perRecipient.set(m.to ?? "", (perRecipient.get(m.to ?? "") ?? 0) + 1);
    expect(messages).toHaveLength(total);
    for (let i = 0; i < total; i += 1) expect(perRecipient.get(`+${recipient(i)}`), recipient(i)).toBe(1);
    expect(rejected.every((r) => (r.status ?? 0) >= 500)).toBe(true);
    // The fake reads its clock once to decide the outage and once to record: allow them a few ms apart.
    expect(firstDelivery).toBeGreaterThanOrEqual(outageEnd - 10);
    expect(counts.failed).toBe(0);
    expect(lastDelivery - outageEnd).toBeLessThan(5000);
  }, 45_000);
});
