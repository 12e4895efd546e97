import { describe, expect, it } from "vitest";
import { createSendLimits } from "./send-limits.js";
import { createKeyedTokenBuckets } from "./token-bucket.js";

function clock(start = 1_000_000) {
  let at = start;
  return { now: () => at, advance: (ms: number) => (at += ms) };
}

describe("token buckets", () => {
  it("gives `capacity` at once, then refills continuously, never past capacity", () => {
    const time = clock();
    const buckets = createKeyedTokenBuckets({
      capacity: 3,
      refillTokens: 1,
      refillEveryMs: 6000,
      now: time.now,
    });
    expect([1, 2, 3, 4].map(() => buckets.tryTake("a"))).toEqual([true, true, true, false]);
    expect(buckets.tryTake("b")).toBe(true);
    time.advance(5999);
    expect(buckets.tryTake("a")).toBe(false);
    time.advance(1);
    expect(buckets.tryTake("a")).toBe(true);
    expect(buckets.tryTake("a")).toBe(false);
    time.advance(60_000);
    expect(buckets.available("a")).toBe(3);
  });
});

describe("send limits", () => {
  it("lets 80 sends a second through per phone number id, the 81st gets 130429, and refills over the second", () => {
    const time = clock();
    const limits = createSendLimits({ throughput: {} }, time.now);
    const verdicts = Array.from({ length: 81 }, (_, i) => limits.take("pn1", `+23480000${i}`));
    expect(verdicts.slice(0, 80).every((v) => v === undefined)).toBe(true);
    expect(verdicts[80]).toBe(130429);
    expect(limits.take("pn2", "+2348000")).toBeUndefined();
    time.advance(500);
    const half = Array.from({ length: 41 }, () => limits.take("pn1", "+2348011"));
    expect(half.filter((v) => v === undefined)).toHaveLength(40);
  });

  it("pair limit: a burst of 10 to one customer, then one per 6 s; other customers are unaffected", () => {
    const time = clock();
    const limits = createSendLimits({ pair: {} }, time.now);
    for (let i = 0; i < 10; i++) expect(limits.take("pn1", "+234 801-234-5678")).toBeUndefined();
    // The same customer written differently is the same pair.
    expect(limits.take("pn1", "2348012345678")).toBe(131056);
    expect(limits.take("pn1", "+2348098765432")).toBeUndefined();
    expect(limits.take("pn2", "+2348012345678")).toBeUndefined();
    time.advance(6000);
    expect(limits.take("pn1", "+2348012345678")).toBeUndefined();
    expect(limits.take("pn1", "+2348012345678")).toBe(131056);
  });

  it("has no limits unless asked, and honours a custom burst and interval", () => {
    const time = clock();
    const none = createSendLimits({}, time.now);
    expect(Array.from({ length: 500 }, () => none.take("pn", "+1")).every((v) => v === undefined)).toBe(true);
    const custom = createSendLimits(
      { throughput: { mps: 2 }, pair: { burst: 1, refillEveryMs: 100 } },
      time.now,
    );
    expect(custom.take("pn", "+1")).toBeUndefined();
    expect(custom.take("pn", "+1")).toBe(131056);
    expect(custom.take("pn", "+2")).toBe(130429);
    time.advance(1000);
    expect(custom.take("pn", "+1")).toBeUndefined();
  });
});
