import { Redis } from "ioredis";
import { Registry } from "prom-client";
import type { TenantConfig } from "../../src/config/index.js";
import {
  type ConversationStateStore,
  createGraphTypingIndicator,
  createTurnJobHandler,
  createTurnMetrics,
  type Responder,
  type TurnMetrics,
} from "../../src/conversation/index.js";
import {
  createRedisConversationLock,
  createRedisConversationState,
  createTurnWorker,
  type TurnWorker,
} from "../../src/conversation/redis/index.js";
import { createLogger } from "../../src/observability/index.js";
import { createOutboundJobHandler, sendReplyDepsFrom } from "../../src/outbound/index.js";
import {
  createOutboundWorker,
  createRedisOutboundQueue,
  createRedisSendOrderGate,
  createRedisSendRateLimiter,
  createRedisTenantSendPause,
  type OutboundWorker,
  type RedisOutboundQueue,
} from "../../src/outbound/redis/index.js";
import { createFirstResponder } from "../../src/router/index.js";
import { createGraphApiClient, type GraphApiClient } from "../../src/whatsapp/index.js";
import { GRAPH_TOKEN, type RunningFake, startFake } from "./fake-graph.js";
import { createIngressHarness, type IngressHarness, testTenant } from "./ingress-harness.js";
import { TEST_REDIS_URL } from "./redis.js";

export interface TurnHarness {
  readonly ingress: IngressHarness;
  readonly fake: RunningFake;
  readonly outboundQueue: RedisOutboundQueue;
  readonly tenant: TenantConfig;
  readonly turnMetrics: TurnMetrics;
  readonly registry: Registry;
  /** A Redis client for BullMQ (maxRetriesPerRequest null). */
  readonly bull: Redis;
  /** Conversation mode and history (last 5 entries), as the workers see them. */
  readonly state: ConversationStateStore;
  /** Starts the turn and outbound workers (outbound concurrency 1 keeps sends in queue order). */
  startWorkers(options?: {
    outboundConcurrency?: number;
    turnConcurrency?: number;
    /** Default: the first responder (no classifier) for the harness's tenant. */
    responder?: Responder;
    tenants?: readonly TenantConfig[];
  }): void;
  close(): Promise<void>;
}

/** The ingress harness, the real fake Graph API, and the real workers on one prefix. */
export async function createTurnHarness(
  label: string,
  tenantFields: Partial<TenantConfig> = {},
  fakeOptions: Parameters<typeof startFake>[0] = {},
): Promise<TurnHarness> {
  const ingress = await createIngressHarness({ label });
  const fake = await startFake(fakeOptions);
  const bull = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
  const outboundQueue = createRedisOutboundQueue({ redis: bull, prefix: ingress.prefix });
  const tenant: TenantConfig = { ...testTenant("default"), graphToken: GRAPH_TOKEN, ...tenantFields };
  const registry = new Registry();
  const turnMetrics = createTurnMetrics(registry);
  const logger = createLogger({ level: "silent" });
  const client: GraphApiClient = createGraphApiClient(
    {},
    { baseUrl: fake.url, version: "v25.0", token: GRAPH_TOKEN, timeoutMs: 5000 },
  );
  const running: (TurnWorker | OutboundWorker)[] = [];
  const state = createRedisConversationState({ redis: bull, prefix: ingress.prefix, maxEntries: 5 });
  return {
    ingress,
    fake,
    outboundQueue,
    tenant,
    turnMetrics,
    registry,
    bull,
    state,
    startWorkers(options = {}) {
      const prefix = ingress.prefix;
      const where = { redis: bull, prefix, logger };
      const order = createRedisSendOrderGate(where);
      const turns = createTurnWorker(
        where,
        createTurnJobHandler({
          inbox: ingress.queues.inbox,
          outbound: outboundQueue,
          responder: options.responder ?? createFirstResponder([tenant]),
          tenants: options.tenants ?? [tenant],
          logger,
          metrics: turnMetrics,
          typing: createGraphTypingIndicator({ graphClientFor: () => client, logger }),
          state,
          lock: createRedisConversationLock({ redis: bull, prefix }),
          now: Date.now,
        }),
        { concurrency: options.turnConcurrency ?? 4 },
      );
      const outbound = createOutboundWorker(
        where,
        createOutboundJobHandler(
          sendReplyDepsFrom(
            { graphClientFor: () => client, logger, now: Date.now, random: Math.random },
            {},
            {
              order,
              limiter: createRedisSendRateLimiter({ redis: bull, prefix }),
              pause: createRedisTenantSendPause({ redis: bull, prefix }),
            },
          ),
        ),
        { concurrency: options.outboundConcurrency ?? 1 },
      );
      running.push(turns, {
        worker: outbound.worker,
        async close(force) {
          await outbound.close(force);
          await order.close();
        },
      });
    },
    async close() {
      for (const worker of running) await worker.close(true);
      await outboundQueue.close();
      await client.close();
      await fake.fake.close();
      bull.disconnect();
      await ingress.close();
    },
  };
}

/** Sum of a counter's values with these labels. */
export async function counterValue(
  registry: Registry,
  name: string,
  labels: Record<string, string>,
): Promise<number> {
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === name);
  return (metric?.values ?? [])
    .filter((value) => Object.entries(labels).every(([key, wanted]) => value.labels[key] === wanted))
    .reduce((sum, value) => sum + value.value, 0);
}
