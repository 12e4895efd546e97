import { describe, expect, it } from "vitest";
import type { CampaignStatusUpdate } from "../../src/campaigns/index.js";
import {
  audience,
  type CampaignStores,
  claimOf,
  customer,
  DAY,
  MINUTE,
  runningCampaign,
  T0,
} from "./campaign-fixtures.js";

const HOUR = 60 * MINUTE;

/** Statuses, replies, opt-outs and reports; run by describeCampaignStoreContract. */
export function describeCampaignFeedbackContract(ports: () => CampaignStores): void {
  describe("what comes back", () => {
    /** A running campaign of `n` whose recipients were all claimed and sent (wamid.1…), at `at`. */
    async function sentCampaign(n: number, clientKey = "sent", at = T0) {
      const { store } = ports();
      const campaign = await runningCampaign(store, audience(n), { clientKey }, at);
      await store.claim(claimOf(campaign.id, { limit: n, now: at }));
      for (let seq = 1; seq <= n; seq++)
        await store.settle(
          campaign.id,
          seq,
          "worker-1",
          { kind: "sent", wamid: `wamid.${clientKey}.${seq}` },
          at,
        );
      const status = (seq: number, over: Partial<CampaignStatusUpdate>) =>
        store.applyStatus({
          campaignId: campaign.id,
          seq,
          wamid: `wamid.${clientKey}.${seq}`,
          status: "delivered",
          at,
          ...over,
        });
      return { campaign, status };
    }

    it("applies statuses forward only; failed ends a message unless it was delivered", async () => {
      const { store } = ports();
      const { campaign, status } = await sentCampaign(4);
      expect(await status(1, { status: "delivered", at: T0 + 10 })).toBe(true);
      expect(await status(1, { status: "sent", at: T0 + 5 })).toBe(true);
      expect(await status(1, { status: "read", at: T0 + 20 })).toBe(true);
      expect(await status(1, { status: "failed", at: T0 + 30, errorCode: 131047 })).toBe(true);
      expect(await status(2, { status: "failed", at: T0 + 10, errorCode: 131050 })).toBe(true);
      expect(await status(2, { status: "delivered", at: T0 + 20 })).toBe(true);
      // Meta may skip `delivered`: a read message counts as delivered too.
      expect(await status(3, { status: "read", at: T0 + 10 })).toBe(true);
      expect(await status(4, { status: "delivered", wamid: "wamid.someone-else" })).toBe(false);
      expect(await status(99, {})).toBe(false);
      expect(
        await store.applyStatus({ campaignId: "nope", seq: 1, wamid: "w", status: "sent", at: T0 }),
      ).toBe(false);
      expect(await store.report("acme", campaign.id, T0 + MINUTE)).toMatchObject({
        sent: 4,
        delivered: 2,
        read: 2,
        failed: { "131050": 1 },
      });
    });

    it("settles an unknown or still sending recipient as sent by its status, with the status's wamid", async () => {
      const { store } = ports();
      const campaign = await runningCampaign(store, audience(3));
      await store.claim(claimOf(campaign.id, { owner: "w" }));
      await store.settle(campaign.id, 1, "w", { kind: "unknown" }, T0 + 1);
      const proof = { campaignId: campaign.id, wamid: "wamid.A", status: "sent", at: T0 + 2 } as const;
      expect(await store.applyStatus({ ...proof, seq: 1 })).toBe(true);
      expect(
        await store.applyStatus({ ...proof, seq: 2, wamid: "wamid.B", status: "failed", errorCode: 131026 }),
      ).toBe(true);
      // The sender's own settle comes too late: the status has settled it.
      expect(await store.settle(campaign.id, 2, "w", { kind: "sent", wamid: "wamid.B" }, T0 + 3)).toBe(false);
      expect(await store.findByWamid("acme", "wamid.A")).toEqual({ campaignId: campaign.id, seq: 1 });
      expect(await store.findByWamid("acme", "wamid.B")).toEqual({ campaignId: campaign.id, seq: 2 });
      expect(await store.findByWamid("globex", "wamid.A")).toBeUndefined();
      expect(await store.findByWamid("acme", "wamid.none")).toBeUndefined();
      expect(await store.report("acme", campaign.id, T0 + 3)).toMatchObject({
        unknown: 0,
        sending: 1,
        sent: 2,
        failed: { "131026": 1 },
      });
    });

    it("keeps Meta's pricing of each message, counting billable ones by category", async () => {
      const { store } = ports();
      const { campaign, status } = await sentCampaign(3);
      await status(1, { status: "sent", pricingCategory: "marketing", billable: true });
      await status(1, { status: "delivered" });
      await status(1, { status: "read", pricingCategory: "marketing", billable: true });
      await status(2, { status: "sent", pricingCategory: "utility", billable: false });
      await status(3, { status: "delivered", pricingCategory: "marketing", billable: true });
      expect((await store.report("acme", campaign.id, T0))?.billable).toEqual({ marketing: 2 });
    });

    it("counts a reply once per recipient", async () => {
      const { store } = ports();
      const { campaign } = await sentCampaign(2);
      await store.recordReply(campaign.id, 1, T0 + 1);
      await store.recordReply(campaign.id, 1, T0 + 2);
      await store.recordReply(campaign.id, 9, T0 + 2);
      expect((await store.report("acme", campaign.id, T0))?.replied).toBe(1);
      await store.recordReply(campaign.id, 2, T0 + 3);
      expect((await store.report("acme", campaign.id, T0))?.replied).toBe(2);
    });

    it("counts an opt-out against the last campaign message the customer got within the span", async () => {
      const { store } = ports();
      const first = (await sentCampaign(2, "first", T0)).campaign;
      const second = (await sentCampaign(1, "second", T0 + HOUR)).campaign;
      await store.recordOptOut("acme", customer(1), T0 + 2 * HOUR, DAY);
      await store.recordOptOut("acme", customer(1), T0 + 3 * HOUR, DAY);
      await store.recordOptOut("globex", customer(2), T0 + 2 * HOUR, DAY);
      await store.recordOptOut("acme", customer(2), T0 + 2 * DAY, DAY);
      expect((await store.report("acme", first.id, T0))?.optedOut).toBe(0);
      expect((await store.report("acme", second.id, T0))?.optedOut).toBe(1);
      await store.recordOptOut("acme", customer(2), T0 + 2 * HOUR, DAY);
      expect((await store.report("acme", first.id, T0))?.optedOut).toBe(1);
    });

    it("reports every count of a campaign, and the sends per minute", async () => {
      const { store, suppressions } = ports();
      await suppressions.optOut("acme", customer(2), "button", T0);
      const members = [...audience(7), ...audience(1, 3)];
      const campaign = await runningCampaign(store, members);
      await store.claim(claimOf(campaign.id, { limit: 5 }));
      const settle = (seq: number, outcome: Parameters<typeof store.settle>[3], at: number) =>
        store.settle(campaign.id, seq, "worker-1", outcome, at);
      await settle(1, { kind: "sent", wamid: "wamid.1" }, T0 + 5_000);
      await settle(3, { kind: "sent", wamid: "wamid.3" }, T0 + 30_000);
      await settle(4, { kind: "sent", wamid: "wamid.4" }, T0 + MINUTE + 1);
      await settle(5, { kind: "failed", reason: "invalid parameter" }, T0 + MINUTE + 2);
      await store.applyStatus({
        campaignId: campaign.id,
        seq: 1,
        wamid: "wamid.1",
        status: "read",
        at: T0 + HOUR,
      });
      await store.applyStatus({
        campaignId: campaign.id,
        seq: 3,
        wamid: "wamid.3",
        status: "delivered",
        at: T0 + HOUR,
        pricingCategory: "marketing",
        billable: true,
      });
      await store.recordReply(campaign.id, 1, T0 + HOUR);
      await store.recordOptOut("acme", customer(3), T0 + HOUR, DAY);
      // A handoff counted twice for one recipient is one; a checkout by someone never reached is none.
      await store.recordConversion("acme", customer(1), "handoff", T0 + HOUR, DAY);
      await store.recordConversion("acme", customer(1), "handoff", T0 + 2 * HOUR, DAY);
      await store.recordConversion("acme", customer(3), "checkout", T0 + HOUR, DAY);
      await store.recordConversion("acme", customer(6), "checkout", T0 + HOUR, DAY);
      expect(await store.report("acme", campaign.id, T0 + HOUR)).toEqual({
        campaign,
        targeted: 8,
        pending: 1,
        heldForLimit: 0,
        sending: 1,
        unknown: 0,
        skipped: { opted_out: 1, duplicate: 1 },
        sent: 3,
        delivered: 2,
        read: 1,
        failed: { "invalid parameter": 1 },
        replied: 1,
        optedOut: 1,
        handoffs: 1,
        checkouts: 1,
        billable: { marketing: 1 },
        timeline: [
          [T0, 2],
          [T0 + MINUTE, 1],
        ],
      });
      expect(await store.report("globex", campaign.id, T0)).toBeUndefined();
    });
  });
}
