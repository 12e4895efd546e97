import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import {
  createDeliveryMetrics,
  createEventJobHandler,
  type DeliveryStatusStore,
} from "../../src/delivery/index.js";
import {
  createEventsWorker,
  createRedisDeliveryStatusStore,
  type EventsWorker,
} from "../../src/delivery/redis/index.js";
import { createLogger } from "../../src/observability/index.js";
import {
  createReengagement,
  type OutboundReply,
  outboundJobId,
  type ReengagementTemplate,
} from "../../src/outbound/index.js";
import { eventually } from "../support/eventually.js";
import type { RunningFake } from "../support/fake-graph.js";
import {
  BACKENDS,
  type Backend,
  createGatewayHarness,
  sampleSum,
  skipBackend,
} from "../support/gateway-harness.js";
import { APP_SECRET, createIngressHarness, type IngressHarness } from "../support/ingress-harness.js";
import { createOutboundHarness, type OutboundHarness, textReply } from "../support/outbound-harness.js";
import { TEST_REDIS_URL } from "../support/redis.js";
import { textWebhook } from "../support/webhook-builder.js";

const CUSTOMER = "2348012345678";
const TEMPLATE: ReengagementTemplate = { name: "hello_again", language: "en" };

/** What the Redis variant has besides: the pieces the tests look inside. */
interface RedisParts {
  readonly ingress: IngressHarness;
  readonly out: OutboundHarness;
  readonly store: DeliveryStatusStore;
  readonly events: EventsWorker;
  readonly reengage: ReturnType<typeof createReengagement>;
}

interface Setup {
  readonly fake: RunningFake;
  readonly webhookUrl: string;
  /**
   * One text reply to CUSTOMER through the sender. Redis: queued as the turn worker queues it
   * (the sender and events worker run, no turn worker); embedded: the gateway's answer to "hi".
   */
  send(turnId: string): Promise<void>;
  /** The sent reply is on record (so a status for it finds it). */
  recorded(wamid: string): Promise<boolean>;
  metricsText(): Promise<string>;
  readonly redis: (RedisParts & { reply(turnId: string): OutboundReply }) | undefined;
  close(): Promise<void>;
}

const connections: Redis[] = [];

/** A real ingress on loopback, the fake Graph API posting statuses to it, the sender and the events worker, on Redis. */
async function startRedis(
  label: string,
  options: { template?: boolean; autoStatuses?: boolean },
): Promise<Setup> {
  const ingress = await createIngressHarness({ label: `${label}-in` });
  const address = await ingress.app.listen({ host: "127.0.0.1", port: 0 });
  const webhookUrl = `${address}/webhook`;
  const out = await createOutboundHarness(
    `${label}-out`,
    options.autoStatuses === true ? { autoStatuses: { webhookUrl, appSecret: APP_SECRET, delayMs: 10 } } : {},
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
    { redis, prefix: ingress.prefix, logger },
    createEventJobHandler({ store, logger, metrics: createDeliveryMetrics(out.registry), reengage }),
    { concurrency: 4 },
  );
  out.startWorker({}, { sent: store, reengage });
  const reply = (turnId: string) => textReply(CUSTOMER, turnId, 0);
  return {
    fake: out.fake,
    webhookUrl,
    send: async (turnId) => void (await out.queue.enqueue([reply(turnId)])),
    recorded: async (wamid) => (await store.get("default", wamid))?.sent !== undefined,
    metricsText: () => out.registry.metrics(),
    redis: { ingress, out, store, events, reengage, reply },
    async close() {
      await events.close(true);
      await out.close();
      await ingress.close();
    },
  };
}

/** `sharpsharp start` without REDIS_URL, the fake Graph API posting statuses to its webhook. */
async function startEmbedded(
  label: string,
  options: { template?: boolean; autoStatuses?: boolean },
): Promise<Setup> {
  const g = await createGatewayHarness({
    backend: "embedded",
    label,
    tenant: {
      coalesce: { windowMs: 0, maxMs: 0 },
      settings: options.template === true ? { reengagementTemplate: TEMPLATE } : {},
    },
    // The harness points the fake's status webhooks at the gateway.
    fake:
      options.autoStatuses === true
        ? { autoStatuses: { webhookUrl: "", appSecret: APP_SECRET, delayMs: 10 } }
        : {},
  });
  return {
    fake: g.fake,
    webhookUrl: g.webhookUrl,
    async send(turnId) {
      const body = textWebhook([
        [
          {
            wamid: `wamid.in.${turnId}`,
            from: CUSTOMER,
            timestamp: Math.floor(Date.now() / 1000),
            text: "hi",
          },
        ],
      ]);
      expect((await g.post(body)).statusCode).toBe(200);
    },
    // The send job completes only once the reply is on record.
    recorded: async () => (await g.metric("ss_queue_depth", { queue: "outbound", state: "completed" })) >= 1,
    metricsText: () => g.metricsText(),
    redis: undefined,
    close: () => g.close(),
  };
}

const start = (
  backend: Backend,
  label: string,
  options: { template?: boolean; autoStatuses?: boolean } = {},
) => (backend === "redis" ? startRedis(label, options) : startEmbedded(label, options));

describe.each(BACKENDS)("delivery statuses end to end on %s", (backend) => {
  let setup: Setup | undefined;
  afterEach(async () => {
    await setup?.close();
    for (const redis of connections.splice(0)) redis.disconnect();
    setup = undefined;
  });
  const begin = async (label: string, options: { template?: boolean; autoStatuses?: boolean } = {}) => {
    setup = await start(backend, label, options);
    return setup;
  };

  const templates = (s: Setup) => s.fake.fake.messages().filter((m) => m.type === "template");
  /** The replies themselves (a text on Redis, the greeting with its button on embedded). */
  const texts = (s: Setup) => s.fake.fake.messages().filter((m) => m.type !== "template");
  const metric = async (s: Setup, name: string, labels: Record<string, string>) =>
    sampleSum(await s.metricsText(), name, labels);
  /** The wamid Meta gave the one reply. */
  const sentWamid = async (s: Setup) => {
    await eventually(() => texts(s).length === 1, 5000);
    return texts(s)[0]?.id as string;
  };

  it.skipIf(skipBackend(backend))(
    "ties the statuses the fake posts to the gateway's webhook to the reply, ending in read",
    async () => {
      const s = await begin("dl-e2e", { autoStatuses: true });
      await s.send("turn-e2e");
      const wamid = await sentWamid(s);
      expect(texts(s)[0]).toMatchObject({ to: `+${CUSTOMER}` });
      await eventually(
        async () =>
          (await metric(s, "ss_delivery_statuses_total", { status: "read", outcome: "applied" })) === 1,
        10_000,
      );
      for (const status of ["sent", "delivered", "read"]) {
        expect(await metric(s, "ss_delivery_statuses_total", { status, outcome: "applied" })).toBe(1);
      }
      if (s.redis !== undefined) {
        // Redis only: the record in the store, and the job's return value.
        const reply = s.redis.reply("turn-e2e");
        expect((await s.redis.out.queue.queue.getJob(outboundJobId(reply)))?.returnvalue).toBe(wamid);
        expect(await s.redis.store.get("default", wamid)).toMatchObject({
          status: "read",
          recipient: CUSTOMER,
          sent: { turnId: "turn-e2e", part: 0, conversationKey: reply.conversationKey, to: CUSTOMER },
        });
      }
    },
  );

  it.skipIf(skipBackend(backend))(
    "131047 on send with a template configured: the template goes to the same customer, once",
    async () => {
      const s = await begin("dl-tpl", { template: true });
      s.fake.fake.setFaults({ forcedErrors: [{ code: 131047, times: 1 }] });
      await s.send("turn-late");
      await eventually(() => templates(s).length === 1, 10_000);
      if (s.redis !== undefined) {
        // Redis only: the same give-up reported again (a retried job, a failed status) queues nothing more.
        expect(await s.redis.reengage(s.redis.reply("turn-late"))).toBe("queued");
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      const [template] = templates(s);
      expect(templates(s)).toHaveLength(1);
      expect(template).toMatchObject({ to: `+${CUSTOMER}` });
      expect(template?.body.template).toEqual({ name: "hello_again", language: { code: "en" } });
      expect(texts(s)).toHaveLength(0);
      expect(
        await metric(s, "ss_outbound_reengagements_total", { outcome: "queued" }),
      ).toBeGreaterThanOrEqual(1);
      if (s.redis !== undefined) {
        const job = await s.redis.out.queue.queue.getJob(outboundJobId(s.redis.reply("turn-late")));
        expect(job?.failedReason).toContain("reengagement_required (Meta code 131047)");
      }
    },
  );

  it.skipIf(skipBackend(backend))(
    "131047 on send without a template: the give-up is recorded and no template is sent",
    async () => {
      const s = await begin("dl-notpl");
      s.fake.fake.setFaults({ forcedErrors: [{ code: 131047, times: 1 }] });
      await s.send("turn-late");
      await eventually(
        async () => (await metric(s, "ss_outbound_reengagements_total", { outcome: "no_template" })) === 1,
      );
      expect(await metric(s, "ss_outbound_sends_total", { outcome: "given_up", code: "131047" })).toBe(1);
      if (s.redis !== undefined) {
        const job = await s.redis.out.queue.queue.getJob(outboundJobId(s.redis.reply("turn-late")));
        expect(job?.failedReason).toContain("reengagement_required");
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(templates(s)).toHaveLength(0);
      expect(texts(s)).toHaveLength(0);
    },
  );

  it.skipIf(skipBackend(backend))(
    "a failed status with 131047 for one of our messages sends the template once",
    async () => {
      const s = await begin("dl-failed", { template: true });
      await s.send("turn-f");
      const wamid = await sentWamid(s);
      await eventually(() => s.recorded(wamid));
      const errors = [{ code: 131047, title: "Re-engagement message" }];
      const post = {
        wamid,
        status: "failed" as const,
        errors,
        webhookUrl: s.webhookUrl,
        appSecret: APP_SECRET,
      };
      expect((await s.fake.fake.postStatus(post)).status).toBe(200);
      expect((await s.fake.fake.postStatus(post)).status).toBe(200);
      await eventually(() => templates(s).length === 1, 10_000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(templates(s)).toHaveLength(1);
      expect(templates(s)[0]).toMatchObject({ to: `+${CUSTOMER}` });
      expect(await metric(s, "ss_delivery_statuses_total", { status: "failed", outcome: "applied" })).toBe(1);
      if (s.redis !== undefined) {
        expect(await s.redis.store.get("default", wamid)).toMatchObject({
          status: "failed",
          errorCode: 131047,
        });
      }
    },
  );
});
