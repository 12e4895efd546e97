import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../../observability/index.js";
import { createFakeGraphApi, type FakeGraphApi, type FakeGraphApiOptions } from "./create-fake-graph-api.js";
import { createMessagingLimit } from "./messaging-limit.js";

const TOKEN = "t";
const HOUR = 60 * 60 * 1000;

function clock(start = 1_800_000_000_000) {
  let at = start;
  return { now: () => at, advance: (ms: number) => (at += ms) };
}

const fakes: FakeGraphApi[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
});

function start(options: Partial<FakeGraphApiOptions>, now: () => number) {
  const fake = createFakeGraphApi(
    { logger: createLogger({ level: "silent" }), now },
    { tokens: [TOKEN], ...options },
  );
  fakes.push(fake);
  const send = async (to: string, body: Record<string, unknown>, phoneNumberId = "pn1") => {
    const response = await fake.app.inject({
      method: "POST",
      url: `/v25.0/${phoneNumberId}/messages`,
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      payload: JSON.stringify({ messaging_product: "whatsapp", to, ...body }),
    });
    return { status: response.statusCode, json: response.json() };
  };
  const template = (to: string, phoneNumberId?: string) =>
    send(
      to,
      { type: "template", template: { name: "order_update", language: { code: "en" } } },
      phoneNumberId,
    );
  const text = (to: string) => send(to, { type: "text", text: { body: "hi" } });
  return { fake, template, text };
}

describe("messaging limit (tier) over HTTP", () => {
  it("refuses the (limit+1)-th new customer with 131048, counts a repeat customer once, ignores service sends", async () => {
    const time = clock();
    const { fake, template, text } = start({ messagingLimit: { uniqueRecipients: 3 } }, time.now);
    for (const to of ["+2348000000001", "+2348000000002", "+2348000000003"]) {
      expect((await template(to)).status).toBe(200);
    }
    // The same customer written differently is already inside the window: not counted again.
    expect((await template("+234 800 000 0001")).status).toBe(200);
    // Service replies (non-template) never count, even to new customers.
    expect((await text("+2348000000009")).status).toBe(200);

    const refused = await template("+2348000000004");
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatchObject({
      code: 131048,
      type: "OAuthException",
      error_data: { messaging_product: "whatsapp" },
    });
    expect(refused.json.error.message).toBe("(#131048) Spam rate limit hit");
    // Customers already reached still get templates.
    expect((await template("+2348000000002")).status).toBe(200);

    expect(fake.messagingLimit()).toEqual({
      enabled: true,
      uniqueRecipients: 3,
      windowMs: 24 * HOUR,
      scope: "portfolio",
      used: 3,
      refused: 1,
      numbers: { pn1: { used: 3, refused: 1 } },
    });
    const overHttp = await fake.app.inject({ method: "GET", url: "/_fake/messaging-limit" });
    expect(overHttp.json()).toEqual(fake.messagingLimit());
    expect(fake.requests().filter((r) => r.errorCode === 131048)).toHaveLength(1);
  });

  it("slides its window on the injected clock: a customer counts until 24 h after they were last reached", async () => {
    const time = clock();
    const { fake, template } = start({ messagingLimit: { uniqueRecipients: 2 } }, time.now);
    await template("+2348000000001");
    time.advance(10 * HOUR);
    await template("+2348000000002");
    time.advance(13 * HOUR);
    // Reaching customer 1 again at 23 h keeps them in the window until 47 h.
    expect((await template("+2348000000001")).status).toBe(200);
    expect((await template("+2348000000003")).status).toBe(400);
    time.advance(11 * HOUR); // 34 h: customer 2 (reached at 10 h) has left the window.
    expect((await template("+2348000000003")).status).toBe(200);
    expect((await template("+2348000000004")).status).toBe(400);
    time.advance(13 * HOUR); // 47 h: customer 1 leaves too.
    expect((await template("+2348000000004")).status).toBe(200);
    expect(fake.messagingLimit()).toMatchObject({ used: 2, refused: 2 });
  });

  it("is shared by every number of the portfolio by default, or counted per number on request", async () => {
    const time = clock();
    const shared = start({ messagingLimit: { uniqueRecipients: 1 } }, time.now);
    expect((await shared.template("+2348000000001", "pn1")).status).toBe(200);
    expect((await shared.template("+2348000000002", "pn2")).status).toBe(400);
    expect(shared.fake.messagingLimit().numbers).toEqual({
      pn1: { used: 1, refused: 0 },
      pn2: { used: 0, refused: 1 },
    });

    const apart = start({ messagingLimit: { uniqueRecipients: 1, scope: "phone-number" } }, time.now);
    expect((await apart.template("+2348000000001", "pn1")).status).toBe(200);
    expect((await apart.template("+2348000000002", "pn2")).status).toBe(200);
    expect(apart.fake.messagingLimit()).toMatchObject({ used: 2, refused: 0 });
  });

  it("is off unless given, can be raised over HTTP (a tier upgrade) and forgets its counts on reset", async () => {
    const time = clock();
    const { fake, template } = start({}, time.now);
    for (let i = 0; i < 20; i++) expect((await template(`+23480000001${i}`)).status).toBe(200);
    expect(fake.messagingLimit()).toEqual({ enabled: false, used: 0, refused: 0, numbers: {} });

    const set = await fake.app.inject({
      method: "POST",
      url: "/_fake/messaging-limit",
      payload: { uniqueRecipients: 1 },
    });
    expect(set.json()).toMatchObject({ enabled: true, uniqueRecipients: 1, used: 0 });
    await template("+2348000000001");
    expect((await template("+2348000000002")).status).toBe(400);
    fake.setMessagingLimit({ uniqueRecipients: 2 });
    expect((await template("+2348000000002")).status).toBe(200);
    const bad = await fake.app.inject({
      method: "POST",
      url: "/_fake/messaging-limit",
      payload: { uniqueRecipients: -1 },
    });
    expect(bad.statusCode).toBe(400);
    await fake.app.inject({ method: "POST", url: "/_fake/reset" });
    expect(fake.messagingLimit()).toMatchObject({ enabled: true, used: 0, refused: 0 });
  });
});

describe("createMessagingLimit", () => {
  it("counts an admitted send only once it is committed", () => {
    const limit = createMessagingLimit({ uniqueRecipients: 1 }, () => 0);
    expect(limit.admit("pn", "+1555")).toBeDefined();
    expect(limit.admit("pn", "+1666")?.commit()).toBeUndefined();
    expect(limit.admit("pn", "+1555")).toBeUndefined();
    expect(limit.snapshot()).toMatchObject({ used: 1, refused: 1 });
  });
});
