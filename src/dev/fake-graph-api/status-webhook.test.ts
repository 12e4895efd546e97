import { describe, expect, it } from "vitest";
import { fixtureJson } from "../../../test/support/meta-fixtures.js";
import { parseWebhook } from "../../whatsapp/index.js";
import { buildStatusWebhook } from "./status-webhook.js";

const spec = {
  wamid: "wamid.HBgNMjM0ODAxMjM0NTY3OBUCABEYEkIxQUZFRkM4Q0IwRTE5MzY1MgA=",
  timestamp: 1795166401,
  wabaId: "114098765432109",
  phoneNumberId: "106540352242922",
  displayPhoneNumber: "2349012345678",
  recipientId: "2348012345678",
  recipientUserId: "NG.4815162342108765432",
};

describe("buildStatusWebhook", () => {
  it("writes a sent status exactly in Meta's shape (status-sent.json), as compact JSON", () => {
    const body = buildStatusWebhook({ ...spec, status: "sent" });
    expect(JSON.parse(body)).toEqual(fixtureJson("status-sent"));
    expect(body).not.toMatch(/\n| {2}/);
  });

  it("puts errors on failed, no pricing on read, and escapes non-ASCII as \\uXXXX", () => {
    const failed = JSON.parse(
      buildStatusWebhook({
        ...spec,
        status: "failed",
        errors: [{ code: 131047, title: "Re-engagement message" }],
      }),
    );
    expect(failed.entry[0].changes[0].value.statuses[0].errors).toEqual([
      { code: 131047, title: "Re-engagement message" },
    ]);
    expect(failed.entry[0].changes[0].value.statuses[0].pricing).toBeUndefined();
    const read = JSON.parse(buildStatusWebhook({ ...spec, status: "read" }));
    expect(read.entry[0].changes[0].value.statuses[0].pricing).toBeUndefined();
    const naira = buildStatusWebhook({ ...spec, status: "failed", errors: [{ code: 1, title: "₦ 😀" }] });
    expect(naira).toContain("\\u20a6 \\ud83d\\ude00");
    expect(Buffer.byteLength(naira)).toBe(naira.length);
  });

  it("prices a template in its category where asked (read too), never a failed status", () => {
    const statusIn = (body: string) => JSON.parse(body).entry[0].changes[0].value.statuses[0];
    const read = statusIn(
      buildStatusWebhook({
        ...spec,
        status: "read",
        messageType: "template",
        templateCategory: "marketing",
        priced: true,
      }),
    );
    expect(read.pricing).toEqual({
      billable: true,
      pricing_model: "PMP",
      type: "regular",
      category: "marketing",
    });
    const delivered = statusIn(buildStatusWebhook({ ...spec, status: "delivered", priced: false }));
    expect(delivered.pricing).toBeUndefined();
    const failed = statusIn(buildStatusWebhook({ ...spec, status: "failed", priced: true }));
    expect(failed.pricing).toBeUndefined();
  });

  it("is read back by the ingress's own parser as a status event", () => {
    const parsed = parseWebhook(JSON.parse(buildStatusWebhook({ ...spec, status: "delivered" })), {
      tenantId: "default",
      receivedAt: 0,
    });
    expect(parsed.events).toMatchObject([
      { kind: "status", status: "delivered", wamid: spec.wamid, recipient: { waId: "2348012345678" } },
    ]);
  });
});
