import { afterEach, describe, expect, it } from "vitest";
import type { FakeRequestRecord } from "../../src/dev/index.js";
import { eventually } from "../support/eventually.js";
import { PHONE_NUMBER_ID } from "../support/fake-graph.js";
import { skipWithoutRedis } from "../support/redis.js";
import { createTurnHarness, type TurnHarness } from "../support/turn-harness.js";
import { textWebhook } from "../support/webhook-builder.js";

const CUSTOMER = "2348012345678";
const OFF = { windowMs: 0, maxMs: 0 };
const nowSeconds = () => Math.floor(Date.now() / 1000);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function reads(h: TurnHarness): Promise<FakeRequestRecord[]> {
  const response = await h.fake.get("/_fake/requests");
  const all = (await response.json()) as FakeRequestRecord[];
  return all.filter((request) => request.kind === "read");
}

describe.skipIf(skipWithoutRedis)("mark-as-read with typing indicator (fake Graph API)", () => {
  let h: TurnHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it("marks the newest message of a coalesced turn read with the typing indicator, once", async () => {
    h = await createTurnHarness("typing-on", { coalesce: { windowMs: 300, maxMs: 2000 } });
    h.startWorkers();
    const t = nowSeconds();
    const burst = [
      { wamid: "wamid.t.1", from: CUSTOMER, timestamp: t, text: "Hello" },
      { wamid: "wamid.t.2", from: CUSTOMER, timestamp: t + 1, text: "abeg check am" },
    ];
    expect((await h.ingress.post(textWebhook([burst]))).statusCode).toBe(200);
    await eventually(() => (h as TurnHarness).fake.fake.messages().length === 1, 5000);
    const marked = await reads(h);
    expect(marked).toHaveLength(1);
    expect(marked[0]).toMatchObject({
      phoneNumberId: PHONE_NUMBER_ID,
      messageId: "wamid.t.2",
      typing: true,
      outcome: "accepted",
    });
  }, 10_000);

  it("sends no mark-as-read when the tenant sets typingIndicator: false", async () => {
    h = await createTurnHarness("typing-off", { coalesce: OFF, settings: { typingIndicator: false } });
    h.startWorkers();
    const message = { wamid: "wamid.off.1", from: CUSTOMER, timestamp: nowSeconds(), text: "hi" };
    expect((await h.ingress.post(textWebhook([[message]]))).statusCode).toBe(200);
    await eventually(() => (h as TurnHarness).fake.fake.messages().length === 1, 5000);
    await sleep(200);
    expect(await reads(h)).toEqual([]);
  }, 10_000);

  it("still replies when the Graph API is down for the typing indicator", async () => {
    h = await createTurnHarness("typing-outage", { coalesce: OFF });
    h.fake.fake.setFaults({ outageForMs: 1500 });
    h.startWorkers();
    const message = { wamid: "wamid.down.1", from: CUSTOMER, timestamp: nowSeconds(), text: "hi" };
    expect((await h.ingress.post(textWebhook([[message]]))).statusCode).toBe(200);
    await eventually(() => (h as TurnHarness).fake.fake.messages().length === 1, 12_000);
    // During the outage the fake refuses every call before reading its body, so none is a recorded read.
    const all = (await (await h.fake.get("/_fake/requests")).json()) as FakeRequestRecord[];
    expect(all.filter((request) => request.outcome === "rejected").length).toBeGreaterThan(0);
    expect(await reads(h)).toEqual([]);
  }, 15_000);
});
