/** Why a send was given up for good. */
export type GiveUpReason =
  | "reengagement_required"
  | "undeliverable"
  | "unsupported_message_type"
  | "invalid_request"
  | "access_token_invalid"
  | "marketing_opt_out"
  | "recipient_blocked"
  | "policy_blocked"
  | "invalid_recipient"
  | "permanent_error"
  | "outcome_unknown"
  | "attempts_exhausted"
  | "unexpected_response"
  | "unexpected_error";

/** Meta codes that end a send, and what the caller should do besides recording it. */
export interface PermanentCode {
  readonly reason: GiveUpReason;
  /** The tenant's token is bad: pause the tenant's sends and alert. */
  readonly pauseTenant?: true;
  /** Outside the 24 h window: send the tenant's re-engagement template instead, if one is configured. */
  readonly reengage?: true;
  /** The business number is blocked for a while: pause that number's sends (not the tenant's others) and alert. */
  readonly pauseNumber?: true;
}

// From issue 3 and docs/whatsapp-cloud-api.md §7.2 (Meta's "possible solutions" per code).

/** Transient: retry with backoff. 131057 is maintenance mode (Meta: wait about a minute). */
export const TRANSIENT_CODES: ReadonlySet<number> = new Set([1, 2, 131000, 131016, 131057, 133004]);

/** Meta's throttles: wait them out, longer each time. 613 is the Graph API's own "calls exceeded the rate limit" (HTTP 429). */
export const THROTTLE_CODES: ReadonlySet<number> = new Set([4, 613, 80007, 130429, 131056]);

/** Codes named in the issue; any other non-transient code is `permanent_error`. */
export const PERMANENT_CODES: ReadonlyMap<number, PermanentCode> = new Map<number, PermanentCode>([
  [131047, { reason: "reengagement_required", reengage: true }],
  [131026, { reason: "undeliverable" }],
  [131051, { reason: "unsupported_message_type" }],
  [100, { reason: "invalid_request" }],
  [190, { reason: "access_token_invalid", pauseTenant: true }],
  [131050, { reason: "marketing_opt_out" }],
  [130403, { reason: "recipient_blocked" }],
  // "Temporarily blocked for policies violations": every send from the number fails until Meta lifts it.
  [368, { reason: "policy_blocked", pauseNumber: true }],
]);

/**
 * Media upload failed (131053): permanent when the file itself is wrong, but
 * a media host that answered Meta's download with 429 is a throttle of that
 * host, and the same send succeeds later.
 */
export const MEDIA_UPLOAD_CODE = 131053;
export const MEDIA_HOST_THROTTLED = /\b(?:http code 429|too many requests)\b/i;

/** Account maintenance (131057) lifts after about a minute; retrying sooner only fails again. */
export const MAINTENANCE_CODE = 131057;
export const MAINTENANCE_FLOOR_MS = 60_000;

/** Pair rate limit: Meta advises waiting 4^X seconds, X = 0, 1, 2, … */
export const PAIR_LIMIT_CODE = 131056;

/** App (4) and WABA (80007) request limits are counted per hour: wait in minutes, not seconds. */
export const APP_LIMIT_CODES: ReadonlySet<number> = new Set([4, 80007]);
