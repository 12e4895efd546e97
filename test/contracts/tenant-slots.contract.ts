import { describe, expect, it } from "vitest";
import type { TenantSlots } from "../../src/agent/index.js";
import { sleep } from "../support/contract-backends.js";

/** The behaviour every TenantSlots adapter must have; `open` gives fresh, empty slots with this lease, ms. */
export function describeTenantSlotsContract(
  name: string,
  open: (leaseMs: number) => Promise<TenantSlots>,
): void {
  describe(`TenantSlots contract: ${name}`, () => {
    it("holds at most `limit` at once per tenant, with distinct tokens; other tenants are apart", async () => {
      const slots = await open(30_000);
      const a1 = await slots.acquire("a", 2);
      const a2 = await slots.acquire("a", 2);
      expect(a1).toEqual(expect.any(String));
      expect(a2).toEqual(expect.any(String));
      expect(a2).not.toBe(a1);
      expect(await slots.acquire("a", 2)).toBeUndefined();
      expect(await slots.acquire("a", 3)).toEqual(expect.any(String));
      expect(await slots.acquire("b", 1)).toEqual(expect.any(String));
      expect(await slots.acquire("b", 1)).toBeUndefined();
      expect(await slots.acquire("c", 0)).toBeUndefined();
    });

    it("frees a slot on release; an unknown token frees nothing", async () => {
      const slots = await open(30_000);
      const a1 = (await slots.acquire("a", 1)) as string;
      await slots.release("a", "not-a-token");
      await slots.release("b", a1);
      expect(await slots.acquire("a", 1)).toBeUndefined();
      await slots.release("a", a1);
      expect(await slots.acquire("a", 1)).toEqual(expect.any(String));
    });

    it("frees a slot when its lease ends (a turn that died)", async () => {
      const slots = await open(200);
      expect(await slots.acquire("a", 1)).toBeDefined();
      await sleep(50);
      expect(await slots.acquire("a", 1)).toBeUndefined();
      await sleep(200);
      expect(await slots.acquire("a", 1)).toBeDefined();
    });

    it("keeps a slot its holder renews past the lease; a lapsed slot cannot be renewed back", async () => {
      const slots = await open(200);
      expect(slots.leaseMs).toBe(200);
      const held = (await slots.acquire("a", 1)) as string;
      for (let tick = 0; tick < 4; tick += 1) {
        await sleep(100);
        await slots.extend("a", held);
      }
      expect(await slots.acquire("a", 1)).toBeUndefined();
      await sleep(300);
      await slots.extend("a", held);
      const next = await slots.acquire("a", 1);
      expect(next).toEqual(expect.any(String));
      expect(await slots.acquire("a", 1)).toBeUndefined();
    });
  });
}
