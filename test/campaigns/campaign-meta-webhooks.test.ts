import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { CampaignReport } from "../../src/campaigns/index.js";
import { type CampaignGateway, startCampaignGateway } from "./campaign-gateway.js";
import {
  ADMIN,
  audienceCsv,
  campaignBody,
  messagesWebhook,
  SALE_TEMPLATE,
  SHOP,
  SHOP_SECRET,
} from "./shop-campaign-fixtures.js";

const base = `/api/v1/tenants/${SHOP}/campaigns`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("Meta's account webhooks steer campaigns through the real ingress", () => {
  let h: CampaignGateway;
  let admin: string;
  let db: Database.Database;

  beforeAll(async () => {
    h = await startCampaignGateway();
    admin = await h.apiToken(ADMIN.email, ADMIN.password);
    db = new Database(h.gateway.databasePath, { readonly: true, fileMustExist: true });
  });
  afterAll(async () => {
    db?.close();
    await h?.close();
  });

  const report = async (id: string) =>
    (await h.api(admin, "GET", `${base}/${id}`)).json as unknown as CampaignReport;
  const launch = async (clientKey: string, csv: string, extra: Record<string, unknown> = {}) => {
    const created = await h.api(admin, "POST", base, campaignBody(clientKey, csv, extra));
    const id = (created.json.campaign as { id: string }).id;
    expect((await h.api(admin, "POST", `${base}/${id}/start`)).json.state).toBe("running");
    return id;
  };
  /** Template sends the fake accepted for customers whose wa_id starts so. */
  const sendsTo = (prefix: string) =>
    [...h.templateSends().keys()].filter((to) => to.startsWith(prefix)).length;
  /** Once nothing is in flight: the sends, which must match the report's. */
  const settled = async (id: string, prefix: string) => {
    let sent = -1;
    await vi.waitFor(
      async () => {
        const r = await report(id);
        expect(r.sending).toBe(0);
        expect(sendsTo(prefix)).toBe(r.sent);
        sent = r.sent;
      },
      { timeout: 5_000, interval: 50 },
    );
    return sent;
  };

  it("pauses a running campaign with quality_red when the number is FLAGGED, and sends nothing while paused", async () => {
    const id = await launch("quality", audienceCsv(50, 1, "2348400"), { sendRateMps: 5 });
    await vi.waitFor(async () => expect((await report(id)).sent).toBeGreaterThanOrEqual(2), {
      timeout: 5_000,
      interval: 50,
    });
    const posted = await h.fake.fake.postPhoneNumberQuality({
      webhookUrl: h.webhookUrl,
      appSecret: SHOP_SECRET,
      event: "FLAGGED",
      currentLimit: "TIER_1K",
    });
    expect(posted.status).toBe(200);
    await vi.waitFor(
      async () =>
        expect((await report(id)).campaign).toMatchObject({ state: "paused", stateReason: "quality_red" }),
      { timeout: 5_000, interval: 50 },
    );
    const atPause = await settled(id, "2348400");
    expect(atPause).toBeLessThan(50);
    await sleep(800);
    expect(sendsTo("2348400")).toBe(atPause);
    const listed = await h.api(admin, "GET", base);
    expect((listed.json.items as { id: string; state: string }[]).find((c) => c.id === id)?.state).toBe(
      "paused",
    );

    // Resumed while the number is still RED, it is paused again before it sends anything.
    expect((await h.api(admin, "POST", `${base}/${id}/resume`)).json.state).toBe("running");
    await vi.waitFor(
      async () =>
        expect((await report(id)).campaign).toMatchObject({ state: "paused", stateReason: "quality_red" }),
      { timeout: 5_000, interval: 50 },
    );
    expect(sendsTo("2348400")).toBe(atPause);
    // Meta lifts the flag; the operator resumes it and it carries on where it stopped.
    const lifted = await h.fake.fake.postPhoneNumberQuality({
      webhookUrl: h.webhookUrl,
      appSecret: SHOP_SECRET,
      event: "UNFLAGGED",
      currentLimit: "TIER_1K",
    });
    expect(lifted.status).toBe(200);
    await sleep(300);
    expect((await h.api(admin, "POST", `${base}/${id}/resume`)).json.state).toBe("running");
    await vi.waitFor(() => expect(sendsTo("2348400")).toBeGreaterThan(atPause), {
      timeout: 5_000,
      interval: 50,
    });
    expect((await h.api(admin, "POST", `${base}/${id}/cancel`)).json.state).toBe("cancelled");
  });

  it("pauses the campaigns sending a template Meta paused, and only those", async () => {
    const sale = await launch("tpl-sale", audienceCsv(40, 1, "2348500"), { sendRateMps: 5 });
    const other = await launch("tpl-other", audienceCsv(40, 1, "2348510"), {
      sendRateMps: 5,
      template: { ...SALE_TEMPLATE, name: "new_arrivals" },
    });
    const posted = await h.fake.fake.postTemplateStatus({
      webhookUrl: h.webhookUrl,
      appSecret: SHOP_SECRET,
      event: "PAUSED",
      templateName: SALE_TEMPLATE.name,
      templateId: "1489",
      reason: "Low quality",
    });
    expect(posted.status).toBe(200);
    await vi.waitFor(
      async () =>
        expect((await report(sale)).campaign).toMatchObject({
          state: "paused",
          stateReason: "template_paused",
        }),
      { timeout: 5_000, interval: 50 },
    );
    expect((await report(other)).campaign.state).toBe("running");
    await h.api(admin, "POST", `${base}/${other}/cancel`);
  });

  it("suppresses a customer who stops marketing messages in WhatsApp (user_preferences), and lets them resume", async () => {
    const [reached, later] = ["2348600000001", "2348600000002"];
    const first = await launch("prefs-1", ["wa_id,1,2", `${reached},Ngozi,20%`].join("\n"));
    await vi.waitFor(async () => expect((await report(first)).campaign.state).toBe("completed"), {
      timeout: 10_000,
      interval: 50,
    });
    const preference = (value: "stop" | "resume") =>
      messagesWebhook(
        {
          contacts: [{ profile: { name: "Ngozi" }, wa_id: reached }],
          user_preferences: [
            {
              wa_id: reached,
              detail: `User requested to ${value} marketing messages`,
              category: "marketing_messages",
              value,
              timestamp: Math.floor(Date.now() / 1000),
            },
          ],
        },
        "user_preferences",
      );
    expect(await h.postWebhook(preference("stop"))).toBe(200);
    const row = () =>
      db
        .prepare("SELECT source FROM store_suppressions WHERE tenant_id = ? AND customer_id = ?")
        .get(SHOP, reached) as { source: string } | undefined;
    await vi.waitFor(() => expect(row()).toEqual({ source: "button" }), { timeout: 5_000, interval: 50 });
    expect((await report(first)).optedOut).toBe(1);

    const second = await launch(
      "prefs-2",
      ["wa_id,1,2", `${reached},Ngozi,20%`, `${later},Tunde,20%`].join("\n"),
    );
    await vi.waitFor(async () => expect((await report(second)).campaign.state).toBe("completed"), {
      timeout: 10_000,
      interval: 50,
    });
    expect(await report(second)).toMatchObject({ sent: 1, skipped: { opted_out: 1 } });
    expect(h.templateSends().get(reached)).toBe(1);

    expect(await h.postWebhook(preference("resume"))).toBe(200);
    await vi.waitFor(() => expect(row()).toBeUndefined(), { timeout: 5_000, interval: 50 });
  });
});
