export {
  classifySendError,
  type SendAttempt,
  type SendDecision,
  type SendRetryPolicy,
} from "./classify-send-error.js";
export type { GiveUpReason } from "./send-error-codes.js";
