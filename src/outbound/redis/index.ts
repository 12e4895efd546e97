export { createOutboundKeys } from "./outbound-keys.js";
export {
  createOutboundWorker,
  type OutboundWorker,
  type OutboundWorkerDeps,
  type OutboundWorkerOptions,
} from "./outbound-worker.js";
export {
  createRedisOutboundQueue,
  type RedisOutboundQueue,
  type RedisOutboundQueueOptions,
} from "./redis-outbound-queue.js";
export { createRedisSendOrder, type RedisSendOrderOptions } from "./redis-send-order.js";
export {
  createRedisSendOrderGate,
  type RedisSendOrderGate,
  type RedisSendOrderGateOptions,
} from "./redis-send-order-gate.js";
export { createRedisSendRateLimiter, type RedisSendRateLimiterOptions } from "./redis-send-rate-limiter.js";
export { createRedisTenantSendPause } from "./redis-tenant-send-pause.js";
