import type { ErrorCatalogEntry } from "../errors/index.js";

/**
 * What the webhook answers, and why. The body of an error response is
 * `{ "error": code, "message": text }`; it never hints at an expected
 * signature or token.
 */
export const ingressErrorCatalog = {
  badSignature: {
    code: "SS_INGRESS_BAD_SIGNATURE",
    httpStatus: 403,
    meaning:
      "X-Hub-Signature-256 is missing, malformed or does not match the body, or the URL names no configured tenant (the same answer, so tenant ids cannot be probed); nothing was recorded.",
  },
  verificationFailed: {
    code: "SS_INGRESS_VERIFICATION_FAILED",
    httpStatus: 403,
    meaning:
      "The verification GET had the wrong hub.mode, the wrong hub.verify_token or no hub.challenge, or named no configured tenant.",
  },
  bodyTooLarge: {
    code: "SS_INGRESS_BODY_TOO_LARGE",
    httpStatus: 413,
    meaning: "The body is larger than INGRESS_BODY_LIMIT_BYTES (3 MiB by default); nothing was recorded.",
  },
  malformedJson: {
    code: "SS_INGRESS_MALFORMED_JSON",
    httpStatus: 400,
    meaning: "The signature is valid but the body is empty or not JSON; nothing was recorded.",
  },
  unavailable: {
    code: "SS_INGRESS_UNAVAILABLE",
    httpStatus: 503,
    meaning: "The queue could not record the webhook durably in time; Meta will redeliver it.",
  },
  internal: {
    code: "SS_INGRESS_INTERNAL",
    httpStatus: 500,
    meaning: "An unexpected error; it is logged with the request id.",
  },
} as const satisfies Record<string, ErrorCatalogEntry>;

export type IngressErrorKey = keyof typeof ingressErrorCatalog;
