export {
  classifySendError,
  type SendAttempt,
  type SendDecision,
  type SendRetryPolicy,
} from "./classify-send-error.js";
export {
  createEmbeddedOutboundQueue,
  type EmbeddedOutboundQueueOptions,
  OUTBOUND_KEEP,
} from "./embedded-outbound-queue.js";
export {
  OutboundGivenUpError,
  OutboundReplyInvalidError,
  outboundErrorCatalog,
  ReengagementTemplateError,
} from "./errors.js";
export {
  createLocalSendRateLimiter,
  type LocalSendRateLimiterOptions,
} from "./local-send-rate-limiter.js";
export { createOutboundJobHandler } from "./outbound-job-handler.js";
export { outboundJobId } from "./outbound-job-id.js";
export { createOutboundKeys, customerOf } from "./outbound-keys.js";
export {
  createOutboundMetrics,
  type LimiterWait,
  type OutboundMetrics,
  type SendOutcome,
} from "./outbound-metrics.js";
export {
  createOutboundWorker,
  type OutboundWorker,
  type OutboundWorkerDeps,
  type OutboundWorkerOptions,
  type SenderPorts,
  sendReplyDepsFrom,
} from "./outbound-worker.js";
export type {
  OutboundQueue,
  OutboundReply,
  SendOrder,
  SendOrderCursor,
  SendRateLimiter,
  SendSlot,
  SentMessage,
  SentMessageRecorder,
  TenantSendPause,
} from "./ports.js";
export {
  createRedisOutboundQueue,
  type RedisOutboundQueue,
  type RedisOutboundQueueOptions,
} from "./redis-outbound-queue.js";
export { createRedisSendOrder, type RedisSendOrderOptions } from "./redis-send-order.js";
export { createRedisSendRateLimiter, type RedisSendRateLimiterOptions } from "./redis-send-rate-limiter.js";
export { createRedisTenantSendPause } from "./redis-tenant-send-pause.js";
export {
  createReengagement,
  type Reengage,
  type ReengagementDeps,
  type ReengagementOutcome,
  type ReengagementTarget,
  type ReengagementTemplate,
  reengagementTemplates,
} from "./reengagement.js";
export type { GiveUpReason } from "./send-error-codes.js";
export {
  createSendOrderGate,
  type OutboundJobState,
  type SendOrderGate,
  type SendOrderGateDeps,
  type SendOrderVerdict,
} from "./send-order-gate.js";
export {
  DEFAULT_PAIR_LIMIT,
  DEFAULT_THROUGHPUT_MPS,
  type PairLimit,
  type SendRateLimitOptions,
} from "./send-rate-limits.js";
export {
  createSqliteSendOrder,
  type SqliteSendOrder,
  type SqliteSendOrderOptions,
} from "./sqlite-send-order.js";
export {
  createSqliteTenantSendPause,
  type SqliteTenantSendPause,
  type SqliteTenantSendPauseOptions,
} from "./sqlite-tenant-send-pause.js";
