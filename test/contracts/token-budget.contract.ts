import { describe, expect, it } from "vitest";
import type { TokenBudget } from "../../src/agent/index.js";

/** The behaviour every TokenBudget adapter must have; `open` gives a fresh, empty budget on the given clock. */
export function describeTokenBudgetContract(
  name: string,
  open: (now: () => number) => Promise<TokenBudget>,
): void {
  describe(`TokenBudget contract: ${name}`, () => {
    it("counts per tenant per UTC day, in whole tokens", async () => {
      let now = Date.parse("2026-11-30T23:59:00Z");
      const budget = await open(() => now);
      expect(await budget.spentToday("a")).toBe(0);
      await budget.record("a", 1200);
      await budget.record("a", 299.6);
      await budget.record("b", 5);
      expect(await budget.spentToday("a")).toBe(1500);
      expect(await budget.spentToday("b")).toBe(5);
      now = Date.parse("2026-12-01T00:00:01Z");
      expect(await budget.spentToday("a")).toBe(0);
      await budget.record("a", 7);
      expect(await budget.spentToday("a")).toBe(7);
      now = Date.parse("2026-11-30T12:00:00Z");
      expect(await budget.spentToday("a")).toBe(1500);
    });

    it("ignores zero and negative counts", async () => {
      const now = Date.parse("2026-06-01T10:00:00Z");
      const budget = await open(() => now);
      await budget.record("a", 10);
      await budget.record("a", 0);
      await budget.record("a", -50);
      expect(await budget.spentToday("a")).toBe(10);
    });
  });
}
