import {
  GraphApiError,
  ResponseTooLargeError,
  TransportError,
  UnexpectedResponseError,
} from "../whatsapp/index.js";
import {
  APP_LIMIT_CODES,
  type GiveUpReason,
  MAINTENANCE_CODE,
  MAINTENANCE_FLOOR_MS,
  MEDIA_HOST_THROTTLED,
  MEDIA_UPLOAD_CODE,
  PAIR_LIMIT_CODE,
  PERMANENT_CODES,
  THROTTLE_CODES,
  TRANSIENT_CODES,
} from "./send-error-codes.js";

/** What to do after a failed send. `code` is Meta's error code, when there is one. */
export type SendDecision =
  | { readonly action: "retry"; readonly delayMs: number }
  | { readonly action: "wait"; readonly delayMs: number }
  | { readonly action: "retry_once_unknown"; readonly delayMs: number }
  | {
      readonly action: "give_up";
      readonly reason: GiveUpReason;
      readonly code: number | undefined;
      readonly pauseTenant?: true;
      readonly reengage?: true;
      readonly pauseNumber?: true;
    };

/** Where the send stands. */
export interface SendAttempt {
  /** The attempt that just failed, from 1. */
  readonly attempt: number;
  /** An earlier attempt of this send already ended with an unknown outcome and was retried. */
  readonly unknownOutcomeRetried: boolean;
}

/** The retry policy; every field has a default. */
export interface SendRetryPolicy {
  /** [0, 1); rolls the jitter. Default Math.random. */
  readonly random?: () => number;
  /** First retry delay, doubled per attempt; ms, default 1,000. */
  readonly baseDelayMs?: number;
  /** No backoff or wait is longer than this (Meta's own hint aside); ms, default 300,000 (5 min). */
  readonly maxDelayMs?: number;
  /** First wait after an app (4) or WABA (80007) limit, doubled per attempt; ms, default 60,000. */
  readonly appLimitBaseMs?: number;
  /** Meta's Retry-After style hint is honoured up to this; ms, default 3,600,000 (1 h). */
  readonly maxHintMs?: number;
  /** Attempts in all, retries and waits included; default 12. */
  readonly maxAttempts?: number;
}

type Policy = Required<SendRetryPolicy>;

const DEFAULTS: Omit<Policy, "random"> = {
  baseDelayMs: 1000,
  maxDelayMs: 300_000,
  appLimitBaseMs: 60_000,
  maxHintMs: 3_600_000,
  maxAttempts: 12,
};

/** Retry delay: exponential, capped, then jittered down into [½, 1] of it (spreads a herd of retries). */
function backoff(policy: Policy, attempt: number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling * (0.5 + 0.5 * policy.random()));
}

/** Throttle wait: Meta's advice jittered up into [1, 1.25] of it (never sooner than advised), capped. */
function throttleWait(policy: Policy, code: number | undefined, attempt: number): number {
  const advice =
    code === PAIR_LIMIT_CODE
      ? 1000 * 4 ** (attempt - 1)
      : (code !== undefined && APP_LIMIT_CODES.has(code) ? policy.appLimitBaseMs : policy.baseDelayMs) *
        2 ** (attempt - 1);
  return Math.round(Math.min(policy.maxDelayMs, advice * (1 + 0.25 * policy.random())));
}

function withHint(policy: Policy, delayMs: number, hintMs: number | undefined): number {
  return hintMs === undefined ? delayMs : Math.max(delayMs, Math.min(hintMs, policy.maxHintMs));
}

function mediaHostThrottled(error: GraphApiError): boolean {
  // Meta's details, or the message for a body without error_data, say what the host answered.
  const said = `${error.details ?? ""} ${error.message}`;
  return error.graphCode === MEDIA_UPLOAD_CODE && MEDIA_HOST_THROTTLED.test(said);
}

function classifyGraphError(error: GraphApiError, attempt: SendAttempt, policy: Policy): SendDecision {
  const code = error.graphCode;
  if (mediaHostThrottled(error)) {
    return {
      action: "retry",
      delayMs: withHint(policy, backoff(policy, attempt.attempt), error.retryAfterMs),
    };
  }
  const permanent = code === undefined ? undefined : PERMANENT_CODES.get(code);
  if (permanent !== undefined) return { action: "give_up", code, ...permanent };
  if ((code !== undefined && THROTTLE_CODES.has(code)) || (code === undefined && error.status === 429)) {
    const delayMs = throttleWait(policy, code, attempt.attempt);
    return { action: "wait", delayMs: withHint(policy, delayMs, error.retryAfterMs) };
  }
  if ((code !== undefined && TRANSIENT_CODES.has(code)) || error.isTransient || error.status >= 500) {
    const delayMs = backoff(policy, attempt.attempt);
    const floor = code === MAINTENANCE_CODE ? MAINTENANCE_FLOOR_MS : 0;
    return { action: "retry", delayMs: withHint(policy, Math.max(floor, delayMs), error.retryAfterMs) };
  }
  return { action: "give_up", reason: "permanent_error", code };
}

function classifyOnce(error: unknown, attempt: SendAttempt, policy: Policy): SendDecision {
  if (error instanceof GraphApiError) return classifyGraphError(error, attempt, policy);
  if (error instanceof TransportError) {
    if (!error.requestWritten) return { action: "retry", delayMs: backoff(policy, attempt.attempt) };
    // Sends carry no idempotency key: a second unknown outcome could mean a second copy.
    return attempt.unknownOutcomeRetried
      ? { action: "give_up", reason: "outcome_unknown", code: undefined }
      : { action: "retry_once_unknown", delayMs: backoff(policy, attempt.attempt) };
  }
  // A 2xx we cannot read most likely means Meta accepted the message: resending could double it.
  if (error instanceof UnexpectedResponseError || error instanceof ResponseTooLargeError) {
    return { action: "give_up", reason: "unexpected_response", code: undefined };
  }
  return { action: "give_up", reason: "unexpected_error", code: undefined };
}

/**
 * Decides what to do after a failed send: `retry` (transient: network
 * failures before the request was written, 5xx, 1, 2, 131000, 131016,
 * 131057, 133004, and a 131053 whose media host answered 429) after a capped,
 * jittered exponential backoff; `wait` (throttled: 130429, 131056 at Meta's
 * 4^X s, 4, 613, 80007) at least as long as Meta advises; `retry_once_unknown`
 * when the request was written but no answer came (at most once per send);
 * `give_up` for anything else, with the reason, Meta's code, `pauseTenant`
 * for 190, `pauseNumber` for 368 and `reengage` for 131047.
 * Pure, given `policy.random`. After `maxAttempts` attempts it gives up
 * (`attempts_exhausted`).
 */
export function classifySendError(
  error: unknown,
  attempt: SendAttempt,
  policy: SendRetryPolicy = {},
): SendDecision {
  const resolved: Policy = {
    random: policy.random ?? Math.random,
    baseDelayMs: policy.baseDelayMs ?? DEFAULTS.baseDelayMs,
    maxDelayMs: policy.maxDelayMs ?? DEFAULTS.maxDelayMs,
    appLimitBaseMs: policy.appLimitBaseMs ?? DEFAULTS.appLimitBaseMs,
    maxHintMs: policy.maxHintMs ?? DEFAULTS.maxHintMs,
    maxAttempts: policy.maxAttempts ?? DEFAULTS.maxAttempts,
  };
  const decision = classifyOnce(error, attempt, resolved);
  if (decision.action === "give_up" || attempt.attempt < resolved.maxAttempts) return decision;
  const code = error instanceof GraphApiError ? error.graphCode : undefined;
  return { action: "give_up", reason: "attempts_exhausted", code };
}
