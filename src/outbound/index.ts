export {
  classifySendError,
  type SendAttempt,
  type SendDecision,
  type SendRetryPolicy,
} from "./classify-send-error.js";
export { customerOf } from "./customer-of.js";
export {
  OutboundGivenUpError,
  OutboundReplyInvalidError,
  outboundErrorCatalog,
  ReengagementTemplateError,
} from "./errors.js";
export { createOutboundJobHandler } from "./outbound-job-handler.js";
export { outboundJobId } from "./outbound-job-id.js";
export {
  createOutboundMetrics,
  type LimiterWait,
  type OutboundMetrics,
  type SendOutcome,
} from "./outbound-metrics.js";
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
export { numberPauseScope } from "./send-pause-scope.js";
export {
  DEFAULT_PAIR_LIMIT,
  DEFAULT_THROUGHPUT_MPS,
  type PairLimit,
  type SendRateLimitOptions,
} from "./send-rate-limits.js";
export { internationalNumber } from "./send-reply.js";
export {
  type SenderDeps,
  type SenderOptions,
  type SenderPorts,
  sendReplyDepsFrom,
} from "./send-reply-deps.js";
