import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import {
  createDeliveryMetrics,
  createEventsWorker,
  createRedisDeliveryStatusStore,
  type DeliveryStatusStore,
  type EventsWorker,
} from "../src/delivery/index.js";
import { createLogger } from "../src/observability/index.js";
import { createReengagement, outboundJobId, type ReengagementTemplate } from "../src/outbound/index.js";
import { eventually } from "./support/eventually.js";
import { APP_SECRET, createIngressHarness, type IngressHarness } from "./support/ingress-harness.js";
import { createOutboundHarness, type OutboundHarness, textReply } from "./support/outbound-harness.js";
import { skipWithoutRedis, TEST_REDIS_URL } from "./support/redis.js";

const CUSTOMER = "2348012345678";
const TEMPLATE: ReengagementTemplate = { name: "hello_again", language: "en" };

interface Setup {
  readonly ingress: IngressHarness;
  readonly out: OutboundHarness;
  readonly store: DeliveryStatusStore;
  readonly events: EventsWorker;
  readonly webhookUrl: string;
  readonly reengage: ReturnType<typeof createReengagement>;
}

describe.skipIf(skipWithoutRedis)("delivery statuses end to end", () => {
  let setup: Setup | undefined;
  const connections: Redis[] = [];
  afterEach(async () => {
    if (setup !== undefined) {
      await setup.events.close(true);
      await setup.out.close();
      await setup.ingress.close();
    }
    for (const redis of connections.splice(0)) redis.disconnect();
    setup = undefined;
  });

  /** A real ingress on loopback, the fake Graph API posting statuses to it, the sender and the events worker. */
  async function start(label: string, options: { template?: boolean; autoStatuses?: boolean } = {}) {
    const ingress = await createIngressHarness({ label: `${label}-in` });
    const address = await ingress.app.listen({ host: "127.0.0.1", port: 0 });
    const webhookUrl = `${address}/webhook`;
    const out = await createOutboundHarness(
      `${label}-out`,
      options.autoStatuses === true
        ? { autoStatuses: { webhookUrl, appSecret: APP_SECRET, delayMs: 10 } }
        : {},
    );
    const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    connections.push(redis);
    const logger = createLogger({ level: "silent" });
    const store = createRedisDeliveryStatusStore({ redis, prefix: out.prefix });
    const reengage = createReengagement({
      queue: out.queue,
      templateFor: () => (options.template === true ? TEMPLATE : undefined),
      logger,
      metrics: out.metrics,
    });
    const events = createEventsWorker(
      {
        redis,
        prefix: ingress.prefix,
        store,
        logger,
        metrics: createDeliveryMetrics(out.registry),
        reengage,
      },
      { concurrency: 4 },
    );
    out.startWorker({}, { sent: store, reengage });
    setup = { ingress, out, store, events, webhookUrl, reengage };
    return setup;
  }

  const templates = (s: Setup) => s.out.fake.fake.messages().filter((m) => m.type === "template");

  it("ties the statuses the fake posts to a real ingress to the reply, ending in read", async () => {
    const s = await start("dl-e2e", { autoStatuses: true });
    const reply = textReply(CUSTOMER, "turn-e2e", 0);
    await s.out.queue.enqueue([reply]);
    await eventually(async () => (await s.out.queue.queue.getJob(outboundJobId(reply)))?.returnvalue != null);
    const wamid = (await s.out.queue.queue.getJob(outboundJobId(reply)))?.returnvalue as string;
    await eventually(async () => (await s.store.get("default", wamid))?.status === "read", 10_000);
    expect(await s.store.get("default", wamid)).toMatchObject({
      status: "read",
      recipient: CUSTOMER,
      sent: { turnId: "turn-e2e", part: 0, conversationKey: reply.conversationKey, to: CUSTOMER },
    });
    const metrics = await s.out.registry.getSingleMetricAsString("ss_delivery_statuses_total");
    for (const status of ["sent", "delivered", "read"]) {
      expect(metrics).toContain(`status="${status}",outcome="applied"} 1`);
    }
  });

  it("131047 on send with a template configured: the template goes to the same customer, once", async () => {
    const s = await start("dl-tpl", { template: true });
    s.out.fake.fake.setFaults({ forcedErrors: [{ code: 131047, times: 1 }] });
    const reply = textReply(CUSTOMER, "turn-late", 0);
    await s.out.queue.enqueue([reply]);
    await eventually(() => templates(s).length === 1, 10_000);
    // The same give-up reported again (a retried job, a failed status) queues nothing more.
    expect(await s.reengage(reply)).toBe("queued");
    await new Promise((resolve) => setTimeout(resolve, 300));
    const [template] = templates(s);
    expect(templates(s)).toHaveLength(1);
    expect(template).toMatchObject({ to: `+${CUSTOMER}` });
    expect(template?.body.template).toEqual({ name: "hello_again", language: { code: "en" } });
    expect(s.out.fake.fake.messages().filter((m) => m.type === "text")).toHaveLength(0);
    const job = await s.out.queue.queue.getJob(outboundJobId(reply));
    expect(job?.failedReason).toContain("reengagement_required (Meta code 131047)");
  });

  it("131047 on send without a template: the give-up is recorded and no template is sent", async () => {
    const s = await start("dl-notpl");
    s.out.fake.fake.setFaults({ forcedErrors: [{ code: 131047, times: 1 }] });
    const reply = textReply(CUSTOMER, "turn-late", 0);
    await s.out.queue.enqueue([reply]);
    await eventually(
      async () => (await s.out.queue.queue.getJob(outboundJobId(reply)))?.failedReason != null,
    );
    expect((await s.out.queue.queue.getJob(outboundJobId(reply)))?.failedReason).toContain(
      "reengagement_required",
    );
    expect(await s.out.registry.getSingleMetricAsString("ss_outbound_reengagements_total")).toContain(
      'outcome="no_template"} 1',
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(templates(s)).toHaveLength(0);
  });

  it("a failed status with 131047 for one of our messages sends the template once", async () => {
    const s = await start("dl-failed", { template: true });
    const reply = textReply(CUSTOMER, "turn-f", 0);
    await s.out.queue.enqueue([reply]);
    await eventually(async () => (await s.out.queue.queue.getJob(outboundJobId(reply)))?.returnvalue != null);
    const wamid = (await s.out.queue.queue.getJob(outboundJobId(reply)))?.returnvalue as string;
    await eventually(async () => (await s.store.get("default", wamid))?.sent !== undefined);
    const errors = [{ code: 131047, title: "Re-engagement message" }];
    const post = {
      wamid,
      status: "failed" as const,
      errors,
      webhookUrl: s.webhookUrl,
      appSecret: APP_SECRET,
    };
    expect((await s.out.fake.fake.postStatus(post)).status).toBe(200);
    expect((await s.out.fake.fake.postStatus(post)).status).toBe(200);
    await eventually(() => templates(s).length === 1, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(templates(s)).toHaveLength(1);
    expect(await s.store.get("default", wamid)).toMatchObject({ status: "failed", errorCode: 131047 });
  });
});
