import { describe, expect, it } from "vitest";
import type { SendRateLimiter, SendRateLimitOptions } from "../../src/outbound/index.js";

/**
 * The behaviour every SendRateLimiter adapter must have; `open` gives a fresh
 * limiter with these options (it may throw on bad ones). Runs on the real
 * clock, so waits are checked within what the calls themselves take.
 */
export function describeSendRateLimiterContract(
  name: string,
  open: (options: SendRateLimitOptions) => Promise<SendRateLimiter>,
): void {
  describe(`SendRateLimiter contract: ${name}`, () => {
    it("refuses limits that cannot work", async () => {
      await expect(open({ throughputMps: 0 })).rejects.toThrow(TypeError);
      await expect(open({ pairLimit: { burst: 0 } })).rejects.toThrow(TypeError);
      await expect(open({ pairLimit: { intervalMs: 0 } })).rejects.toThrow(TypeError);
    });

    it("allows a recipient's pair burst, then refuses without reserving or holding up other recipients", async () => {
      const limiter = await open({ throughputMps: 1000, pairLimit: { burst: 2, intervalMs: 1000 } });
      const slots = [];
      for (let i = 0; i < 5; i++) slots.push(await limiter.reserve("pn1", "234801"));
      expect(slots.map((s) => s.granted)).toEqual([true, true, false, false, false]);
      expect(slots[0]?.waitMs).toBe(0);
      expect(slots[1]?.waitMs).toBe(0);
      // A refusal reserves nothing, so asking again does not push the wait further out.
      for (const slot of slots.slice(2)) {
        expect(slot.waitMs).toBeGreaterThan(800);
        expect(slot.waitMs).toBeLessThanOrEqual(1000);
      }
      expect(await limiter.reserve("pn1", "234802")).toEqual({ granted: true, waitMs: 0 });
      // The same customer on another number is another pair.
      expect(await limiter.reserve("pn9", "234801")).toEqual({ granted: true, waitMs: 0 });
    });

    it("takes only a slot free now when asked with horizon 0, leaving the next one to a reply", async () => {
      // 10/s, burst 1: one slot now, the next 100 ms out.
      const limiter = await open({ throughputMps: 10, throughputBurst: 1 });
      expect((await limiter.reserve("pn1", "234801", 0)).granted).toBe(true);
      // A campaign's send asks for a slot free now: there is none, and it reserves nothing.
      const refused = await limiter.reserve("pn1", "234802", 0);
      expect(refused.granted).toBe(false);
      expect(refused.waitMs).toBeGreaterThan(50);
      // A reply (the default horizon) still gets the next slot, not one pushed out by the refusal.
      const reply = await limiter.reserve("pn1", "234803");
      expect(reply.granted).toBe(true);
      expect(reply.waitMs).toBeLessThanOrEqual(100);
    });

    it("paces each number at its own tenant's rate, and an unlisted number at the default", async () => {
      // pn-fast: 1,000/s (1 ms apart); pn-slow: 10/s (100 ms apart); burst 1 for both.
      const limiter = await open({
        throughputMps: 10,
        throughputBurst: 1,
        throughputMpsByNumber: new Map([
          ["pn-fast", 1000],
          ["pn-slow", 10],
        ]),
      });
      const waits = async (number: string) => {
        const found: number[] = [];
        for (let i = 0; i < 4; i++) found.push((await limiter.reserve(number, `23481${i}`)).waitMs);
        return found;
      };
      const fast = await waits("pn-fast");
      const slow = await waits("pn-slow");
      const unlisted = await waits("pn-other");
      expect(Math.max(...fast)).toBeLessThanOrEqual(10);
      expect(slow[3]).toBeGreaterThanOrEqual(250);
      expect(unlisted[3]).toBeGreaterThanOrEqual(250);
    });

    it("paces one number's throughput after its burst, and no other number's", async () => {
      const limiter = await open({ throughputMps: 100, throughputBurst: 3 });
      // Each wait counts from its own call; adding the time since the first call puts the slots on one
      // timeline, where they must be one interval (10 ms) apart however slowly the calls run.
      const slots: number[] = [];
      const firstCall = performance.now();
      for (let i = 0; i < 8; i++) {
        const calledAt = performance.now() - firstCall;
        slots.push((await limiter.reserve("pn2", `23480${i}`)).waitMs + calledAt);
      }
      expect(slots.slice(0, 3).every((slot) => slot < 10)).toBe(true);
      for (let i = 3; i < 8; i++) {
        expect(slots[i]).toBeGreaterThanOrEqual((i - 2) * 10 - 2);
        expect(slots[i]).toBeLessThanOrEqual((i - 2) * 10 + 10);
      }
      expect(await limiter.reserve("pn3", "234800")).toEqual({ granted: true, waitMs: 0 });
    });

    it("reserves slots up to the horizon only; a refusal beyond it reserves nothing", async () => {
      const limiter = await open({ throughputMps: 10, throughputBurst: 1, horizonMs: 250 });
      const firstCall = performance.now();
      const slots = [];
      for (let i = 0; i < 5; i++) slots.push(await limiter.reserve("pn4", `23480${i}`));
      const elapsed = performance.now() - firstCall;
      expect(slots.map((s) => s.granted)).toEqual([true, true, true, false, false]);
      expect(slots[0]?.waitMs).toBe(0);
      expect(slots[1]?.waitMs).toBeGreaterThan(100 - elapsed - 1);
      expect(slots[2]?.waitMs).toBeGreaterThan(200 - elapsed - 1);
      for (const slot of slots.slice(1, 3)) expect(slot.waitMs).toBeLessThanOrEqual(200);
      for (const slot of slots.slice(3)) {
        expect(slot.waitMs).toBeGreaterThan(300 - elapsed - 1);
        expect(slot.waitMs).toBeLessThanOrEqual(300);
      }
    });
  });
}
