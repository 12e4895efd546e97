/** Error codes the fake answers with, each in the shape Meta uses for it. */
export type GraphErrorCode =
  | 100
  | 190
  | 368
  | 130429
  | 131000
  | 131016
  | 131026
  | 131047
  | 131048
  | 131049
  | 131053
  | 131056;

/** Codes a test may force onto sends (see FaultSettings.forcedErrors). */
export const FORCEABLE_ERROR_CODES = [
  190, 368, 130429, 131000, 131016, 131026, 131047, 131048, 131049, 131056,
] as const;
export type ForceableErrorCode = (typeof FORCEABLE_ERROR_CODES)[number];

/** An HTTP answer in Graph API wire format. */
export interface GraphErrorReply {
  readonly status: number;
  readonly body: { readonly error: Record<string, unknown> };
}

interface Template {
  readonly status: number;
  readonly title: string;
  readonly details?: string;
  readonly subcode?: number;
  readonly type?: string;
  readonly transient?: boolean;
}

// Titles and details as in test/fixtures/meta/send-error-*.json and Meta's error-code table.
const TEMPLATES: Record<GraphErrorCode, Template> = {
  100: { status: 400, title: "Invalid parameter", details: "Invalid parameter" },
  190: { status: 401, title: "Invalid OAuth access token - Cannot parse access token" },
  368: { status: 403, title: "Temporarily blocked for policies violations" },
  130429: {
    status: 400,
    title: "Rate limit hit",
    details: "Cloud API message throughput has been reached.",
    subcode: 2494055,
  },
  131000: { status: 500, title: "Something went wrong", details: "Something went wrong" },
  131016: {
    status: 503,
    title: "Service unavailable",
    details: "A service is temporarily unavailable.",
    transient: true,
  },
  131026: {
    status: 400,
    title: "Message undeliverable",
    details:
      "Unable to deliver message. Reasons can include: the recipient's phone number is not a WhatsApp phone number, or the recipient has not accepted the new Terms of Service.",
  },
  131047: {
    status: 400,
    title: "Re-engagement message",
    details:
      "Message failed to send because more than 24 hours have passed since the customer last replied to this number.",
  },
  131048: {
    status: 400,
    title: "Spam rate limit hit",
    details:
      "Message failed to send because there are restrictions on how many messages can be sent from this phone number. This may be because too many previous messages were blocked or flagged as spam.",
  },
  131049: {
    status: 400,
    title: "This message was not delivered to maintain healthy ecosystem engagement.",
    details: "In order to maintain a healthy ecosystem engagement, the message failed to be delivered.",
  },
  131053: {
    status: 400,
    title: "Media upload error",
    details: "Unable to upload the media used in the message.",
  },
  131056: {
    status: 400,
    title: "(Business Account, Consumer Account) pair rate limit hit",
    details:
      "Message failed to send because there were too many messages sent from this phone number to the same phone number in a short period of time.",
  },
};

export interface GraphErrorOverrides {
  /** Replaces the template's `error_data.details`. */
  readonly details?: string;
  /** Replaces the whole `message` (190 has no `(#code)` prefix). */
  readonly message?: string;
  readonly subcode?: number;
  readonly status?: number;
  readonly type?: string;
}

/**
 * Builds Meta's error body for `code`: `(#code) Title` messages with
 * `error_data` for WhatsApp errors, and the bare Graph shape (no
 * `error_data`) for 190.
 */
export function graphError(code: GraphErrorCode, traceId: string, overrides: GraphErrorOverrides = {}) {
  const template = TEMPLATES[code];
  const details = overrides.details ?? template.details;
  const subcode = overrides.subcode ?? template.subcode;
  const error: Record<string, unknown> = {
    message: overrides.message ?? (code === 190 ? template.title : `(#${code}) ${template.title}`),
    type: overrides.type ?? template.type ?? "OAuthException",
    code,
  };
  if (details !== undefined && code !== 190) {
    error.error_data = { messaging_product: "whatsapp", details };
  }
  if (subcode !== undefined) error.error_subcode = subcode;
  if (template.transient === true) error.is_transient = true;
  error.fbtrace_id = traceId;
  return { status: overrides.status ?? template.status, body: { error } } satisfies GraphErrorReply;
}

/** The 190 answer for an expired token (subcode 463), as in send-error-190.json. */
export function expiredTokenError(traceId: string): GraphErrorReply {
  return graphError(190, traceId, {
    message: "Error validating access token: Session has expired.",
    subcode: 463,
  });
}

/** Meta's answer for an object id that does not exist (unknown media or phone number id). */
export function unknownObjectError(id: string, traceId: string, method: "get" | "post"): GraphErrorReply {
  return graphError(100, traceId, {
    status: 404,
    type: "GraphMethodException",
    subcode: 33,
    message:
      `Unsupported ${method} request. Object with ID '${id}' does not exist, cannot be loaded due to ` +
      "missing permissions, or does not support this operation.",
    details: `Object with ID '${id}' does not exist.`,
  });
}
