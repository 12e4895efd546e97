import { beforeEach, describe, expect, it } from "vitest";
import { describeCampaignClaimsContract } from "./campaign-claims.contract.js";
import { describeCampaignFeedbackContract } from "./campaign-feedback.contract.js";
import {
  audience,
  type CampaignStores,
  claimOf,
  customer,
  definition,
  MINUTE,
  NUMBER,
  type OpenCampaignStores,
  runningCampaign,
  T0,
} from "./campaign-fixtures.js";

/**
 * The behaviour every adapter of `CampaignStore`, `SuppressionList` and `NumberStandings` must have
 * (SQLite and PostgreSQL). Claims and what comes back of the messages have suites of their own, run
 * from here so that every runner gets them.
 */
export function describeCampaignStoreContract(name: string, open: OpenCampaignStores): void {
  describe(`CampaignStore contract: ${name}`, () => {
    let ports: CampaignStores;
    beforeEach(async () => {
      ports = await open();
    });

    it("creates a draft with its audience, once per tenant and client key", async () => {
      const { store } = ports;
      const def = definition({
        startAt: T0 + 3_600_000,
        quietHours: { start: "21:00", end: "08:00" },
        sendRateMps: 12.5,
      });
      const first = await store.create(def, audience(3), T0);
      expect(first.created).toBe(true);
      expect(first.campaign).toEqual({
        ...def,
        id: expect.any(String),
        state: "draft",
        audienceSize: 3,
        createdAt: T0,
        updatedAt: T0,
      });
      // The same key answers the campaign made, whatever audience comes with it.
      const again = await store.create({ ...def, name: "renamed" }, audience(7), T0 + 5);
      expect(again).toEqual({ campaign: first.campaign, created: false });
      expect((await store.report("acme", first.campaign.id, T0))?.targeted).toBe(3);
      // Another tenant may use the same key.
      const other = await store.create({ ...def, tenantId: "globex" }, audience(1), T0);
      expect(other.created).toBe(true);
      expect(other.campaign.id).not.toBe(first.campaign.id);
      expect(await store.get("acme", first.campaign.id)).toEqual(first.campaign);
      expect(await store.get("globex", first.campaign.id)).toBeUndefined();
      expect(await store.get("acme", "nope")).toBeUndefined();
    });

    it("keeps a customer listed twice once, the others counted as skipped duplicates", async () => {
      const { store } = ports;
      const members = [
        ...audience(3),
        { customerId: customer(2), kind: "to" as const, params: ["again"] },
        ...audience(1, 1),
      ];
      const campaign = await runningCampaign(store, members);
      expect(campaign.audienceSize).toBe(5);
      const report = await store.report("acme", campaign.id, T0);
      expect(report).toMatchObject({ targeted: 5, pending: 3, skipped: { duplicate: 2 } });
      const claimed = await store.claim(claimOf(campaign.id, { owner: "w", limit: 10 }));
      // The first listing is kept, with its parameters; seq is the place in the audience.
      expect(claimed.recipients.map((r) => [r.seq, r.customerId, r.params[0]])).toEqual([
        [1, customer(1), "Customer 1"],
        [2, customer(2), "Customer 2"],
        [3, customer(3), "Customer 3"],
      ]);
    });

    it("lists a tenant's campaigns newest first, or every tenant's", async () => {
      const { store } = ports;
      const a = (await store.create(definition({ clientKey: "a" }), [], T0)).campaign;
      const b = (await store.create(definition({ clientKey: "b" }), [], T0 + 1)).campaign;
      const c = (await store.create(definition({ clientKey: "c", tenantId: "globex" }), [], T0 + 2)).campaign;
      expect((await store.list("acme")).map((x) => x.id)).toEqual([b.id, a.id]);
      expect((await store.list()).map((x) => x.id)).toEqual([c.id, b.id, a.id]);
      expect(await store.list("nobody")).toEqual([]);
    });

    it("moves a campaign only from one of the states given, keeping the reason of the move", async () => {
      const { store } = ports;
      const { campaign } = await store.create(definition(), audience(2), T0);
      expect(await store.transition("acme", campaign.id, ["running"], "paused", T0 + 1)).toBeUndefined();
      expect(await store.transition("globex", campaign.id, ["draft"], "scheduled", T0 + 1)).toBeUndefined();
      expect(await store.get("acme", campaign.id)).toMatchObject({ state: "draft", updatedAt: T0 });
      await store.transition("acme", campaign.id, ["draft"], "running", T0 + 1);
      const paused = await store.transition(
        "acme",
        campaign.id,
        ["running"],
        "paused",
        T0 + 2,
        "quality_red",
      );
      expect(paused).toMatchObject({ state: "paused", stateReason: "quality_red", updatedAt: T0 + 2 });
      const resumed = await store.transition("acme", campaign.id, ["paused"], "running", T0 + 3);
      expect(resumed?.state).toBe("running");
      expect(resumed?.stateReason).toBeUndefined();
      // Paused while nothing is claimed: claims answer nothing.
      await store.transition("acme", campaign.id, ["running"], "paused", T0 + 4, "operator");
      const none = await store.claim(claimOf(campaign.id, { owner: "w", limit: 5, now: T0 + 5 }));
      expect(none.recipients).toEqual([]);
    });

    it("cancelling skips the pending recipients, in the same move; claims already made are settled as usual", async () => {
      const { store } = ports;
      const campaign = await runningCampaign(store, audience(5));
      const claimed = await store.claim(claimOf(campaign.id, { owner: "w", limit: 2 }));
      const cancelled = await store.transition(
        "acme",
        campaign.id,
        ["running", "paused"],
        "cancelled",
        T0 + 1,
        "operator",
      );
      expect(cancelled).toMatchObject({ state: "cancelled", stateReason: "operator" });
      expect(await store.report("acme", campaign.id, T0 + 1)).toMatchObject({
        pending: 0,
        sending: 2,
        skipped: { cancelled: 3 },
      });
      expect(
        await store.settle(
          campaign.id,
          claimed.recipients[0]?.seq ?? 0,
          "w",
          { kind: "sent", wamid: "wamid.A" },
          T0 + 2,
        ),
      ).toBe(true);
      expect(
        await store.transition("acme", campaign.id, ["running", "paused"], "cancelled", T0 + 3),
      ).toBeUndefined();
    });

    it("starts scheduled campaigns whose time has come and answers every running one", async () => {
      const { store } = ports;
      const soon = (await store.create(definition({ clientKey: "soon", startAt: T0 + 10 }), [], T0)).campaign;
      const later = (await store.create(definition({ clientKey: "later", startAt: T0 + MINUTE }), [], T0))
        .campaign;
      const now = (await store.create(definition({ clientKey: "now", phoneNumberId: "999" }), [], T0))
        .campaign;
      const draft = (await store.create(definition({ clientKey: "draft" }), [], T0)).campaign;
      for (const c of [soon, later, now]) await store.transition("acme", c.id, ["draft"], "scheduled", T0);
      expect(await store.runnable(T0)).toEqual([expect.objectContaining({ id: now.id, state: "running" })]);
      const running = await store.runnable(T0 + 10);
      expect(running.map((c) => c.id).sort()).toEqual([soon.id, now.id].sort());
      expect(await store.get("acme", later.id)).toMatchObject({ state: "scheduled" });
      expect(await store.get("acme", draft.id)).toMatchObject({ state: "draft" });
      expect((await store.runningOnNumber(NUMBER)).map((c) => c.id)).toEqual([soon.id]);
      expect((await store.runningOnNumber("999")).map((c) => c.id)).toEqual([now.id]);
      expect(await store.runningOnNumber("000")).toEqual([]);
    });

    it("completes a running campaign only when nothing is pending, sending or unknown", async () => {
      const { store } = ports;
      const campaign = await runningCampaign(store, audience(2));
      expect(await store.completeIfDone(campaign.id, T0)).toBe(false);
      const { recipients } = await store.claim(claimOf(campaign.id, { owner: "w", limit: 5 }));
      expect(recipients.map((r) => r.seq)).toEqual([1, 2]);
      expect(await store.completeIfDone(campaign.id, T0)).toBe(false);
      await store.settle(campaign.id, 1, "w", { kind: "sent", wamid: "w1" }, T0);
      await store.settle(campaign.id, 2, "w", { kind: "unknown" }, T0);
      expect(await store.completeIfDone(campaign.id, T0)).toBe(false);
      await store.applyStatus({
        campaignId: campaign.id,
        seq: 2,
        wamid: "w2",
        status: "sent",
        at: T0 + 1,
      });
      expect(await store.completeIfDone(campaign.id, T0 + 2)).toBe(true);
      expect(await store.get("acme", campaign.id)).toMatchObject({ state: "completed", updatedAt: T0 + 2 });
      expect(await store.completeIfDone(campaign.id, T0 + 3)).toBe(false);
    });

    it("keeps a tenant's suppression list: first source kept, opt-in answers whether it was on it", async () => {
      const { suppressions } = ports;
      expect(await suppressions.isSuppressed("acme", customer(1))).toBe(false);
      await suppressions.optOut("acme", customer(1), "keyword", T0);
      await suppressions.optOut("acme", customer(1), "button", T0 + 1);
      await suppressions.optOut("acme", customer(2), "import", T0);
      expect(await suppressions.isSuppressed("acme", customer(1))).toBe(true);
      expect(await suppressions.isSuppressed("globex", customer(1))).toBe(false);
      expect(await suppressions.count("acme")).toBe(2);
      expect(await suppressions.optIn("acme", customer(1))).toBe(true);
      expect(await suppressions.optIn("acme", customer(1))).toBe(false);
      expect(await suppressions.isSuppressed("acme", customer(1))).toBe(false);
      expect(await suppressions.count("acme")).toBe(1);
      expect(await suppressions.count("globex")).toBe(0);
    });

    it("keeps each number's latest standing", async () => {
      const { standings } = ports;
      expect(await standings.get(NUMBER)).toBeUndefined();
      await standings.set({ phoneNumberId: NUMBER, messagingLimit: 1_000, quality: "GREEN", updatedAt: T0 });
      await standings.set({ phoneNumberId: "999", quality: "UNKNOWN", updatedAt: T0 });
      expect(await standings.get(NUMBER)).toEqual({
        phoneNumberId: NUMBER,
        messagingLimit: 1_000,
        quality: "GREEN",
        updatedAt: T0,
      });
      await standings.set({ phoneNumberId: NUMBER, quality: "RED", updatedAt: T0 + 2 });
      // An older webhook arriving late changes nothing.
      await standings.set({
        phoneNumberId: NUMBER,
        messagingLimit: 250,
        quality: "YELLOW",
        updatedAt: T0 + 1,
      });
      expect(await standings.get(NUMBER)).toEqual({
        phoneNumberId: NUMBER,
        quality: "RED",
        updatedAt: T0 + 2,
      });
      expect(await standings.get("999")).toEqual({ phoneNumberId: "999", quality: "UNKNOWN", updatedAt: T0 });
    });

    describeCampaignClaimsContract(() => ports);
    describeCampaignFeedbackContract(() => ports);
  });
}
