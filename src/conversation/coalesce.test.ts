import { describe, expect, it } from "vitest";
import type { InboundMessage } from "../whatsapp/index.js";
import { coalesceUntil, isStale } from "./coalesce.js";

const message = (receivedAt: number, timestamp = Math.floor(receivedAt / 1000)): InboundMessage => ({
  tenantId: "t",
  phoneNumberId: "1",
  wabaId: "2",
  conversationKey: "t:1:234",
  wamid: `w${receivedAt}`,
  timestamp,
  receivedAt,
  type: "text",
  customer: { waId: "234" },
  text: "hi",
});

describe("coalesceUntil", () => {
  const on = { windowMs: 800, maxMs: 3000 };

  it("waits windowMs after the newest arrival", () => {
    expect(coalesceUntil([message(1000), message(1200)], on, 1500)).toBe(2000);
  });

  it("never waits past maxMs after the oldest arrival", () => {
    expect(coalesceUntil([message(1000), message(3800)], on, 3900)).toBe(4000);
  });

  it("runs now once the window closed, or when coalescing is off", () => {
    expect(coalesceUntil([message(1000)], on, 1800)).toBeUndefined();
    expect(coalesceUntil([message(1000)], { windowMs: 0, maxMs: 3000 }, 1001)).toBeUndefined();
    expect(coalesceUntil([message(1000)], { windowMs: 800, maxMs: 0 }, 1001)).toBeUndefined();
  });
});

describe("isStale", () => {
  it("is stale when Meta's timestamp is older than arrival minus the threshold", () => {
    const now = 1_800_000_000_000;
    expect(isStale(message(now, now / 1000 - 3 * 3600), 3_600_000)).toBe(true);
    expect(isStale(message(now, now / 1000 - 59 * 60), 3_600_000)).toBe(false);
  });
});
