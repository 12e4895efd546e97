import { afterEach, describe, expect, it } from "vitest";
import { isValidSignature } from "../../ingress/index.js";
import { createLogger } from "../../observability/index.js";
import { createFakeGraphApi, type FakeGraphApi } from "./create-fake-graph-api.js";
import type { AutoStatusOptions } from "./status-poster.js";
import { type ReceivedWebhook, startWebhookReceiver } from "./webhook-receiver.test-support.js";

const TOKEN = "t";
const SECRET = "app-secret";
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function setUp(auto?: Partial<AutoStatusOptions>) {
  const receiver = await startWebhookReceiver();
  const fake: FakeGraphApi = createFakeGraphApi(
    { logger: createLogger({ level: "silent" }) },
    {
      tokens: [TOKEN],
      templateCategories: { spring_sale: "marketing" },
      ...(auto === undefined
        ? {}
        : { autoStatuses: { webhookUrl: receiver.url, appSecret: SECRET, delayMs: 1, ...auto } }),
    },
  );
  cleanups.push(() => fake.close(), receiver.close);
  const send = async (body: Record<string, unknown>): Promise<string> => {
    const response = await fake.app.inject({
      method: "POST",
      url: "/v25.0/106540352242922/messages",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      payload: JSON.stringify({ messaging_product: "whatsapp", to: "+2348012345678", ...body }),
    });
    expect(response.statusCode).toBe(200);
    return response.json().messages[0].id;
  };
  return { fake, receiver, send };
}

const springSale = { type: "template", template: { name: "spring_sale", language: { code: "en" } } };
type Status = Record<string, unknown>;
const statusOf = (webhook: ReceivedWebhook): Status =>
  (webhook.json.entry[0]?.changes[0]?.value.statuses as Status[] | undefined)?.[0] ?? {};
const byStatus = (webhooks: readonly ReceivedWebhook[]) =>
  Object.fromEntries(webhooks.map((webhook) => [statusOf(webhook).status, statusOf(webhook)]));

describe("status webhooks: biz_opaque_callback_data and pricing", () => {
  it("echoes the callback data in every automatic status and prices a template in its category on sent and delivered", async () => {
    const { receiver, send } = await setUp({});
    const wamid = await send({ ...springSale, biz_opaque_callback_data: "campaign-9:recipient-41" });
    const webhooks = await receiver.waitFor(3);
    for (const webhook of webhooks) {
      expect(isValidSignature(webhook.raw, webhook.headers["x-hub-signature-256"], SECRET)).toBe(true);
      expect(statusOf(webhook)).toMatchObject({
        id: wamid,
        biz_opaque_callback_data: "campaign-9:recipient-41",
      });
    }
    const statuses = byStatus(webhooks);
    const marketing = { billable: true, pricing_model: "PMP", type: "regular", category: "marketing" };
    expect(statuses.sent?.pricing).toEqual(marketing);
    expect(statuses.delivered?.pricing).toEqual(marketing);
    expect(statuses.read?.pricing).toBeUndefined();
  });

  it("prices read when no delivered comes first (chat open), and a catalog utility template as utility", async () => {
    const { receiver, send } = await setUp({ statuses: ["sent", "read"] });
    await send({ type: "template", template: { name: "order_update", language: { code: "en" } } });
    const statuses = byStatus(await receiver.waitFor(2));
    expect(statuses.sent?.pricing).toMatchObject({ type: "regular", category: "utility" });
    expect(statuses.read?.pricing).toMatchObject({ type: "regular", category: "utility" });
  });

  it("echoes the callback data in statuses posted over /_fake/statuses, failed included (which carries no pricing)", async () => {
    const { fake, receiver, send } = await setUp();
    const wamid = await send({ ...springSale, biz_opaque_callback_data: "outbox-7" });
    const textWamid = await send({ type: "text", text: { body: "hi" } });
    const post = (body: Record<string, unknown>) =>
      fake.app.inject({
        method: "POST",
        url: "/_fake/statuses",
        payload: { webhookUrl: receiver.url, appSecret: SECRET, ...body },
      });
    expect((await post({ wamid, status: "sent" })).json()).toMatchObject({ status: 200 });
    await post({ wamid, status: "failed", errors: [{ code: 131049, title: "Not delivered" }] });
    await post({ wamid: textWamid, status: "delivered" });
    await post({
      wamid: "wamid.unknown",
      status: "sent",
      bizOpaqueCallbackData: "given",
      templateCategory: "utility",
    });
    const [sent, failed, text, unknown] = (await receiver.waitFor(4)).map(statusOf);
    expect(sent).toMatchObject({ biz_opaque_callback_data: "outbox-7", pricing: { category: "marketing" } });
    expect(failed).toMatchObject({ biz_opaque_callback_data: "outbox-7", errors: [{ code: 131049 }] });
    expect(failed?.pricing).toBeUndefined();
    expect(text?.biz_opaque_callback_data).toBeUndefined();
    expect(text?.pricing).toEqual({
      billable: false,
      pricing_model: "PMP",
      type: "free_customer_service",
      category: "service",
    });
    expect(unknown).toMatchObject({ biz_opaque_callback_data: "given", pricing: { category: "utility" } });
    expect(fake.messages({ to: "+2348012345678" })[0]).toMatchObject({
      bizOpaqueCallbackData: "outbox-7",
      templateCategory: "marketing",
    });
  });
});
