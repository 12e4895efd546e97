import { afterEach, describe, expect, it } from "vitest";
import { isValidSignature } from "../../ingress/index.js";
import { createLogger } from "../../observability/index.js";
import { parseWebhook } from "../../whatsapp/index.js";
import { createFakeGraphApi } from "./create-fake-graph-api.js";
import { buildPhoneNumberQualityWebhook } from "./phone-number-quality-webhook.js";
import { buildTemplateStatusWebhook } from "./template-status-webhook.js";
import { startWebhookReceiver } from "./webhook-receiver.test-support.js";

const SECRET = "app-secret";
const NOW = 1_795_166_401_000;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function setUp() {
  const receiver = await startWebhookReceiver();
  const fake = createFakeGraphApi(
    { logger: createLogger({ level: "silent" }), now: () => NOW },
    {
      tokens: ["t"],
      business: { wabaId: "102290129340398", displayPhoneNumber: "15550783881" },
      templateCategories: { spring_sale: "marketing" },
    },
  );
  cleanups.push(() => fake.close(), receiver.close);
  const target = { webhookUrl: receiver.url, appSecret: SECRET };
  return { fake, receiver, target };
}

describe("phone_number_quality_update and message_template_status_update webhooks", () => {
  it("posts a signed phone_number_quality_update in Meta's shape, from code and over /_fake/webhooks", async () => {
    const { fake, receiver, target } = await setUp();
    const result = await fake.postPhoneNumberQuality({
      ...target,
      event: "UPGRADE",
      oldLimit: "TIER_250",
      currentLimit: "TIER_2K",
    });
    expect(result).toEqual({ status: 200, body: "EVENT_RECEIVED" });
    const overHttp = await fake.app.inject({
      method: "POST",
      url: "/_fake/webhooks/phone-number-quality",
      payload: { ...target, event: "FLAGGED", currentLimit: "TIER_2K" },
    });
    expect(overHttp.json()).toEqual({ status: 200, body: "EVENT_RECEIVED" });

    const [upgrade, flagged] = await receiver.waitFor(2);
    for (const webhook of [upgrade, flagged]) {
      expect(isValidSignature(webhook?.raw as Buffer, webhook?.headers["x-hub-signature-256"], SECRET)).toBe(
        true,
      );
      expect(isValidSignature(webhook?.raw as Buffer, webhook?.headers["x-hub-signature-256"], "other")).toBe(
        false,
      );
    }
    expect(upgrade?.json).toEqual({
      entry: [
        {
          id: "102290129340398",
          time: 1795166401,
          changes: [
            {
              value: {
                display_phone_number: "15550783881",
                event: "UPGRADE",
                old_limit: "TIER_250",
                current_limit: "TIER_2K",
              },
              field: "phone_number_quality_update",
            },
          ],
        },
      ],
      object: "whatsapp_business_account",
    });
    expect(flagged?.json.entry[0]?.changes[0]?.value).toEqual({
      display_phone_number: "15550783881",
      event: "FLAGGED",
      current_limit: "TIER_2K",
    });
  });

  it("posts a signed message_template_status_update, filling id, language and category from the catalog", async () => {
    const { fake, receiver, target } = await setUp();
    await fake.postTemplateStatus({ ...target, event: "APPROVED", templateName: "order_update" });
    const paused = await fake.app.inject({
      method: "POST",
      url: "/_fake/webhooks/template-status",
      payload: {
        ...target,
        event: "PAUSED",
        templateName: "spring_sale",
        templateId: "1689556908129832",
        templateLanguage: "en_US",
        otherInfo: { title: "FIRST_PAUSE", description: "Your template has been paused for 3 hours." },
      },
    });
    expect(paused.json()).toMatchObject({ status: 200 });

    const [approved, pausedHook] = await receiver.waitFor(2);
    for (const webhook of [approved, pausedHook]) {
      expect(isValidSignature(webhook?.raw as Buffer, webhook?.headers["x-hub-signature-256"], SECRET)).toBe(
        true,
      );
      expect(webhook?.json).toMatchObject({
        object: "whatsapp_business_account",
        entry: [
          { id: "102290129340398", time: 1795166401, changes: [{ field: "message_template_status_update" }] },
        ],
      });
    }
    expect(approved?.json.entry[0]?.changes[0]?.value).toEqual({
      event: "APPROVED",
      message_template_id: 1000000000000002,
      message_template_name: "order_update",
      message_template_language: "en",
      reason: "NONE",
      message_template_category: "UTILITY",
    });
    expect(pausedHook?.json.entry[0]?.changes[0]?.value).toEqual({
      event: "PAUSED",
      message_template_id: 1689556908129832,
      message_template_name: "spring_sale",
      message_template_language: "en_US",
      reason: "NONE",
      message_template_category: "MARKETING",
      other_info: { title: "FIRST_PAUSE", description: "Your template has been paused for 3 hours." },
    });
  });

  it("refuses what Meta would never send: unknown events, tiers, and a template with no id", async () => {
    const { fake, receiver, target } = await setUp();
    const post = (url: string, payload: Record<string, unknown>) =>
      fake.app.inject({ method: "POST", url, payload: { ...target, ...payload } });
    expect(
      (await post("/_fake/webhooks/phone-number-quality", { event: "BETTER", currentLimit: "TIER_2K" }))
        .statusCode,
    ).toBe(400);
    expect(
      (await post("/_fake/webhooks/phone-number-quality", { event: "UPGRADE", currentLimit: "TIER_3K" }))
        .statusCode,
    ).toBe(400);
    const noId = await post("/_fake/webhooks/template-status", {
      event: "REJECTED",
      templateName: "not_in_catalog",
    });
    expect(noId.statusCode).toBe(400);
    expect(noId.json().message).toMatch(/templateId is required/);
    expect(receiver.received).toHaveLength(0);
  });
});

describe("account webhook builders", () => {
  it("write compact JSON with \\uXXXX escapes that the ingress reads as change events", () => {
    const quality = buildPhoneNumberQualityWebhook({
      wabaId: "114098765432109",
      timestamp: 1795166401,
      displayPhoneNumber: "2349012345678",
      event: "DOWNGRADE",
      oldLimit: "TIER_10K",
      currentLimit: "TIER_2K",
      maxDailyConversationsPerBusiness: "TIER_2K",
    });
    const template = buildTemplateStatusWebhook({
      wabaId: "114098765432109",
      timestamp: 1795166401,
      event: "REJECTED",
      templateId: "1000000000000003",
      templateName: "flash_sale",
      templateLanguage: "en",
      reason: "INVALID_FORMAT",
      category: "MARKETING",
      rejectionInfo: {
        reason: "Variables next to each other — ₦{{1}}{{2}}",
        recommendation: "Separate them.",
      },
    });
    expect(quality).not.toMatch(/\n| {2}/);
    expect(template).toContain("\\u2014 \\u20a6");
    expect(Buffer.byteLength(template)).toBe(template.length);
    const parsed = parseWebhook(JSON.parse(quality), {
      tenantId: "default",
      receivedAt: 0,
    });
    expect(parsed.events).toMatchObject([
      {
        kind: "change",
        field: "phone_number_quality_update",
        value: { max_daily_conversations_per_business: "TIER_2K" },
      },
    ]);
    const parsedTemplate = parseWebhook(JSON.parse(template), { tenantId: "default", receivedAt: 0 });
    expect(parsedTemplate.events).toMatchObject([
      {
        kind: "change",
        field: "message_template_status_update",
        value: { event: "REJECTED", message_template_id: 1000000000000003, reason: "INVALID_FORMAT" },
      },
    ]);
  });
});
