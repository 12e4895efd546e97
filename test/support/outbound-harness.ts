import { Redis } from "ioredis";
import { Registry } from "prom-client";
import { createSeededRandom } from "../../src/dev/index.js";
import { createLogger } from "../../src/observability/index.js";
import { createLocalSendRateLimiter } from "../../src/outbound/embedded/index.js";
import {
  createOutboundJobHandler,
  createOutboundMetrics,
  type OutboundMetrics,
  type OutboundReply,
  type SenderDeps,
  type SenderOptions,
  type SendRateLimitOptions,
  sendReplyDepsFrom,
} from "../../src/outbound/index.js";
import {
  createOutboundWorker,
  createRedisOutboundQueue,
  createRedisSendOrderGate,
  createRedisSendRateLimiter,
  createRedisTenantSendPause,
  type OutboundWorker,
  type OutboundWorkerOptions,
  type RedisOutboundQueue,
} from "../../src/outbound/redis/index.js";
import { createGraphApiClient, type GraphApiClient } from "../../src/whatsapp/index.js";
import { GRAPH_TOKEN, PHONE_NUMBER_ID, type RunningFake, startFake } from "./fake-graph.js";
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from "./redis.js";

export interface OutboundHarness {
  readonly prefix: string;
  readonly fake: RunningFake;
  readonly queue: RedisOutboundQueue;
  readonly metrics: OutboundMetrics;
  readonly registry: Registry;
  /** Every log line written by the workers, raw JSON. */
  readonly logLines: string[];
  readonly admin: Redis;
  /** Starts one more worker process stand-in (its own Redis connection), optionally recording sends and re-engaging. */
  startWorker(options?: SenderWorkerOptions, extra?: Pick<SenderDeps, "sent" | "reengage">): OutboundWorker;
  close(): Promise<void>;
}

/** A worker process's settings: its BullMQ worker, the sender, and the Redis rate limiter. */
export type SenderWorkerOptions = OutboundWorkerOptions &
  SenderOptions &
  Omit<SendRateLimitOptions, "horizonMs"> & {
    /** A slot this near is reserved and slept for; a farther one delays the job instead. ms, default 1,000. */
    readonly reserveHorizonMs?: number;
  };

/** Real Redis under a fresh prefix, the real fake Graph API on 127.0.0.1:0, the real client. */
export async function createOutboundHarness(
  label: string,
  fakeOptions: Parameters<typeof startFake>[0] = {},
): Promise<OutboundHarness> {
  const prefix = uniquePrefix(label);
  const fake = await startFake(fakeOptions);
  const admin = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
  const queue = createRedisOutboundQueue({ redis: admin, prefix });
  const registry = new Registry();
  const metrics = createOutboundMetrics(registry);
  const logLines: string[] = [];
  const logger = createLogger({
    level: "info",
    destination: { write: (line: string) => logLines.push(line) },
  });
  const client: GraphApiClient = createGraphApiClient(
    {},
    { baseUrl: fake.url, version: "v25.0", token: GRAPH_TOKEN, timeoutMs: 5000 },
  );
  const workers: { worker: OutboundWorker; redis: Redis }[] = [];
  const random = createSeededRandom(11);
  return {
    prefix,
    fake,
    queue,
    metrics,
    registry,
    logLines,
    admin,
    startWorker(options = {}, extra = {}) {
      const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
      // What a worker process's Redis backend picks (src/app/backends/redis.ts), with these limits.
      const order = createRedisSendOrderGate({ redis, prefix, logger });
      const { throughputMps, throughputBurst, pairLimit, reserveHorizonMs } = options;
      const limiter = createRedisSendRateLimiter({
        redis,
        prefix,
        ...(throughputMps === undefined ? {} : { throughputMps }),
        ...(throughputBurst === undefined ? {} : { throughputBurst }),
        ...(pairLimit === undefined ? {} : { pairLimit }),
        ...(reserveHorizonMs === undefined ? {} : { horizonMs: reserveHorizonMs }),
      });
      const handler = createOutboundJobHandler(
        sendReplyDepsFrom(
          { graphClientFor: () => client, logger, metrics, now: Date.now, random, ...extra },
          options,
          { order, limiter, pause: createRedisTenantSendPause({ redis, prefix }) },
        ),
      );
      const running = createOutboundWorker({ redis, prefix, logger }, handler, {
        concurrency: 16,
        ...options,
      });
      const worker: OutboundWorker = {
        worker: running.worker,
        async close(force) {
          await running.close(force);
          await order.close();
        },
      };
      workers.push({ worker, redis });
      return worker;
    },
    async close() {
      for (const { worker } of workers) await worker.close(true);
      await queue.close();
      await client.close();
      await fake.fake.close();
      // Cut the workers' clients first: a held reply's wake-up timer must not write after the cleanup.
      for (const { redis } of workers) redis.disconnect();
      await deleteKeys(admin, prefix);
      admin.disconnect();
    },
  };
}

/**
 * What a sender built outside a worker needs, sending through `client` with no pause, no metrics and an
 * in-process rate limiter; add the rest (a send order, a delivery record) on top.
 */
export function bareSenderDeps(client: GraphApiClient) {
  return {
    limiter: createLocalSendRateLimiter(),
    pause: { remainingMs: async () => 0, pause: async () => {} },
    graphClientFor: () => client,
    logger: createLogger({ level: "silent" }),
    metrics: undefined,
    now: Date.now,
    random: Math.random,
    pauseMs: 60_000,
    retryPolicy: {},
    orderPollMs: 250,
    orderMaxWaitMs: 60_000,
  };
}

/** A text reply to `to` from the test phone number id. */
export function textReply(
  to: string,
  turnId: string,
  part = 0,
  extra: Partial<OutboundReply> = {},
): OutboundReply {
  return {
    tenantId: "default",
    phoneNumberId: PHONE_NUMBER_ID,
    conversationKey: `default:${PHONE_NUMBER_ID}:${to}`,
    to,
    turnId,
    part,
    message: { type: "text", text: { body: `reply ${turnId}/${part}` } },
    ...extra,
  };
}

/** Jobs of the outbound queue per state. */
export async function outboundCounts(h: OutboundHarness) {
  return h.queue.queue.getJobCounts("completed", "failed", "delayed", "waiting", "active");
}
