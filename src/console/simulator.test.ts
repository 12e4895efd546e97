import { describe, expect, it } from "vitest";
import type { TenantConfig } from "../config/index.js";
import { signatureFor } from "../ingress/index.js";
import { createSimulator } from "./simulator.js";

const tenant = {
  id: "shop",
  appSecret: "s3cret-s3cret",
  verifyToken: "v",
  graphToken: "g",
  phoneNumberIds: ["106540352242922"],
  throughputMps: 80,
  coalesce: { windowMs: 0, maxMs: 0 },
  staleAfterMs: 3_600_000,
  settings: {},
} as TenantConfig;

function capture() {
  const posts: { url: string; body: string; signature: string }[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    posts.push({
      url,
      body: String(init.body),
      signature: (init.headers as Record<string, string>)["x-hub-signature-256"] as string,
    });
    return new Response("ok", { status: 200 });
  }) as unknown as typeof globalThis.fetch;
  return { posts, fetch };
}

describe("the simulator", () => {
  it("refuses to run against a real Graph API, saying why", async () => {
    const simulator = createSimulator({
      tenants: [tenant],
      graphBaseUrl: "https://graph.facebook.com",
      ingressUrl: () => "http://127.0.0.1:1",
      now: Date.now,
    });
    expect(simulator.availability()).toMatchObject({
      available: false,
      reason: expect.stringMatching(/real WhatsApp user/),
    });
    await expect(simulator.send({ tenant: "shop", from: "2348000000001", text: "hi" })).rejects.toMatchObject(
      {
        code: "SS_CONSOLE_SIMULATOR_UNAVAILABLE",
      },
    );
  });

  it("posts Meta-signed webhooks; a burst delivered out of order keeps Meta's timestamps; a stale replay is two hours old", async () => {
    const { posts, fetch } = capture();
    const now = Date.UTC(2026, 11, 2, 10, 0, 0);
    const simulator = createSimulator({
      tenants: [tenant],
      graphBaseUrl: "http://127.0.0.1:4010",
      ingressUrl: () => "http://127.0.0.1:3000",
      now: () => now,
      fetch,
    });
    const sent = await simulator.send({
      tenant: "shop",
      from: "2348000000001",
      text: "one two three four five six",
      chaos: { burst: true, outOfOrder: true, duplicate: true },
    });
    expect(sent.conversationKey).toBe("shop:106540352242922:2348000000001");
    expect(sent.wamids).toHaveLength(3);
    expect(posts).toHaveLength(6);
    for (const post of posts) {
      expect(post.url).toBe("http://127.0.0.1:3000/webhook/shop");
      expect(post.signature).toBe(signatureFor(post.body, tenant.appSecret));
    }
    const delivered = posts
      .filter((_post, index) => index % 2 === 0)
      .map((post) => JSON.parse(post.body).entry[0].changes[0].value.messages[0]);
    expect(delivered.map((message) => message.text.body)).toEqual(["five six", "three four", "one two"]);
    expect(delivered.map((message) => Number(message.timestamp))).toEqual([
      now / 1000 + 2,
      now / 1000 + 1,
      now / 1000,
    ]);

    posts.length = 0;
    await simulator.send({
      tenant: "shop",
      from: "2348000000001",
      text: "late",
      chaos: { staleReplay: true },
    });
    const stale = JSON.parse(posts[0]?.body as string).entry[0].changes[0].value.messages[0];
    expect(Number(stale.timestamp)).toBe(now / 1000 - 7200);
  });

  it("sends button and list taps as Meta writes them, and refuses a number the tenant does not have", async () => {
    const { posts, fetch } = capture();
    const simulator = createSimulator({
      tenants: [tenant],
      graphBaseUrl: "http://localhost:4010",
      ingressUrl: () => "http://127.0.0.1:3000",
      now: Date.now,
      fetch,
    });
    await simulator.send({
      tenant: "shop",
      from: "2348000000001",
      buttonReply: { id: "confirm", title: "Confirm" },
    });
    await simulator.send({
      tenant: "shop",
      from: "2348000000001",
      listReply: { id: "row-2", title: "Lekki" },
    });
    const [button, list] = posts.map((post) => JSON.parse(post.body).entry[0].changes[0].value.messages[0]);
    expect(button.interactive).toEqual({
      type: "button_reply",
      button_reply: { id: "confirm", title: "Confirm" },
    });
    expect(list.interactive).toEqual({ type: "list_reply", list_reply: { id: "row-2", title: "Lekki" } });
    await expect(
      simulator.send({ tenant: "shop", phoneNumberId: "999", from: "2348000000001", text: "hi" }),
    ).rejects.toMatchObject({ code: "SS_CONSOLE_INVALID_REQUEST" });
  });
});
