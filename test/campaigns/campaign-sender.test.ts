import { afterEach, describe, expect, it } from "vitest";
import type { CampaignRecipient } from "../../src/campaigns/index.js";
import {
  members,
  NUMBER,
  type RunnerHarness,
  startRunnerHarness,
  TENANT,
} from "./campaign-runner-harness.js";

let harness: RunnerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function claimOne(h: RunnerHarness, id: string): Promise<CampaignRecipient | undefined> {
  const { recipients } = await h.store.claim({
    campaignId: id,
    owner: "test",
    limit: 1,
    now: Date.now(),
    leaseMs: 60_000,
    quietTimezones: [],
    windowMs: 86_400_000,
  });
  return recipients[0];
}

describe("campaign sends and replies on one number", () => {
  it("gives way to replies: while replies hold the number's next second, the campaign waits, then sends without spending attempts", async () => {
    // 10 messages/s on the number: replies reserve the next second's slots, as a burst of answers would.
    harness = await startRunnerHarness({ numberMps: 10, campaignMps: 8 });
    const id = await harness.launch(members(3));
    const reservedAt = Date.now();
    for (let i = 0; i < 10; i++) {
      const slot = await harness.numberLimiter.reserve(NUMBER, `23490000000${i}`);
      expect(slot.granted).toBe(true);
    }
    harness.run();
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The campaign has asked and been refused; it reserved nothing, so the next reply is next in line
    // (a campaign that queued for slots would have pushed it back by its three sends).
    const reply = await harness.numberLimiter.reserve(NUMBER, "234900000099");
    expect(reply.granted).toBe(true);
    expect(reply.waitMs).toBeLessThan(
      Date.now() - reservedAt < 1000 ? 1000 - (Date.now() - reservedAt) + 50 : 50,
    );
    await expect
      .poll(async () => (await harness?.store.get(TENANT, id))?.state, { timeout: 10_000, interval: 50 })
      .toBe("completed");
    const sends = harness.fake.fake.messages().filter((m) => m.type === "template");
    expect(sends).toHaveLength(3);
    // No campaign send took a slot a reply held: the first one is after the replies' second.
    expect(Math.min(...sends.map((m) => m.receivedAt)) - reservedAt).toBeGreaterThanOrEqual(850);
    const report = await harness.store.report(TENANT, id, Date.now());
    expect(report).toMatchObject({ sent: 3, failed: {} });
  });

  it("sends a campaign message once replies leave a slot free, at no more than its share of the number", async () => {
    harness = await startRunnerHarness({ numberMps: 20, campaignMps: 16 });
    const id = await harness.launch(members(40));
    const started = Date.now();
    harness.run();
    await expect
      .poll(async () => (await harness?.store.get(TENANT, id))?.state, { timeout: 15_000, interval: 50 })
      .toBe("completed");
    const seconds = (Date.now() - started) / 1000;
    // 40 sends at 16/s take about 2.5 s; never faster than the share allows (a burst of 2 aside).
    expect(seconds).toBeGreaterThan((40 - 2) / 16 - 0.3);
    const sends = harness.fake.fake.messages().filter((m) => m.type === "template");
    expect(sends).toHaveLength(40);
    expect(await claimOne(harness, id)).toBeUndefined();
  });
});
