import { beforeEach, describe, expect, it } from "vitest";
import type { PendingAction, PendingActionStore } from "../../src/agent/index.js";
import { sleep } from "../support/contract-backends.js";

const proposal: Omit<PendingAction, "id"> = {
  toolName: "refund_order",
  args: { orderId: "A1", amount: 1500 },
  idempotencyKey: "ss-k",
  summary: "Refund A1",
  createdAt: 1,
};

/** The behaviour every PendingActionStore adapter must have; `open` gives a fresh, empty store. TTLs run on the real clock. */
export function describePendingActionsContract(name: string, open: () => Promise<PendingActionStore>): void {
  describe(`PendingActionStore contract: ${name}`, () => {
    const mine = "shop:1:2348011111111";
    let pending: PendingActionStore;
    beforeEach(async () => {
      pending = await open();
    });

    it("stores a proposal under a fresh, button-safe id", async () => {
      const a = await pending.create(mine, proposal, 60_000);
      const b = await pending.create(mine, proposal, 60_000);
      expect(a).toEqual({ ...proposal, id: a.id });
      expect(a.id).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
      expect(b.id).not.toBe(a.id);
    });

    it("is claimed by one message, again by that message's retry, and `already` by any other", async () => {
      const action = await pending.create(mine, proposal, 60_000);
      const first = await pending.claim(mine, action.id, "wamid.tap1");
      expect(first).toEqual({ kind: "claimed", action });
      expect(await pending.claim(mine, action.id, "wamid.tap1")).toEqual(first);
      expect(await pending.claim(mine, action.id, "wamid.tap2")).toEqual({ kind: "already", action });
      expect(await pending.claim(mine, action.id, "wamid.tap1")).toEqual(first);
    });

    it("is claimed from its own conversation only; unknown and malformed ids are missing", async () => {
      const action = await pending.create(mine, proposal, 60_000);
      expect(await pending.claim("shop:1:2348022222222", action.id, "wamid.other")).toEqual({
        kind: "missing",
      });
      expect(await pending.claim(mine, "nosuchid", "wamid.tap1")).toEqual({ kind: "missing" });
      expect(await pending.claim(mine, "../../etc", "wamid.tap1")).toEqual({ kind: "missing" });
      expect(await pending.claim(mine, action.id, "wamid.tap1")).toMatchObject({ kind: "claimed" });
    });

    it("expires after its TTL, claimed or not", async () => {
      const open = await pending.create(mine, proposal, 150);
      const claimed = await pending.create(mine, proposal, 150);
      const long = await pending.create(mine, proposal, 60_000);
      expect(await pending.claim(mine, claimed.id, "wamid.tap")).toMatchObject({ kind: "claimed" });
      await sleep(50);
      expect(await pending.claim(mine, claimed.id, "wamid.tap")).toMatchObject({ kind: "claimed" });
      await sleep(200);
      expect(await pending.claim(mine, open.id, "wamid.late")).toEqual({ kind: "missing" });
      expect(await pending.claim(mine, claimed.id, "wamid.tap")).toEqual({ kind: "missing" });
      expect(await pending.claim(mine, long.id, "wamid.late")).toMatchObject({ kind: "claimed" });
    });

    it("refuses a TTL that is not a positive whole number of ms", async () => {
      await expect(pending.create(mine, proposal, 0)).rejects.toThrow();
      await expect(pending.create(mine, proposal, 1.5)).rejects.toThrow();
    });
  });
}
