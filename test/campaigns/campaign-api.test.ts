import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type ApiAnswer, type CampaignGateway, startCampaignGateway } from "./campaign-gateway.js";
import { ADMIN, audienceCsv, campaignBody, SHOP, SHOP_NUMBER } from "./shop-campaign-fixtures.js";

const base = `/api/v1/tenants/${SHOP}/campaigns`;
const AGENT = { email: "kemi@shop.example", password: "agent password 123" };

describe("campaigns API on the embedded gateway", () => {
  let h: CampaignGateway;
  let admin: string;
  let agent: string;

  beforeAll(async () => {
    h = await startCampaignGateway();
    admin = await h.apiToken(ADMIN.email, ADMIN.password);
    const made = await h.api(admin, "POST", "/api/v1/operators", {
      ...AGENT,
      name: "Kemi Agent",
      grants: [{ tenantId: SHOP, role: "agent" }],
    });
    expect(made.status).toBe(201);
    agent = await h.apiToken(AGENT.email, AGENT.password);
  });
  afterAll(async () => {
    await h?.close();
  });

  const campaignOf = (answer: ApiAnswer) => answer.json.campaign as Record<string, unknown>;
  const report = async (id: string) => {
    const answer = await h.api(admin, "GET", `${base}/${id}`);
    expect(answer.status).toBe(200);
    return answer.json as Record<string, unknown> & { campaign: Record<string, unknown> };
  };

  it("creates a campaign from a CSV upload (201), and answers the same campaign (200) for the same clientKey", async () => {
    const first = await h.api(admin, "POST", base, campaignBody("create-once", audienceCsv(3, 1)));
    expect(first.status).toBe(201);
    expect(first.json.created).toBe(true);
    expect(campaignOf(first)).toMatchObject({
      tenantId: SHOP,
      phoneNumberId: SHOP_NUMBER,
      state: "draft",
      audienceSize: 3,
      timezone: "Africa/Lagos",
    });
    // A retry, even with another audience, is the campaign already made.
    const again = await h.api(admin, "POST", base, campaignBody("create-once", audienceCsv(5, 100)));
    expect(again.status).toBe(200);
    expect(again.json.created).toBe(false);
    expect(campaignOf(again).id).toBe(campaignOf(first).id);
    expect(campaignOf(again).audienceSize).toBe(3);
    const list = await h.api(agent, "GET", base);
    expect(list.status).toBe(200);
    const ids = (list.json.items as { id: string }[]).map((c) => c.id);
    expect(ids.filter((id) => id === campaignOf(first).id)).toHaveLength(1);
  });

  it("refuses an audience with bad rows with 400 SS_CAMPAIGN_INVALID naming each row, and creates nothing", async () => {
    const csv = [
      "wa_id,1,2",
      "2348100000201,Ada,20%",
      "12ab,Bola,20%",
      "2348100000203,,20%",
      "2348100000204,Chidi",
    ].join("\n");
    const answer = await h.api(admin, "POST", base, campaignBody("bad-rows", csv));
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe("SS_CAMPAIGN_INVALID");
    expect(answer.json.message).toMatch(/row 3: wa_id "12ab"/);
    expect(answer.json.message).toMatch(/row 4: parameter 1 is empty/);
    expect(answer.json.message).toMatch(/row 5: 2 fields, the header has 3/);
    expect(answer.json.message).not.toMatch(/row 2/);
    const list = await h.api(admin, "GET", base);
    expect((list.json.items as { clientKey: string }[]).some((c) => c.clientKey === "bad-rows")).toBe(false);
  });

  it("answers 403 to an agent-role operator creating or starting a campaign", async () => {
    const created = await h.api(agent, "POST", base, campaignBody("agent-try", audienceCsv(2, 300)));
    expect(created.status).toBe(403);
    expect(created.json.error).toBe("SS_CONSOLE_FORBIDDEN");
    const draft = await h.api(admin, "POST", base, campaignBody("agent-start", audienceCsv(2, 310)));
    const started = await h.api(agent, "POST", `${base}/${campaignOf(draft).id}/start`);
    expect(started.status).toBe(403);
    expect((await report(campaignOf(draft).id as string)).campaign.state).toBe("draft");
  });

  it("starts a campaign: each recipient gets the template once, and the report counts sent, delivered, read and billable", async () => {
    const created = await h.api(admin, "POST", base, campaignBody("send-all", audienceCsv(25, 400)));
    const id = campaignOf(created).id as string;
    const started = await h.api(admin, "POST", `${base}/${id}/start`);
    expect(started.status).toBe(200);
    expect(started.json.state).toBe("running");
    await vi.waitFor(
      async () => {
        const r = await report(id);
        expect(r).toMatchObject({ campaign: { state: "completed" }, sent: 25, delivered: 25, read: 25 });
      },
      { timeout: 15_000, interval: 100 },
    );
    const r = await report(id);
    expect(r).toMatchObject({
      targeted: 25,
      pending: 0,
      sending: 0,
      unknown: 0,
      skipped: {},
      failed: {},
      replied: 0,
      billable: { marketing: 25 },
    });
    expect((r.timeline as [number, number][]).reduce((sum, [, n]) => sum + n, 0)).toBe(25);
    const sends = h.templateSends();
    const ours = [...sends.entries()].filter(([to]) => /^2348100000(4[0-2]\d)$/.test(to));
    expect(ours).toHaveLength(25);
    expect(ours.every(([, count]) => count === 1)).toBe(true);
    const one = h.fake.fake.messages({ to: "2348100000400" }).find((m) => m.type === "template");
    expect(one?.body).toMatchObject({
      template: {
        name: "december_sale",
        components: [{ type: "body", parameters: [{ text: "Customer 400" }, { text: "20%" }] }],
      },
    });
  });

  it("imports a suppression list (admins only) that every campaign then skips, and takes customers off it", async () => {
    const path = `/api/v1/tenants/${SHOP}/suppressions`;
    const refused = await h.api(agent, "POST", path, { customers: ["2348100000901"] });
    expect(refused.status).toBe(403);
    const bad = await h.api(admin, "POST", path, { customers: ["2348100000901", "not a number"] });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toBe("SS_CAMPAIGN_INVALID");
    const imported = await h.api(admin, "POST", path, {
      customers: ["+234 810 000 0901", "2348100000902", "2348100000902"],
    });
    expect(imported.status).toBe(200);
    expect(imported.json.changed).toBe(2);
    const created = await h.api(admin, "POST", base, campaignBody("after-import", audienceCsv(4, 900)));
    const id = campaignOf(created).id as string;
    expect((await h.api(admin, "POST", `${base}/${id}/start`)).status).toBe(200);
    await vi.waitFor(async () => expect((await report(id)).campaign.state).toBe("completed"), {
      timeout: 15_000,
      interval: 100,
    });
    expect(await report(id)).toMatchObject({ sent: 2, skipped: { opted_out: 2 } });
    expect(h.templateSends().has("2348100000901")).toBe(false);
    const removed = await h.api(admin, "POST", path, { action: "opt_in", customers: ["2348100000901"] });
    expect(removed.json).toMatchObject({ changed: 1 });
    expect((removed.json.total as number) + 1).toBe(imported.json.total as number);
  });

  it("pauses, resumes and cancels a slow campaign, answering 409 SS_CAMPAIGN_WRONG_STATE for actions its state refuses", async () => {
    const created = await h.api(
      admin,
      "POST",
      base,
      campaignBody("slow", audienceCsv(40, 500), { sendRateMps: 5 }),
    );
    const id = campaignOf(created).id as string;
    expect((await h.api(admin, "POST", `${base}/${id}/resume`)).json.error).toBe("SS_CAMPAIGN_WRONG_STATE");
    expect((await h.api(admin, "POST", `${base}/${id}/start`)).json.state).toBe("running");
    const resumeRunning = await h.api(admin, "POST", `${base}/${id}/resume`);
    expect(resumeRunning.status).toBe(409);
    expect(resumeRunning.json.error).toBe("SS_CAMPAIGN_WRONG_STATE");
    expect(resumeRunning.json.message).toMatch(/running/);
    await vi.waitFor(async () => expect((await report(id)).sent).toBeGreaterThanOrEqual(2), {
      timeout: 5_000,
      interval: 50,
    });

    const paused = await h.api(admin, "POST", `${base}/${id}/pause`);
    expect(paused.json).toMatchObject({ state: "paused", stateReason: "operator" });
    const whilePaused = await settledSends(id);
    await sleep(700);
    expect(sentTo500s()).toBe(whilePaused);
    expect((await h.api(admin, "POST", `${base}/${id}/pause`)).status).toBe(409);

    expect((await h.api(admin, "POST", `${base}/${id}/resume`)).json.state).toBe("running");
    await vi.waitFor(() => expect(sentTo500s()).toBeGreaterThan(whilePaused), {
      timeout: 5_000,
      interval: 50,
    });

    const cancelled = await h.api(admin, "POST", `${base}/${id}/cancel`);
    expect(cancelled.json.state).toBe("cancelled");
    const atCancel = await settledSends(id);
    await sleep(700);
    expect(sentTo500s()).toBe(atCancel);
    const r = await report(id);
    expect(r.sent).toBe(atCancel);
    expect((r.skipped as Record<string, number>).cancelled).toBe(40 - atCancel);
    const restart = await h.api(admin, "POST", `${base}/${id}/start`);
    expect(restart.status).toBe(409);
    expect(restart.json.message).toMatch(/cancelled/);
  });

  it("answers 404 for an unknown campaign or action", async () => {
    const missing = await h.api(admin, "GET", `${base}/no-such-campaign`);
    expect(missing.status).toBe(404);
    expect(missing.json.error).toBe("SS_CAMPAIGN_NOT_FOUND");
    expect((await h.api(admin, "POST", `${base}/no-such-campaign/start`)).status).toBe(404);
    const draft = await h.api(admin, "POST", base, campaignBody("bad-action", audienceCsv(1, 600)));
    expect((await h.api(admin, "POST", `${base}/${campaignOf(draft).id}/explode`)).status).toBe(404);
  });

  it("lists the campaign routes in the OpenAPI document", async () => {
    const doc = (await (await fetch(`${h.consoleUrl}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    expect(Object.keys(doc.paths[`/api/v1/tenants/{tenant}/campaigns`] ?? {}).sort()).toEqual([
      "get",
      "post",
    ]);
    expect(Object.keys(doc.paths[`/api/v1/tenants/{tenant}/campaigns/{id}`] ?? {})).toEqual(["get"]);
    expect(Object.keys(doc.paths[`/api/v1/tenants/{tenant}/campaigns/{id}/{action}`] ?? {})).toEqual([
      "post",
    ]);
  });

  /** Template sends the fake accepted for the slow campaign's customers (2348100000500…). */
  function sentTo500s(): number {
    return [...h.templateSends().keys()].filter((to) => /^2348100000(5[0-3]\d)$/.test(to)).length;
  }

  /** Once nothing is in flight: the campaign's sent count, which the fake's count must match. */
  async function settledSends(id: string): Promise<number> {
    let sent = -1;
    await vi.waitFor(
      async () => {
        const r = await report(id);
        expect(r.sending).toBe(0);
        expect(sentTo500s()).toBe(r.sent);
        sent = r.sent as number;
      },
      { timeout: 5_000, interval: 50 },
    );
    return sent;
  }
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
