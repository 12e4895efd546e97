import { describe, expect, it } from "vitest";
import { createSeededRandom } from "../fake-server/index.js";
import { createFaults } from "./faults.js";

describe("faults", () => {
  it("rolls the error rate on the injected random source: same seed, same sends fail", () => {
    const rolls = (seed: number) => {
      const faults = createFaults({ errorRate: 0.3 }, { now: () => 0, random: createSeededRandom(seed) });
      return Array.from({ length: 1000 }, () => faults.rollError());
    };
    const first = rolls(42);
    expect(rolls(42)).toEqual(first);
    expect(rolls(7)).not.toEqual(first);
    const failed = first.filter(Boolean).length;
    expect(failed).toBeGreaterThan(240);
    expect(failed).toBeLessThan(360);
  });

  it("an outage lasts until outageUntil on the injected clock; outageForMs counts from now", () => {
    let now = 10_000;
    const faults = createFaults({ outageForMs: 500 }, { now: () => now, random: Math.random });
    expect(faults.inOutage()).toBe(true);
    expect(faults.settings().outageUntil).toBe(10_500);
    now = 10_500;
    expect(faults.inOutage()).toBe(false);
    faults.update({ outageUntil: 20_000 });
    expect(faults.inOutage()).toBe(true);
    faults.update({ outageUntil: null });
    expect(faults.inOutage()).toBe(false);
  });

  it("forces an error onto the next N sends, or onto named customers only", () => {
    const faults = createFaults({}, { now: () => 0, random: Math.random });
    faults.update({
      forcedErrors: [
        { code: 131047, recipients: ["+234 801 234 5678"] },
        { code: 190, times: 2 },
      ],
    });
    expect(faults.takeForced("2348012345678")).toBe(131047);
    expect(faults.takeForced("+2348098765432")).toBe(190);
    expect(faults.takeForced("+2348098765432")).toBe(190);
    expect(faults.takeForced("+2348098765432")).toBeUndefined();
    expect(faults.takeForced("+2348012345678")).toBe(131047);
    expect(faults.settings().forcedErrors).toEqual([{ code: 131047, recipients: ["2348012345678"] }]);
    faults.update({ reset: true });
    expect(faults.takeForced("+2348012345678")).toBeUndefined();
  });

  it("refuses settings Meta's fake cannot honour", () => {
    const faults = createFaults({}, { now: () => 0, random: Math.random });
    expect(() => faults.update({ errorRate: 1.5 })).toThrow();
    expect(() => faults.update({ forcedErrors: [{ code: 999 as 190 }] })).toThrow();
  });
});
