import { describe, expect, it } from "vitest";
import type { CampaignStatusUpdate } from "./campaign-types.js";
import { progressOf, type StatusFields } from "./status-progress.js";

const sent: StatusFields = {
  state: "sent",
  wamid: "w1",
  status: null,
  errorCode: null,
  sentAt: 10,
  deliveredAt: null,
  readAt: null,
  failedAt: null,
  pricingCategory: null,
  billable: null,
};
const update = (over: Partial<CampaignStatusUpdate>): CampaignStatusUpdate => ({
  campaignId: "c",
  seq: 1,
  wamid: "w1",
  status: "delivered",
  at: 20,
  ...over,
});

describe("progressOf", () => {
  it("moves forward only, keeping the earliest time of each step", () => {
    const read = progressOf(sent, update({ status: "read", at: 30 }));
    expect(read).toMatchObject({ status: "read", readAt: 30, deliveredAt: 30 });
    const late = progressOf(read as StatusFields, update({ status: "delivered", at: 25 }));
    expect(late).toMatchObject({ status: "read", deliveredAt: 25, readAt: 30 });
  });

  it("ends a message on failed unless it was delivered, and a failed one for good", () => {
    const failed = progressOf(sent, update({ status: "failed", at: 40, errorCode: 131026 }));
    expect(failed).toMatchObject({ state: "failed", status: "failed", failedAt: 40, errorCode: 131026 });
    expect(progressOf(failed as StatusFields, update({ status: "read" }))).toBe(failed);
    const delivered = progressOf(sent, update({})) as StatusFields;
    expect(progressOf(delivered, update({ status: "failed" }))).toMatchObject({
      state: "sent",
      status: "delivered",
    });
  });

  it("settles an unsettled recipient as sent with the status's wamid; refuses another message's", () => {
    const unknown: StatusFields = { ...sent, state: "unknown", wamid: null, sentAt: null };
    expect(progressOf(unknown, update({ status: "sent", wamid: "w9", at: 50 }))).toMatchObject({
      state: "sent",
      wamid: "w9",
      sentAt: 50,
      status: "sent",
    });
    expect(progressOf(sent, update({ wamid: "w2" }))).toBeUndefined();
  });

  it("keeps pricing when a status carries it", () => {
    const priced = progressOf(sent, update({ pricingCategory: "marketing", billable: true })) as StatusFields;
    expect(progressOf(priced, update({ status: "read" }))).toMatchObject({
      pricingCategory: "marketing",
      billable: true,
    });
  });
});
