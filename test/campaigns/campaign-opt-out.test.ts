import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type OptChange, optChangeLine } from "../../src/campaigns/index.js";
import { type CampaignGateway, startCampaignGateway } from "./campaign-gateway.js";
import { ADMIN, campaignBody, SHOP } from "./shop-campaign-fixtures.js";

const base = `/api/v1/tenants/${SHOP}/campaigns`;
const line = (kind: OptChange["kind"], language: OptChange["language"]) =>
  optChangeLine({ kind, language, keyword: "" });

/** Customers writing STOP in each language the detector knows. */
const STOPS = [
  { waId: "2348200000001", text: "STOP", language: "en" },
  { waId: "2348200000002", text: "abeg stop am", language: "pcm" },
  { waId: "2348200000003", text: "ku daina", language: "ha" },
  { waId: "2348200000004", text: "kwụsị", language: "ig" },
  { waId: "2348200000005", text: "mi ò fẹ́ mọ́", language: "yo" },
] as const;
const CHATTY = "2348200000006";
const OTHERS = ["2348200000007", "2348200000008"];

describe("opting out of campaigns through the gateway", () => {
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

  const suppressed = () =>
    db
      .prepare("SELECT customer_id AS id, source FROM store_suppressions WHERE tenant_id = ? ORDER BY 1")
      .all(SHOP) as { id: string; source: string }[];

  const runCampaign = async (clientKey: string, waIds: readonly string[]) => {
    const csv = ["wa_id,1,2", ...waIds.map((waId) => `${waId},Friend,20%`)].join("\n");
    const created = await h.api(admin, "POST", base, campaignBody(clientKey, csv));
    const id = (created.json.campaign as { id: string }).id;
    expect((await h.api(admin, "POST", `${base}/${id}/start`)).json.state).toBe("running");
    let report: Record<string, unknown> = {};
    await vi.waitFor(
      async () => {
        report = (await h.api(admin, "GET", `${base}/${id}`)).json;
        expect((report.campaign as { state: string }).state).toBe("completed");
      },
      { timeout: 10_000, interval: 100 },
    );
    return report;
  };

  it("confirms STOP in English, Pidgin, Hausa, Igbo and Yoruba in the customer's language and suppresses each", async () => {
    for (const stop of STOPS) expect(await h.customerSays(stop.waId, stop.text)).toBe(200);
    for (const stop of STOPS) {
      await vi.waitFor(() => expect(h.textsTo(stop.waId)).toEqual([line("opt_out", stop.language)]), {
        timeout: 10_000,
        interval: 50,
      });
    }
    expect(suppressed()).toEqual(STOPS.map((stop) => ({ id: stop.waId, source: "keyword" })));
  });

  it("answers a sentence that only contains 'stop' normally, without suppressing its writer", async () => {
    expect(await h.customerSays(CHATTY, "Please don't stop my delivery, when will my order arrive?")).toBe(
      200,
    );
    await vi.waitFor(() => expect(h.textsTo(CHATTY).length).toBeGreaterThan(0), {
      timeout: 10_000,
      interval: 50,
    });
    const optLines = STOPS.flatMap((stop) => [line("opt_out", stop.language), line("opt_in", stop.language)]);
    expect(h.textsTo(CHATTY).some((text) => optLines.includes(text))).toBe(false);
    expect(suppressed().map((row) => row.id)).not.toContain(CHATTY);
  });

  it("skips the opted-out customers in a campaign started afterwards", async () => {
    const audience = [...STOPS.map((stop) => stop.waId), CHATTY, ...OTHERS];
    const report = await runCampaign("after-stops", audience);
    expect(report).toMatchObject({ targeted: 8, sent: 3, skipped: { opted_out: 5 } });
    const sends = h.templateSends();
    for (const stop of STOPS) expect(sends.get(stop.waId)).toBeUndefined();
    for (const waId of [CHATTY, ...OTHERS]) expect(sends.get(waId)).toBe(1);
    // A STOP after the campaign reached them counts against it.
    const id = (report.campaign as { id: string }).id;
    expect(await h.customerSays(OTHERS[0] as string, "Stop sending me promos")).toBe(200);
    await vi.waitFor(async () => expect((await h.api(admin, "GET", `${base}/${id}`)).json.optedOut).toBe(1), {
      timeout: 10_000,
      interval: 50,
    });
    expect(h.textsTo(OTHERS[0] as string)).toEqual([line("opt_out", "en")]);
  });

  it("takes a customer who writes START off the list with the opt-in line, and campaigns reach them again", async () => {
    const hausa = STOPS[2].waId;
    expect(await h.customerSays(hausa, "START")).toBe(200);
    await vi.waitFor(() => expect(h.textsTo(hausa).at(-1)).toBe(line("opt_in", "en")), {
      timeout: 10_000,
      interval: 50,
    });
    expect(suppressed().map((row) => row.id)).not.toContain(hausa);
    expect(suppressed()).toHaveLength(5);
    const report = await runCampaign("after-start", [hausa, STOPS[0].waId]);
    expect(report).toMatchObject({ sent: 1, skipped: { opted_out: 1 } });
    expect(h.templateSends().get(hausa)).toBe(1);
  });
});
