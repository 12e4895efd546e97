import { describe, expect, it } from "vitest";
import type { CampaignRecipient } from "../../src/campaigns/index.js";
import {
  audience,
  type CampaignStores,
  claimOf,
  customer,
  DAY,
  definition,
  MINUTE,
  runningCampaign,
  T0,
} from "./campaign-fixtures.js";

/** Claims, settles, recovery and the messaging limit; run by describeCampaignStoreContract. */
export function describeCampaignClaimsContract(ports: () => CampaignStores): void {
  describe("claims", () => {
    it("takes due pending recipients of a running campaign in audience order, each once", async () => {
      const { store } = ports();
      const draft = (await store.create(definition({ clientKey: "draft" }), audience(2), T0)).campaign;
      expect((await store.claim(claimOf(draft.id))).recipients).toEqual([]);
      const campaign = await runningCampaign(store, audience(5), { clientKey: "run" });
      const first = await store.claim(claimOf(campaign.id, { limit: 2 }));
      expect(first).toEqual({
        recipients: [1, 2].map((seq) => ({
          campaignId: campaign.id,
          seq,
          customerId: customer(seq),
          kind: "to",
          params: [`Customer ${seq}`, "20%"],
          timezone: "Africa/Lagos",
          state: "sending",
          attempts: 0,
          notBefore: 0,
        })),
      });
      const rest = await store.claim(claimOf(campaign.id, { owner: "worker-2" }));
      expect(rest.recipients.map((r) => r.seq)).toEqual([3, 4, 5]);
      expect((await store.claim(claimOf(campaign.id))).recipients).toEqual([]);
      expect(await store.report("acme", campaign.id, T0)).toMatchObject({ pending: 0, sending: 5 });
    });

    it("leaves recipients in quiet time zones, and those whose retry is not yet due", async () => {
      const { store } = ports();
      const members = audience(5).map((m, i) => (i % 2 === 0 ? { ...m, timezone: "Europe/London" } : m));
      const campaign = await runningCampaign(store, members);
      const quiet = await store.claim(claimOf(campaign.id, { limit: 1, quietTimezones: ["Europe/London"] }));
      expect(quiet.recipients.map((r) => [r.seq, r.timezone])).toEqual([[2, "Africa/Lagos"]]);
      const retry = { kind: "retry", notBefore: T0 + MINUTE, code: 131056 } as const;
      expect(await store.settle(campaign.id, 2, "worker-1", retry, T0)).toBe(true);
      const next = await store.claim(claimOf(campaign.id, { quietTimezones: ["Europe/London"] }));
      expect(next.recipients.map((r) => r.seq)).toEqual([4]);
      const london = await store.claim(claimOf(campaign.id));
      expect(london.recipients.map((r) => [r.seq, r.timezone])).toEqual([
        [1, "Europe/London"],
        [3, "Europe/London"],
        [5, "Europe/London"],
      ]);
      const due = await store.claim(claimOf(campaign.id, { now: T0 + MINUTE }));
      expect(due.recipients).toEqual([
        expect.objectContaining({ seq: 2, attempts: 1, errorCode: 131056, notBefore: T0 + MINUTE }),
      ]);
    });

    it("skips suppressed customers as opted out and fills the batch past them", async () => {
      const { store, suppressions } = ports();
      for (const i of [1, 2, 3]) await suppressions.optOut("acme", customer(i), "keyword", T0);
      await suppressions.optOut("globex", customer(4), "api", T0);
      const campaign = await runningCampaign(store, audience(6));
      const claimed = await store.claim(claimOf(campaign.id, { limit: 2 }));
      expect(claimed.recipients.map((r) => r.seq)).toEqual([4, 5]);
      expect(await store.report("acme", campaign.id, T0)).toMatchObject({
        pending: 1,
        sending: 2,
        skipped: { opted_out: 3 },
      });
    });

    it("settles a claim only by its owner, once, for each kind of outcome", async () => {
      const { store } = ports();
      const campaign = await runningCampaign(store, audience(6));
      await store.claim(claimOf(campaign.id, { owner: "w1", limit: 5 }));
      const settle = (seq: number, outcome: Parameters<typeof store.settle>[3], owner = "w1") =>
        store.settle(campaign.id, seq, owner, outcome, T0 + 1);
      expect(await settle(1, { kind: "sent", wamid: "wamid.1" }, "w2")).toBe(false);
      expect(await settle(1, { kind: "sent", wamid: "wamid.1" })).toBe(true);
      expect(await settle(1, { kind: "failed", reason: "late" })).toBe(false);
      expect(await settle(2, { kind: "failed", code: 131026, reason: "undeliverable" })).toBe(true);
      expect(await settle(3, { kind: "skipped", reason: "invalid" })).toBe(true);
      expect(await settle(4, { kind: "retry", notBefore: T0 + 1, code: 130429 })).toBe(true);
      expect(await settle(5, { kind: "unknown" })).toBe(true);
      expect(await settle(6, { kind: "sent", wamid: "wamid.6" })).toBe(false);
      expect(await settle(4, { kind: "sent", wamid: "wamid.4" })).toBe(false);
      expect(await store.report("acme", campaign.id, T0 + 1)).toMatchObject({
        pending: 2,
        sending: 0,
        unknown: 1,
        sent: 1,
        failed: { "131026": 1 },
        skipped: { invalid: 1 },
      });
      expect(await store.findByWamid("acme", "wamid.1")).toEqual({ campaignId: campaign.id, seq: 1 });
      // The retried one comes back with its attempt and code; a failure after it keeps counting.
      const again = await store.claim(claimOf(campaign.id, { owner: "w3", now: T0 + 1 }));
      expect(again.recipients.map((r) => [r.seq, r.attempts, r.errorCode])).toEqual([
        [4, 1, 130429],
        [6, 0, undefined],
      ]);
      expect(await store.settle(campaign.id, 4, "w3", { kind: "failed", reason: "gave up" }, T0 + 2)).toBe(
        true,
      );
      expect((await store.report("acme", campaign.id, T0 + 2))?.failed).toEqual({ "131026": 1, "130429": 1 });
    });

    it("releases a claim that was not attempted back to pending, without counting an attempt", async () => {
      const { store } = ports();
      const campaign = await runningCampaign(store, audience(1), { clientKey: "release" });
      const [claimed] = (await store.claim(claimOf(campaign.id))).recipients;
      expect(claimed?.seq).toBe(1);
      const release = { kind: "release", notBefore: T0 + MINUTE } as const;
      expect(await store.settle(campaign.id, 1, "worker-1", release, T0)).toBe(true);
      // Not before its time, and then with no attempt spent.
      expect((await store.claim(claimOf(campaign.id))).recipients).toEqual([]);
      const again = await store.claim(claimOf(campaign.id, { now: T0 + MINUTE }));
      expect(again.recipients.map((r) => [r.seq, r.attempts, r.state])).toEqual([[1, 0, "sending"]]);
    });

    it("makes claims past their lease unknown, and sends unknown ones again only when no status came", async () => {
      const { store } = ports();
      const campaign = await runningCampaign(store, audience(3));
      const gone = await runningCampaign(store, audience(1), { clientKey: "gone" });
      await store.claim(claimOf(campaign.id, { owner: "dead" }));
      await store.claim(claimOf(gone.id, { owner: "dead" }));
      expect(await store.recover(T0 + MINUTE - 1, 10 * MINUTE)).toEqual({ unknown: 0, resent: 0 });
      expect(await store.recover(T0 + MINUTE + 1, 10 * MINUTE)).toEqual({ unknown: 4, resent: 0 });
      expect(await store.settle(campaign.id, 1, "dead", { kind: "sent", wamid: "w" }, T0)).toBe(false);
      await store.applyStatus({
        campaignId: campaign.id,
        seq: 2,
        wamid: "wamid.2",
        status: "delivered",
        at: T0 + 5,
      });
      await store.transition("acme", gone.id, ["running"], "cancelled", T0 + 2 * MINUTE);
      const later = T0 + MINUTE + 1;
      expect(await store.recover(later + 10 * MINUTE, 10 * MINUTE)).toEqual({ unknown: 0, resent: 0 });
      expect(await store.recover(later + 10 * MINUTE + 1, 10 * MINUTE)).toEqual({ unknown: 0, resent: 2 });
      expect(await store.report("acme", gone.id, later)).toMatchObject({
        unknown: 0,
        pending: 0,
        skipped: { cancelled: 1 },
      });
      const resent = await store.claim(claimOf(campaign.id, { now: later + 10 * MINUTE + 1 }));
      // Attempts count failed sends: a resend of an unknown one is not one.
      expect(resent.recipients.map((r) => [r.seq, r.attempts])).toEqual([
        [1, 0],
        [3, 0],
      ]);
      expect(await store.report("acme", campaign.id, later)).toMatchObject({
        sent: 1,
        delivered: 1,
        sending: 2,
      });
    });

    it("never hands one recipient to two claims made at once", async () => {
      const { store } = ports();
      const campaign = await runningCampaign(store, audience(120));
      const loop = async (owner: string) => {
        const got: CampaignRecipient[] = [];
        for (;;) {
          const { recipients } = await store.claim(claimOf(campaign.id, { owner, limit: 7 }));
          if (recipients.length === 0) return got;
          got.push(...recipients);
        }
      };
      const all = (await Promise.all(["a", "b", "c", "d"].map(loop))).flat();
      expect(all.map((r) => r.seq).sort((x, y) => x - y)).toEqual(
        Array.from({ length: 120 }, (_, i) => i + 1),
      );
    });
  });

  describe("the messaging limit", () => {
    it("counts unique customers in the number's window across its campaigns; one already in it costs nothing", async () => {
      const { store } = ports();
      const a = await runningCampaign(store, audience(3));
      const b = await runningCampaign(store, audience(4, 2), { clientKey: "b" });
      const elsewhere = await runningCampaign(store, audience(1), { clientKey: "c", phoneNumberId: "999" });
      const limited = { messagingLimit: 4 };
      expect((await store.claim(claimOf(a.id, limited))).recipients).toHaveLength(3);
      const held = await store.claim(claimOf(b.id, { ...limited, now: T0 + 1_000 }));
      expect(held.recipients.map((r) => r.customerId)).toEqual([customer(2), customer(3), customer(4)]);
      expect(held.limitedUntil).toBe(T0 + DAY);
      expect(await store.report("acme", b.id, T0 + 1_000)).toMatchObject({ pending: 1, heldForLimit: 1 });
      expect((await store.claim(claimOf(elsewhere.id, limited))).recipients).toHaveLength(1);
      // Still full a moment before the oldest places free up...
      expect(await store.claim(claimOf(b.id, { ...limited, now: T0 + DAY - 1 }))).toEqual({
        recipients: [],
        limitedUntil: T0 + DAY,
      });
      // ...and room once they have.
      const freed = await store.claim(claimOf(b.id, { ...limited, now: T0 + DAY }));
      expect(freed).toEqual({ recipients: [expect.objectContaining({ customerId: customer(5) })] });
      expect(await store.report("acme", b.id, T0 + DAY)).toMatchObject({ pending: 0, heldForLimit: 0 });
    });

    it("stops at the limit: 1,000 of 1,500 claimed, 500 left pending with the time a place frees up", async () => {
      const { store } = ports();
      const campaign = await runningCampaign(store, audience(1_500));
      let claimed = 0;
      let last: Awaited<ReturnType<typeof store.claim>> | undefined;
      for (let now = T0; ; now += 1_000) {
        last = await store.claim(claimOf(campaign.id, { limit: 100, now, messagingLimit: 1_000 }));
        if (last.recipients.length === 0) break;
        claimed += last.recipients.length;
      }
      expect(claimed).toBe(1_000);
      expect(last?.limitedUntil).toBe(T0 + DAY);
      expect(await store.report("acme", campaign.id, T0 + MINUTE)).toMatchObject({
        pending: 500,
        sending: 1_000,
        heldForLimit: 500,
      });
    });

    it("counts a retry the runner holds for the limit as held until it is due", async () => {
      const { store } = ports();
      const campaign = await runningCampaign(store, audience(2));
      await store.claim(claimOf(campaign.id));
      const hold = {
        kind: "retry",
        notBefore: T0 + MINUTE,
        code: 131049,
        reason: "messaging_limit",
      } as const;
      await store.settle(campaign.id, 1, "worker-1", hold, T0);
      await store.settle(campaign.id, 2, "worker-1", { kind: "retry", notBefore: T0 + MINUTE }, T0);
      expect(await store.report("acme", campaign.id, T0)).toMatchObject({ pending: 2, heldForLimit: 1 });
      expect(await store.report("acme", campaign.id, T0 + MINUTE)).toMatchObject({
        pending: 2,
        heldForLimit: 0,
      });
    });
  });
}
