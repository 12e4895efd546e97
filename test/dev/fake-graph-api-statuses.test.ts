import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StatusEvent } from "../../src/whatsapp/index.js";
import { eventually } from "../support/eventually.js";
import { type RunningFake, startFake, textTo } from "../support/fake-graph.js";
import { APP_SECRET, createIngressHarness, type IngressHarness } from "../support/ingress-harness.js";
import { skipWithoutRedis } from "../support/redis.js";

describe.skipIf(skipWithoutRedis)("fake Graph API: status webhooks into a real ingress", () => {
  let h: IngressHarness;
  let webhookUrl: string;
  const fakes: RunningFake[] = [];

  beforeAll(async () => {
    h = await createIngressHarness({ label: "fake-graph" });
    await h.app.listen({ host: "127.0.0.1", port: 0 });
    const { port } = h.app.server.address() as { port: number };
    webhookUrl = `http://127.0.0.1:${port}/webhook`;
  });
  afterAll(async () => {
    await Promise.all(fakes.map((f) => f.fake.close()));
    await h.close();
  });

  const statusEvents = async (wamid: string): Promise<StatusEvent[]> =>
    (await h.queues.events.entries())
      .map((entry) => entry.event)
      .filter((event): event is StatusEvent => event.kind === "status" && event.wamid === wamid);

  it("posts a signed status webhook that the ingress accepts and queues as a status event", async () => {
    const f = await startFake();
    fakes.push(f);
    const { json } = await f.send(textTo("+2348012345678"));
    const wamid = json.messages?.[0]?.id as string;

    const result = await f.fake.postStatus({ wamid, status: "delivered", webhookUrl, appSecret: APP_SECRET });
    expect(result.status).toBe(200);
    const [event] = await statusEvents(wamid);
    expect(event).toMatchObject({
      tenantId: "default",
      phoneNumberId: "106540352242922",
      status: "delivered",
      recipient: { waId: "2348012345678" },
      pricing: { category: "service" },
    });

    const failed = await f.fake.postStatus({
      wamid,
      status: "failed",
      webhookUrl,
      appSecret: APP_SECRET,
      errors: [{ code: 131047, title: "Re-engagement message" }],
    });
    expect(failed.status).toBe(200);
    expect((await statusEvents(wamid)).find((e) => e.status === "failed")?.errors).toEqual([
      { code: 131047, title: "Re-engagement message" },
    ]);

    // Signed with another secret, the ingress refuses it: the signature is what it checks.
    const forged = await f.fake.postStatus({
      wamid,
      status: "read",
      webhookUrl,
      appSecret: "not-the-secret",
    });
    expect(forged.status).toBe(403);
    expect((await statusEvents(wamid)).map((e) => e.status).sort()).toEqual(["delivered", "failed"]);
  });

  it("posts sent, delivered and read by itself for every accepted message (autoStatuses)", async () => {
    const f = await startFake({ autoStatuses: { webhookUrl, appSecret: APP_SECRET, delayMs: 10 } });
    fakes.push(f);
    const { json } = await f.send({ ...textTo("+2348098765432"), biz_opaque_callback_data: "outbox-7" });
    const wamid = json.messages?.[0]?.id as string;
    await eventually(async () => (await statusEvents(wamid)).length === 3);
    const events = await statusEvents(wamid);
    expect(events.map((e) => e.status).sort()).toEqual(["delivered", "read", "sent"]);
    expect(events.every((e) => e.bizOpaqueCallbackData === "outbox-7")).toBe(true);
  });

  it("posts the status of a BSUID-addressed message with recipient_user_id only, over HTTP", async () => {
    const f = await startFake();
    fakes.push(f);
    const { json } = await f.send({
      messaging_product: "whatsapp",
      recipient: "NG.3318264059917364520",
      text: { body: "Good evening \u20a6" },
    });
    const wamid = json.messages?.[0]?.id as string;
    const response = await fetch(`${f.url}/_fake/statuses`, {
      method: "POST",
      body: JSON.stringify({ wamid, status: "sent", webhookUrl, appSecret: APP_SECRET }),
    });
    expect(await response.json()).toMatchObject({ status: 200 });
    const [event] = await statusEvents(wamid);
    expect(event?.recipient).toEqual({ userId: "NG.3318264059917364520" });
  });
});
