import { describe, expect, it } from "vitest";
import { createSeededRandom } from "../../random/index.js";
import { createHeldRequests } from "./held-requests.js";
import { createFaults, type ServiceFaultPatch } from "./service-faults.js";

function faults(initial: ServiceFaultPatch = {}, seed = 1) {
  const held = createHeldRequests();
  return { faults: createFaults(initial, { random: createSeededRandom(seed), held }), held };
}

describe("fake service faults", () => {
  it("rolls errorRate on the seeded random source: same seed, same failures", () => {
    const rolls = (seed: number) => {
      const { faults: f } = faults({ errorRate: 0.25, errorStatus: 429 }, seed);
      return Array.from({ length: 1000 }, () => f.takeFailure());
    };
    const first = rolls(42);
    expect(rolls(42)).toEqual(first);
    expect(rolls(7)).not.toEqual(first);
    const failed = first.filter((status) => status === 429).length;
    expect(failed).toBeGreaterThan(190);
    expect(failed).toBeLessThan(310);
    expect(first.filter((status) => status !== undefined && status !== 429)).toEqual([]);
  });

  it("fails exactly the next N with failNext, before any errorRate roll", () => {
    const { faults: f } = faults();
    f.update({ failNext: { count: 2, status: 503 } });
    expect([f.takeFailure(), f.takeFailure(), f.takeFailure()]).toEqual([503, 503, undefined]);
    f.update({ failNext: { count: 1 } });
    expect(f.takeFailure()).toBe(500);
    expect(f.settings().failNext).toEqual({ count: 0, status: 500 });
  });

  it("draws latency uniformly within [min, max], and a fixed latency exactly", () => {
    const { faults: f } = faults({ latencyMs: [100, 300] });
    const draws = Array.from({ length: 2000 }, () => f.rollLatency());
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(100);
    expect(Math.max(...draws)).toBeLessThanOrEqual(300);
    const mean = draws.reduce((sum, d) => sum + d, 0) / draws.length;
    expect(mean).toBeGreaterThan(190);
    expect(mean).toBeLessThan(210);
    f.update({ latencyMs: 50 });
    expect(f.rollLatency()).toBe(50);
  });

  it("holds the next N with hangNext, all with hang; turning hang off lets held requests go", async () => {
    const { faults: f, held } = faults({ hangNext: 1 });
    expect([f.takeHang(), f.takeHang()]).toEqual([true, false]);
    f.update({ hang: true });
    expect([f.takeHang(), f.takeHang()]).toEqual([true, true]);
    const never = new AbortController().signal;
    const waiting = [held.hold(never), held.hold(never)];
    expect(f.settings().held).toBe(2);
    f.update({ hang: false });
    expect(await Promise.all(waiting)).toEqual([true, true]);
    expect(f.settings()).toMatchObject({ hang: false, held: 0 });
  });

  it("a held request ends (false) when the fake closes", async () => {
    const { held } = faults();
    const closing = new AbortController();
    const waiting = held.hold(closing.signal);
    closing.abort();
    expect(await waiting).toBe(false);
    expect(held.size()).toBe(0);
  });

  it("refuses what it cannot honour and changes nothing", () => {
    const { faults: f } = faults({ errorRate: 0.5 });
    expect(() => f.update({ errorRate: 2 })).toThrow();
    expect(() => f.update({ errorStatus: 404 as 500 })).toThrow();
    expect(() => f.update({ latencyMs: [300, 100] })).toThrow();
    expect(f.settings().errorRate).toBe(0.5);
    expect(f.update({ reset: true })).toMatchObject({ errorRate: 0, latencyMs: 0, hang: false });
  });
});
