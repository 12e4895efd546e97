import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { LLM_KEY, type RunningFakeLlm, startFakeLlm } from "../support/fake-llm.js";
import { type CampaignGateway, startCampaignGateway } from "./campaign-gateway.js";
import { ADMIN, campaignBody, SHOP, SHOP_NUMBER } from "./shop-campaign-fixtures.js";

const base = `/api/v1/tenants/${SHOP}/campaigns`;
const AMAKA = "2348300000001";
const TEMPLATE_TEXT = "Hi Amaka, 20% off everything today only!";
const BOT_ANSWER = "Yes Amaka, the 20% is on all sneakers until midnight.";

describe("replies to a campaign become conversations tagged with it", () => {
  let h: CampaignGateway;
  let llm: RunningFakeLlm;
  let admin: string;
  let campaignId: string;
  let templateWamid: string;

  beforeAll(async () => {
    llm = await startFakeLlm({
      apiKey: LLM_KEY,
      rules: [{ when: { lastUser: "sneakers" }, reply: { content: BOT_ANSWER } }],
    });
    h = await startCampaignGateway({
      env: { LLM_BASE_URL: `${llm.url}/v1`, LLM_API_KEY: LLM_KEY, LLM_MODEL: "gpt-4o-mini" },
    });
    admin = await h.apiToken(ADMIN.email, ADMIN.password);
    const csv = ["wa_id,1,2", `${AMAKA},Amaka,20%`, "2348300000002,Bayo,20%"].join("\n");
    const created = await h.api(admin, "POST", base, campaignBody("replies", csv));
    campaignId = (created.json.campaign as { id: string }).id;
    await h.api(admin, "POST", `${base}/${campaignId}/start`);
    await vi.waitFor(
      async () => expect((await h.api(admin, "GET", `${base}/${campaignId}`)).json.delivered).toBe(2),
      { timeout: 10_000, interval: 50 },
    );
    const sent = h.fake.fake.messages({ to: AMAKA }).find((m) => m.type === "template");
    templateWamid = sent?.id as string;
  });
  afterAll(async () => {
    await h?.close();
    await llm?.fake.close();
  });

  const report = async () => (await h.api(admin, "GET", `${base}/${campaignId}`)).json;

  it("counts a reply quoting the template once, and the bot answers it knowing what was sent", async () => {
    expect(templateWamid).toMatch(/^wamid\./);
    expect(await h.customerSays(AMAKA, "Is it on the red sneakers too?", templateWamid)).toBe(200);
    await vi.waitFor(() => expect(h.textsTo(AMAKA)).toEqual([BOT_ANSWER]), { timeout: 10_000, interval: 50 });
    expect(await report()).toMatchObject({ replied: 1, sent: 2 });

    // The agent was asked with the template in the conversation, before the customer's question.
    const asked = llm.fake.requests().map((r) => JSON.stringify(r.body));
    const withQuestion = asked.find((body) => body.includes("Is it on the red sneakers too?"));
    expect(withQuestion).toBeDefined();
    expect(withQuestion).toContain(TEMPLATE_TEXT);

    // A second reply to the same template is the same recipient replying: still one.
    expect(await h.customerSays(AMAKA, "And the sneakers in size 42?", templateWamid)).toBe(200);
    await vi.waitFor(() => expect(h.textsTo(AMAKA)).toHaveLength(2), { timeout: 10_000, interval: 50 });
    expect((await report()).replied).toBe(1);
  });

  it("shows the template in the conversation's history in the console", async () => {
    const login = await fetch(`${h.consoleUrl}/api/v1/session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(ADMIN),
    });
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] as string;
    const key = encodeURIComponent(`${SHOP}:${SHOP_NUMBER}:${AMAKA}`);
    const answer = await fetch(`${h.consoleUrl}/api/v1/conversations/${key}/messages`, {
      headers: { cookie },
    });
    expect(answer.status).toBe(200);
    const { items } = (await answer.json()) as { items: Record<string, unknown>[] };
    // Oldest last: the template, then the question quoting it, then the bot's answer.
    const sent = items.find((item) => item.wamid === templateWamid);
    expect(sent).toMatchObject({
      direction: "outbound",
      turnId: `campaign:${campaignId}`,
      type: "template",
      text: TEMPLATE_TEXT,
      delivery: { status: "read" },
    });
    const question = items.find((item) => item.text === "Is it on the red sneakers too?");
    expect(question).toMatchObject({ direction: "inbound", content: { context: { id: templateWamid } } });
  });
});
