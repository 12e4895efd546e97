import { afterEach, describe, expect, it } from "vitest";
import type { OutboundReply } from "../../src/outbound/index.js";
import { eventually } from "../support/eventually.js";
import {
  createOutboundHarness,
  type OutboundHarness,
  outboundCounts,
  textReply,
} from "../support/outbound-harness.js";
import { skipWithoutRedis } from "../support/redis.js";

const customer = (n: number) => `2348020${String(n).padStart(6, "0")}`;
/** `turns` turns of `parts` parts for customer n, in queue order. */
const turnsOf = (n: number, turns: number, parts: number): OutboundReply[][] =>
  Array.from({ length: turns }, (_, t) =>
    Array.from({ length: parts }, (_, p) => textReply(customer(n), `c${n}-t${t}`, p)),
  );
/** The bodies the fake received for each customer, in arrival order. */
const arrivals = (h: OutboundHarness) => {
  const grouped = new Map<string, string[]>();
  for (const m of h.fake.fake.messages()) {
    const to = String(m.to).replace(/\D/g, "");
    grouped.set(to, [...(grouped.get(to) ?? []), (m.body.text as { body: string }).body]);
  }
  return grouped;
};
const bodies = (turns: OutboundReply[][]) =>
  turns.flat().map((r) => (r.message.text as { body: string }).body);
const fast = { throughputMps: 5000, throughputBurst: 500, concurrency: 8 };

describe.skipIf(skipWithoutRedis)("outbound send order", () => {
  let h: OutboundHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it("sends each conversation's replies in queue order across 2 workers × concurrency 8", async () => {
    h = await createOutboundHarness("out-order");
    const conversations = Array.from({ length: 10 }, (_, n) => turnsOf(n, 4, 2));
    h.startWorker(fast);
    h.startWorker(fast);
    // Turns queued one at a time while the workers run, as the turn worker does.
    for (let t = 0; t < 4; t += 1) {
      await Promise.all(conversations.map((turns) => h?.queue.enqueue(turns[t] ?? [])));
    }
    await eventually(() => h?.fake.fake.messages().length === 80, 10_000, 20);
    const got = arrivals(h);
    for (const [n, turns] of conversations.entries()) expect(got.get(customer(n))).toEqual(bodies(turns));
    expect((await h.metrics.orderOverdue.get()).values).toEqual([]);
  });

  it("a given-up reply (131026) does not hold up the later ones", async () => {
    h = await createOutboundHarness("out-order-giveup");
    h.fake.fake.setFaults({ forcedErrors: [{ code: 131026, times: 1 }] });
    const turns = turnsOf(0, 3, 1);
    for (const turn of turns) await h.queue.enqueue(turn);
    h.startWorker(fast);
    h.startWorker(fast);
    await eventually(async () => (await outboundCounts(h as OutboundHarness)).completed === 2, 5000, 20);
    expect((await outboundCounts(h)).failed).toBe(1);
    expect(arrivals(h).get(customer(0))).toEqual(bodies(turns).slice(1));
  });

  it("does not serialise different conversations: 50 × 4 replies take about as long as 200 conversations × 1", async () => {
    const run = async (label: string, conversations: number, turns: number) => {
      const harness = await createOutboundHarness(label);
      h = harness;
      harness.startWorker(fast);
      harness.startWorker(fast);
      const all = Array.from({ length: conversations }, (_, n) => turnsOf(n, turns, 1));
      const t0 = Date.now();
      for (let t = 0; t < turns; t += 1) {
        await Promise.all(all.map((c) => harness.queue.enqueue(c[t] ?? [])));
      }
      await eventually(() => harness.fake.fake.messages().length === 200, 15_000, 10);
      const elapsed = Date.now() - t0;
      await harness.close();
      h = undefined;
      return elapsed;
    };
    const unordered = await run("out-order-1x200", 200, 1);
    const ordered = await run("out-order-50x4", 50, 4);
    process.stdout.write(
      `200 replies, 2 workers × 8: 200 conversations × 1 in ${unordered} ms; 50 × 4 in order in ${ordered} ms\n`,
    );
    expect(ordered).toBeLessThan(Math.max(3 * unordered, 1500));
  });
});
