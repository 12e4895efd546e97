export {
  createEmbeddedOutboundQueue,
  type EmbeddedOutboundQueueOptions,
  OUTBOUND_KEEP,
} from "./embedded-outbound-queue.js";
export {
  createLocalSendRateLimiter,
  type LocalSendRateLimiterOptions,
} from "./local-send-rate-limiter.js";
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
