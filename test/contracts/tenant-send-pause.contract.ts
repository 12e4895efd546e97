import { beforeEach, describe, expect, it } from "vitest";
import type { TenantSendPause } from "../../src/outbound/index.js";
import { sleep } from "../support/contract-backends.js";

/** The behaviour every TenantSendPause adapter must have; `open` gives a fresh one. Runs on the real clock. */
export function describeTenantSendPauseContract(name: string, open: () => Promise<TenantSendPause>): void {
  describe(`TenantSendPause contract: ${name}`, () => {
    let pauses: TenantSendPause;
    beforeEach(async () => {
      pauses = await open();
    });

    it("answers 0 for a tenant never paused, and the time left for a paused one", async () => {
      expect(await pauses.remainingMs("acme")).toBe(0);
      await pauses.pause("acme", 10_000);
      const left = await pauses.remainingMs("acme");
      expect(left).toBeGreaterThan(9_800);
      expect(left).toBeLessThanOrEqual(10_000);
      expect(Number.isInteger(left)).toBe(true);
      expect(await pauses.remainingMs("other")).toBe(0);
    });

    it("answers for several scopes at once with the longest pause among them", async () => {
      expect(await pauses.remainingMs("acme", "acme/number")).toBe(0);
      await pauses.pause("acme/number", 10_000);
      expect(await pauses.remainingMs("acme", "acme/number")).toBeGreaterThan(9_800);
      await pauses.pause("acme", 3_000);
      const left = await pauses.remainingMs("acme", "acme/number");
      expect(left).toBeGreaterThan(9_800);
      expect(left).toBeLessThanOrEqual(10_000);
      expect(await pauses.remainingMs("acme", "other")).toBeLessThanOrEqual(3_000);
      expect(await pauses.remainingMs()).toBe(0);
    });

    it("lets a later pause replace an earlier one, and ends it on time", async () => {
      await pauses.pause("acme", 60_000);
      await pauses.pause("acme", 150);
      const left = await pauses.remainingMs("acme");
      expect(left).toBeGreaterThan(0);
      expect(left).toBeLessThanOrEqual(150);
      await sleep(200);
      expect(await pauses.remainingMs("acme")).toBe(0);
      await pauses.pause("acme", 5_000);
      expect(await pauses.remainingMs("acme")).toBeGreaterThan(4_800);
    });

    it("rounds a pause up to whole ms, at least 1", async () => {
      await pauses.pause("acme", 0);
      expect(await pauses.remainingMs("acme")).toBeLessThanOrEqual(1);
      await pauses.pause("acme", 2_000.2);
      expect(await pauses.remainingMs("acme")).toBeLessThanOrEqual(2_001);
      expect(await pauses.remainingMs("acme")).toBeGreaterThan(1_900);
    });
  });
}
