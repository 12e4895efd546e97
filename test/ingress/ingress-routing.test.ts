import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  APP_SECRET,
  createIngressHarness,
  type IngressHarness,
  testTenant,
} from "../support/ingress-harness.js";
import { fixtureBytes } from "../support/meta-fixtures.js";
import { skipWithoutRedis } from "../support/redis.js";

describe.skipIf(skipWithoutRedis)("routing by business number", () => {
  let h: IngressHarness;
  beforeAll(async () => {
    h = await createIngressHarness({
      label: "routing",
      extraTenants: [
        // Served by the same Meta app as `default` (same app secret): Meta posts its numbers to the same URL.
        testTenant("second-shop", APP_SECRET, "second-verify", ["109876543210987"]),
        // Another app: its secret never verified the body, so it never receives another tenant's posts.
        testTenant("other-app", "other-secret", "other-verify", ["120000000000001"]),
      ],
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  it("records each entry under the tenant that owns its phone_number_id when they share the Meta app", async () => {
    expect((await h.post(fixtureBytes("inbound-batch-two-entries"))).statusCode).toBe(200);
    expect((await h.queues.inbox.read("default:106540352242922:2348012345678")).length).toBe(1);
    const second = await h.queues.inbox.read("second-shop:109876543210987:2347031234567");
    expect(second.map((m) => m.tenantId)).toEqual(["second-shop"]);
  });

  it("records a number owned by a tenant of another app under the verifying tenant, never answers it, and says so once", async () => {
    const body = fixtureBytes("inbound-text").toString().replaceAll("106540352242922", "120000000000001");
    expect((await h.post(body)).statusCode).toBe(200);
    // No inbox, so no turn: answering would send from that number with this tenant's token.
    const keys = await h.admin.zrange(`${h.prefix}:inboxes`, 0, -1);
    expect(keys.filter((key) => key.includes("120000000000001"))).toEqual([]);
    const events = await h.queues.events.entries();
    const recorded = events.map((entry) => entry.event).filter((event) => event.kind === "message");
    expect(recorded).toEqual([
      expect.objectContaining({
        tenantId: "default",
        message: expect.objectContaining({
          conversationKey: expect.stringMatching(/^default:120000000000001:/),
          unanswerable: "unlisted_number",
        }),
      }),
    ]);
    expect(h.logLines.join("")).toMatch(/does not list in phoneNumberIds.*not answered/);
    const counted = await h.metrics.unanswered.get();
    expect(counted.values).toEqual([{ labels: { tenant: "default", reason: "unlisted_number" }, value: 1 }]);
  });
});
