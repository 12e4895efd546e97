import { createRedisAgentStores } from "../../agent/redis/index.js";
import type { AppConfig, RedisServerConfig } from "../../config/index.js";
import {
  createRedisConversationLock,
  createRedisConversationState,
  createRedisTurnJournal,
  createTurnWorker,
} from "../../conversation/redis/index.js";
import { createEventsWorker, createRedisDeliveryStatusStore } from "../../delivery/redis/index.js";
import type { Logger } from "../../observability/index.js";
import {
  createOutboundWorker,
  createRedisOutboundQueue,
  createRedisSendOrderGate,
  createRedisSendRateLimiter,
  createRedisTenantSendPause,
} from "../../outbound/redis/index.js";
import {
  createRedisQueues,
  createRedisTurnClaims,
  type RedisClient,
  type RedisQueues,
  sampleJobQueues,
} from "../../queue/redis/index.js";
import { closeRedis, connectRedis, openRedisClient, requireRedisServer } from "../redis/index.js";
import type { Backend, JobHandlers, JobRunOptions, WorkerPorts } from "./backend.js";
import { campaignThroughputOf, throughputOf } from "./throughput.js";

export interface RedisBackendOptions {
  readonly logger: Logger;
  /** The process's role, named in the error when REDIS_URL is unset ("ingress", "worker", "turn scheduler"). */
  readonly role: string;
}

/** The Redis bundle, plus what only Redis mode has. */
export interface RedisBackend extends Backend {
  /** The fail-fast client of the inbound queues (the persistence check reads it). */
  readonly redis: RedisClient;
}

/**
 * Every port on Redis under REDIS_PREFIX, shared by any number of ingress
 * and worker processes, with the jobs run by BullMQ workers. The inbound
 * side uses a fail-fast client (a webhook is answered 503 rather than held
 * open); the worker side, opened on first use, a client that waits out
 * reconnects, as BullMQ needs.
 */
export function createRedisBackend(config: AppConfig, options: RedisBackendOptions): RedisBackend {
  const { logger } = options;
  const server = requireRedisServer(config, options.role);
  const { redis, backend } = connectRedis(server, logger);
  const description = `redis ${backend}`;
  const prefix = config.redis.keyPrefix;
  const queues: RedisQueues = createRedisQueues({
    redis,
    prefix,
    dedupeTtlSeconds: config.ingress.dedupeTtlSeconds,
    enqueueTimeoutMs: config.ingress.enqueueTimeoutMs,
    description,
    onBackgroundError: (error) => logger.warn({ err: error }, "queue error"),
  });
  let opened: { readonly ports: WorkerPorts; close(): Promise<void> } | undefined;
  const worker = () => {
    opened ??= openWorkerSide(config, logger, queues, server);
    return opened.ports;
  };
  return {
    description,
    redis,
    ingress: { inbound: queues.inbound, status: queues.status },
    worker,
    async close() {
      await opened?.close();
      await queues.close();
      await closeRedis(redis);
    },
  };
}

function openWorkerSide(config: AppConfig, logger: Logger, queues: RedisQueues, server: RedisServerConfig) {
  const prefix = config.redis.keyPrefix;
  // BullMQ workers need a client that waits out reconnects instead of failing commands.
  const bull = openRedisClient(server, "patient");
  bull.on("error", () => {});
  const outboundQueue = createRedisOutboundQueue({
    redis: bull,
    prefix,
    onError: (error) => logger.warn({ err: error }, "outbound queue error"),
  });
  const order = createRedisSendOrderGate({ redis: bull, prefix, logger });
  // Read-only here (the queue metrics); each turn worker claims through its own.
  const turnClaims = createRedisTurnClaims({ redis: bull, prefix, leaseMs: config.worker.lockMs });
  const where = { redis: bull, prefix, logger };
  const runJobs = (handlers: JobHandlers, run: JobRunOptions) => [
    createTurnWorker(where, handlers.turns, {
      concurrency: run.turnConcurrency,
      lockTtlMs: config.worker.lockMs,
    }),
    createOutboundWorker(where, handlers.outbound, {
      concurrency: run.outboundConcurrency,
      lockMs: config.worker.lockMs,
      stalledIntervalMs: config.worker.stalledIntervalMs,
    }),
    createEventsWorker(where, handlers.events, { concurrency: run.eventsConcurrency }),
  ];
  const ports: WorkerPorts = {
    inbox: queues.inbox,
    conversationState: createRedisConversationState({ redis: bull, prefix }),
    conversationLock: createRedisConversationLock({ redis: bull, prefix, ttlMs: config.worker.lockMs }),
    turnJournal: createRedisTurnJournal({ redis: bull, prefix }),
    agentStores: createRedisAgentStores(bull, prefix, config.worker.lockMs),
    outboundQueue,
    sender: {
      order,
      limiter: createRedisSendRateLimiter({
        redis: bull,
        prefix,
        ...throughputOf(config),
      }),
      pause: createRedisTenantSendPause({ redis: bull, prefix }),
    },
    deliveryStatuses: createRedisDeliveryStatusStore({ redis: bull, prefix }),
    localMessageStore: undefined,
    campaignPace: createRedisSendRateLimiter({ redis: bull, prefix, ...campaignThroughputOf(config) }),
    localCampaignStores: undefined,
    runJobs,
    sampleJobQueues: async () => [
      await turnClaims.sample(),
      ...(await sampleJobQueues([outboundQueue.queue, queues.events])),
    ],
  };
  return {
    ports,
    async close() {
      await order.close();
      await outboundQueue.close();
      await closeRedis(bull);
    },
  };
}
