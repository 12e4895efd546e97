export { QueueUnavailableError, queueErrorCatalog } from "./errors.js";
export {
  type EventJob,
  JOB_NAMES,
  type OutboundJob,
  type OutboundReply,
  QUEUE_NAMES,
  type TurnJob,
} from "./job-names.js";
export { giveUp, type JobHandler, type JobOutcome, jobDone, retryAt } from "./job-outcome.js";
export type {
  ConversationInbox,
  EnqueueOutcome,
  InboundBatch,
  InboundQueue,
  MessageEnqueueResult,
  QueueDepth,
  QueueJob,
  QueueStatus,
} from "./ports.js";
