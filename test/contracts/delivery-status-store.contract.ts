import fc from "fast-check";
import { beforeEach, describe, expect, it } from "vitest";
import type { DeliveryStatus, DeliveryStatusStore, StatusUpdate } from "../../src/delivery/index.js";

const T0 = 1_795_165_900;

/** The behaviour every DeliveryStatusStore adapter must have; `open` gives a fresh, empty store per test. */
export function describeDeliveryStatusStoreContract(
  name: string,
  open: () => Promise<DeliveryStatusStore>,
): void {
  describe(`DeliveryStatusStore contract: ${name}`, () => {
    let store: DeliveryStatusStore;
    let n = 0;
    const wamid = () => `wamid.contract.${n++}`;
    const update = (
      id: string,
      status: DeliveryStatus,
      timestamp: number,
      over: Partial<StatusUpdate> = {},
    ) => store.applyStatus({ tenantId: "default", wamid: id, status, timestamp, ...over });
    const statusOf = async (id: string) => (await store.get("default", id))?.status;
    beforeEach(async () => {
      store = await open();
    });

    it("knows nothing of a message it was never told of", async () => {
      expect(await store.get("default", "wamid.unknown")).toBeUndefined();
    });

    it("never moves back: read before delivered, delivered twice, sent last", async () => {
      const id = wamid();
      const outcomes = [
        await update(id, "read", T0 + 5, { recipient: "2348012345678" }),
        await update(id, "delivered", T0 + 3),
        await update(id, "delivered", T0 + 3),
        await update(id, "sent", T0),
      ];
      expect(outcomes).toEqual(["applied", "stale_ignored", "stale_ignored", "stale_ignored"]);
      expect(await store.get("default", id)).toEqual({
        tenantId: "default",
        wamid: id,
        status: "read",
        statusAt: T0 + 5,
        recipient: "2348012345678",
      });
    });

    it("moves forward through sent, delivered, read, played; a late delivered never overwrites read", async () => {
      const id = wamid();
      for (const status of ["sent", "delivered", "read", "played"] as const) {
        expect(await update(id, status, T0 + 1)).toBe("applied");
      }
      expect(await update(id, "delivered", T0 + 60)).toBe("stale_ignored");
      expect(await store.get("default", id)).toMatchObject({ status: "played", statusAt: T0 + 1 });
    });

    it("records deleted (an older sender's status) after every other step, and keeps it", async () => {
      const id = wamid();
      expect(await update(id, "read", T0 + 1)).toBe("applied");
      expect(await update(id, "deleted", T0 + 2)).toBe("applied");
      expect(await update(id, "played", T0 + 3)).toBe("stale_ignored");
      expect(await update(id, "failed", T0 + 4, { error: { code: 1, title: "x" } })).toBe("stale_ignored");
      expect(await store.get("default", id)).toMatchObject({ status: "deleted", statusAt: T0 + 2 });
    });

    it("ends in the furthest status for any arrival order with duplicates", async () => {
      const statuses: DeliveryStatus[] = ["sent", "delivered", "read"];
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.constantFrom(...statuses), { minLength: 1, maxLength: 8 }),
          async (arrivals) => {
            const id = wamid();
            for (const status of arrivals) await update(id, status, T0 + statuses.indexOf(status));
            const furthest = statuses[Math.max(...arrivals.map((s) => statuses.indexOf(s)))];
            expect(await statusOf(id)).toBe(furthest);
          },
        ),
        { numRuns: 40 },
      );
    });

    it("applies a status once when the same one arrives many times at once", async () => {
      const id = wamid();
      const outcomes = await Promise.all(Array.from({ length: 10 }, () => update(id, "delivered", T0)));
      expect(outcomes.filter((outcome) => outcome === "applied")).toHaveLength(1);
    });

    it("records failed with its code and title, and keeps it: failed is final", async () => {
      const id = wamid();
      await update(id, "sent", T0);
      const failed = await update(id, "failed", T0 + 2, {
        error: { code: 131047, title: "Re-engagement message" },
      });
      expect(failed).toBe("applied");
      expect(await update(id, "delivered", T0 + 1)).toBe("stale_ignored");
      expect(await update(id, "played", T0 + 9)).toBe("stale_ignored");
      expect(await update(id, "failed", T0 + 9, { error: { code: 1, title: "other" } })).toBe(
        "stale_ignored",
      );
      expect(await store.get("default", id)).toMatchObject({
        status: "failed",
        statusAt: T0 + 2,
        errorCode: 131047,
        errorTitle: "Re-engagement message",
      });
    });

    it("ignores a failed after the customer read the message, or older than the status it would replace", async () => {
      const read = wamid();
      await update(read, "read", T0 + 5);
      expect(await update(read, "failed", T0 + 6, { error: { code: 131000, title: "x" } })).toBe(
        "stale_ignored",
      );
      expect(await statusOf(read)).toBe("read");
      const delivered = wamid();
      await update(delivered, "delivered", T0 + 5);
      expect(await update(delivered, "failed", T0 + 4, { error: { code: 131000, title: "x" } })).toBe(
        "stale_ignored",
      );
      expect(await update(delivered, "failed", T0 + 5, { error: { code: 131000, title: "x" } })).toBe(
        "applied",
      );
    });

    it("keeps what the sender recorded beside the statuses, whichever comes first", async () => {
      const id = wamid();
      await update(id, "delivered", T0 + 1, { recipient: "2348012345678" });
      await store.recordSent({
        tenantId: "default",
        wamid: id,
        phoneNumberId: "106540352242922",
        conversationKey: "default:106540352242922:2348012345678",
        to: "2348012345678",
        turnId: "turn-9",
        part: 1,
        reengagement: true,
        sentAt: 1_795_165_900_123,
      });
      expect(await update(id, "read", T0 + 2)).toBe("applied");
      expect(await store.get("default", id)).toEqual({
        tenantId: "default",
        wamid: id,
        status: "read",
        statusAt: T0 + 2,
        recipient: "2348012345678",
        sent: {
          tenantId: "default",
          wamid: id,
          phoneNumberId: "106540352242922",
          conversationKey: "default:106540352242922:2348012345678",
          to: "2348012345678",
          turnId: "turn-9",
          part: 1,
          reengagement: true,
          sentAt: 1_795_165_900_123,
        },
      });
    });

    it("records a send alone, by a username recipient, and keeps tenants apart", async () => {
      const id = wamid();
      await store.recordSent({
        tenantId: "default",
        wamid: id,
        phoneNumberId: "106540352242922",
        conversationKey: "default:106540352242922:NG.123",
        recipient: "NG.123",
        turnId: "turn-1",
        part: 0,
        sentAt: 5,
      });
      expect(await store.get("default", id)).toEqual({
        tenantId: "default",
        wamid: id,
        sent: {
          tenantId: "default",
          wamid: id,
          phoneNumberId: "106540352242922",
          conversationKey: "default:106540352242922:NG.123",
          recipient: "NG.123",
          turnId: "turn-1",
          part: 0,
          sentAt: 5,
        },
      });
      expect(await store.get("other", id)).toBeUndefined();
      expect(await store.applyStatus({ tenantId: "other", wamid: id, status: "read", timestamp: T0 })).toBe(
        "applied",
      );
      expect(await statusOf(id)).toBeUndefined();
    });

    it("keeps the send's traceparent for its statuses to link to, and a send without one has none", async () => {
      const traced = wamid();
      const untraced = wamid();
      const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
      const sent = { tenantId: "default", phoneNumberId: "106540352242922", turnId: "turn-2", part: 0 };
      const conversationKey = "default:106540352242922:2348012345678";
      await store.recordSent({
        ...sent,
        wamid: traced,
        conversationKey,
        to: "2348012345678",
        sentAt: 7,
        traceparent,
      });
      await store.recordSent({ ...sent, wamid: untraced, conversationKey, to: "2348012345678", sentAt: 8 });
      await update(traced, "delivered", T0);
      expect((await store.get("default", traced))?.sent?.traceparent).toBe(traceparent);
      expect((await store.get("default", untraced))?.sent).not.toHaveProperty("traceparent");
    });
  });
}
