import { afterEach, describe, expect, it, vi } from "vitest";
import { campaignCallbackData } from "../../src/campaigns/index.js";
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

const reportOf = (h: RunnerHarness, id: string) =>
  h.store.report(TENANT, id, Date.now()).then((r) => r as NonNullable<typeof r>);

describe("the campaign runner", () => {
  it("sends each recipient its template once, with its parameters and callback data, then completes", async () => {
    harness = await startRunnerHarness();
    const id = await harness.launch(members(60));
    harness.run();
    harness.run({ owner: "second-worker" });
    await vi.waitFor(async () => expect((await harness?.store.get(TENANT, id))?.state).toBe("completed"), {
      timeout: 15_000,
      interval: 25,
    });
    const sends = harness.sendsByCustomer();
    expect(sends.size).toBe(60);
    expect([...sends.values()].every((count) => count === 1)).toBe(true);
    const first = harness.fake.fake.messages().find((m) => m.to === "+2348000000001");
    expect(first?.body).toMatchObject({
      type: "template",
      template: {
        name: "december_sale",
        language: { code: "en" },
        components: [
          {
            type: "body",
            parameters: [
              { type: "text", text: "Customer 1" },
              { type: "text", text: "20%" },
            ],
          },
        ],
      },
      biz_opaque_callback_data: campaignCallbackData(id, 1),
    });
    expect(await reportOf(harness, id)).toMatchObject({
      targeted: 60,
      sent: 60,
      pending: 0,
      sending: 0,
      unknown: 0,
    });
  });

  it("holds recipients past the messaging limit for the next window: 1,000 of 1,500 sent, none refused by Meta", async () => {
    harness = await startRunnerHarness({ fake: { messagingLimit: { uniqueRecipients: 1_000 } } });
    const id = await harness.launch(members(1_500));
    harness.run({ messagingLimit: 1_000 });
    await vi.waitFor(async () => expect((await reportOf(harness as RunnerHarness, id)).sent).toBe(1_000), {
      timeout: 30_000,
      interval: 25,
    });
    // Give it time to (wrongly) send more.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const report = await reportOf(harness, id);
    expect(report).toMatchObject({ sent: 1_000, pending: 500, heldForLimit: 500, sending: 0 });
    expect(report.campaign.state).toBe("running");
    expect(harness.fake.fake.messagingLimit()).toMatchObject({ used: 1_000, refused: 0 });
  });

  it("records Meta's per-user marketing cap (131049) for the recipient and never retries it", async () => {
    harness = await startRunnerHarness({
      fake: {
        faults: { forcedErrors: [{ code: 131049, recipients: ["+2348000000002", "+2348000000004"] }] },
      },
    });
    const id = await harness.launch(members(5));
    harness.run();
    await vi.waitFor(async () => expect((await harness?.store.get(TENANT, id))?.state).toBe("completed"), {
      timeout: 15_000,
      interval: 25,
    });
    const report = await reportOf(harness, id);
    expect(report).toMatchObject({ sent: 3, failed: { "131049": 2 } });
    // One attempt each: refused, recorded, not sent again.
    const refused = harness.fake.fake
      .requests()
      .filter((r) => r.kind === "send" && JSON.stringify(r).includes("131049"));
    expect(refused.length).toBe(2);
  });

  it("skips customers on the suppression list", async () => {
    harness = await startRunnerHarness();
    await harness.store.suppressions.optOut(TENANT, "2348000000003", "keyword", Date.now());
    const id = await harness.launch(members(4));
    harness.run();
    await vi.waitFor(async () => expect((await harness?.store.get(TENANT, id))?.state).toBe("completed"), {
      timeout: 15_000,
      interval: 25,
    });
    expect(harness.sendsByCustomer().has("2348000000003")).toBe(false);
    expect(await reportOf(harness, id)).toMatchObject({ sent: 3, skipped: { opted_out: 1 } });
  });

  it("stops sending within a second of a cancel, and skips the rest", async () => {
    harness = await startRunnerHarness({ numberMps: 50, campaignMps: 40 });
    const id = await harness.launch(members(400));
    harness.run();
    await vi.waitFor(
      async () => expect((await reportOf(harness as RunnerHarness, id)).sent).toBeGreaterThan(20),
      { timeout: 10_000, interval: 25 },
    );
    await harness.store.transition(TENANT, id, ["running"], "cancelled", Date.now());
    const cancelledAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const late = harness.fake.fake.messages().filter((m) => m.receivedAt > cancelledAt + 1_000);
    expect(late).toEqual([]);
    const report = await reportOf(harness, id);
    expect(report.sent).toBeLessThan(400);
    expect(report.skipped.cancelled).toBe(400 - report.sent - report.sending - report.unknown);
  });

  it("pauses the number's running campaigns when Meta flags its quality (RED), and goes on when resumed", async () => {
    harness = await startRunnerHarness({ numberMps: 50, campaignMps: 40 });
    const id = await harness.launch(members(200));
    harness.run();
    await vi.waitFor(
      async () => expect((await reportOf(harness as RunnerHarness, id)).sent).toBeGreaterThan(10),
      { timeout: 10_000, interval: 25 },
    );
    await harness.qualityUpdate("FLAGGED");
    const paused = await harness.store.get(TENANT, id);
    expect(paused).toMatchObject({ state: "paused", stateReason: "quality_red" });
    expect(await harness.store.standings.get(NUMBER)).toMatchObject({
      quality: "RED",
      messagingLimit: 2_000,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const sentWhilePaused = (await reportOf(harness, id)).sent;
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await reportOf(harness, id)).sent).toBe(sentWhilePaused);
    await harness.qualityUpdate("UNFLAGGED");
    await harness.store.transition(TENANT, id, ["paused"], "running", Date.now());
    await vi.waitFor(async () => expect((await harness?.store.get(TENANT, id))?.state).toBe("completed"), {
      timeout: 15_000,
      interval: 25,
    });
    expect([...harness.sendsByCustomer().values()].every((count) => count === 1)).toBe(true);
  });

  it("pauses a campaign started while its number is still RED, and sends once Meta lifts the flag", async () => {
    harness = await startRunnerHarness();
    await harness.store.standings.set({ phoneNumberId: NUMBER, quality: "RED", updatedAt: Date.now() });
    const id = await harness.launch(members(5));
    harness.run();
    await vi.waitFor(
      async () =>
        expect(await harness?.store.get(TENANT, id)).toMatchObject({
          state: "paused",
          stateReason: "quality_red",
        }),
      { timeout: 5_000, interval: 25 },
    );
    expect(harness.fake.fake.messages()).toEqual([]);
    await harness.qualityUpdate("UNFLAGGED");
    await harness.store.transition(TENANT, id, ["paused"], "running", Date.now());
    await vi.waitFor(async () => expect((await harness?.store.get(TENANT, id))?.state).toBe("completed"), {
      timeout: 10_000,
      interval: 25,
    });
    expect(harness.sendsByCustomer().size).toBe(5);
  });

  it("never sends again at once when Meta's answer is lost; a status carrying the callback data settles it", async () => {
    harness = await startRunnerHarness({ timeoutMs: 300 });
    harness.fake.fake.setFaults({ hangRate: 1 });
    const id = await harness.launch(members(1));
    harness.run({ unknownGraceMs: 60_000 });
    await vi.waitFor(async () => expect((await reportOf(harness as RunnerHarness, id)).unknown).toBe(1), {
      timeout: 10_000,
      interval: 25,
    });
    harness.fake.fake.setFaults({ hangRate: 0 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    // The fake did take the send before it hung: Meta would have sent it. No second send.
    expect(harness.fake.fake.messages().filter((m) => m.type === "template").length).toBeLessThanOrEqual(1);
    expect(await harness.store.get(TENANT, id)).toMatchObject({ state: "running" });
    const applied = await harness.events.onStatus({
      kind: "status",
      dedupeId: "s1",
      tenantId: TENANT,
      phoneNumberId: NUMBER,
      wamid: "wamid.lost-answer",
      status: "sent",
      timestamp: Date.now(),
      receivedAt: Date.now(),
      recipient: { waId: "2348000000001" },
      bizOpaqueCallbackData: campaignCallbackData(id, 1),
      pricing: { billable: true, pricing_model: "PMP", type: "regular", category: "marketing" },
    });
    expect(applied).toBe(true);
    await vi.waitFor(async () => expect((await harness?.store.get(TENANT, id))?.state).toBe("completed"), {
      timeout: 10_000,
      interval: 25,
    });
    expect(await reportOf(harness, id)).toMatchObject({ sent: 1, unknown: 0, billable: { marketing: 1 } });
  });

  it("sends an unknown recipient again once the grace has passed with no status", async () => {
    harness = await startRunnerHarness({ timeoutMs: 300 });
    harness.fake.fake.setFaults({ hangRate: 1 });
    const id = await harness.launch(members(1));
    harness.run({ unknownGraceMs: 400 });
    await vi.waitFor(async () => expect((await reportOf(harness as RunnerHarness, id)).unknown).toBe(1), {
      timeout: 10_000,
      interval: 25,
    });
    harness.fake.fake.setFaults({ hangRate: 0 });
    await vi.waitFor(async () => expect((await harness?.store.get(TENANT, id))?.state).toBe("completed"), {
      timeout: 10_000,
      interval: 25,
    });
    expect(await reportOf(harness, id)).toMatchObject({ sent: 1, unknown: 0 });
  });

  it("resends an unknown left by a dead runner only once it has itself been up for the grace", async () => {
    harness = await startRunnerHarness();
    const id = await harness.launch(members(1));
    // A runner claimed it 10 s ago and died; recovery found it 8 s ago: unknown longer than the grace.
    const claimedAt = Date.now() - 10_000;
    const dead = await harness.store.claim({
      campaignId: id,
      owner: "dead-runner",
      limit: 1,
      now: claimedAt,
      leaseMs: 1_000,
      quietTimezones: [],
      windowMs: 86_400_000,
    });
    expect(dead.recipients).toHaveLength(1);
    expect(await harness.store.recover(Date.now() - 8_000, 60_000)).toEqual({ unknown: 1, resent: 0 });
    const started = Date.now();
    harness.run({ unknownGraceMs: 1_000 });
    // Its status may be in Meta's retries while no gateway ran: this runner waits a grace of its own.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(harness.sendsByCustomer().size).toBe(0);
    expect((await reportOf(harness, id)).unknown).toBe(1);
    await vi.waitFor(async () => expect((await harness?.store.get(TENANT, id))?.state).toBe("completed"), {
      timeout: 10_000,
      interval: 25,
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect([...harness.sendsByCustomer().values()]).toEqual([1]);
  });
});
