import type { FaultStatus } from "../fake-server/index.js";

/** An error answer in OpenAI's shape: `{ error: { message, type, param, code } }`. */
export interface AudioErrorReply {
  readonly status: number;
  readonly body: {
    readonly error: {
      readonly message: string;
      readonly type: string;
      readonly param: string | null;
      readonly code: string | null;
    };
  };
  readonly headers?: Readonly<Record<string, string>>;
}

function reply(
  status: number,
  message: string,
  type: string,
  param: string | null = null,
  code: string | null = null,
) {
  return { status, body: { error: { message, type, param, code } } };
}

/** A request OpenAI would refuse with 400 (or 413 for a file over 25 MB). */
export function invalid(message: string, param: string | null = null, status = 400): AudioErrorReply {
  return reply(status, message, "invalid_request_error", param);
}

/**
 * What OpenAI answers without a usable key. Like OpenAI, a wrong key is
 * quoted back masked (its first 6 and last 4 characters), which is why the
 * clients must redact what they quote.
 */
export function unauthorized(key: string | undefined): AudioErrorReply {
  if (key === undefined)
    return reply(
      401,
      "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
      "invalid_request_error",
    );
  const masked =
    key.length > 10 ? `${key.slice(0, 6)}${"*".repeat(key.length - 10)}${key.slice(-4)}` : "****";
  return reply(
    401,
    `Incorrect API key provided: ${masked}. You can find your API key at https://platform.openai.com/account/api-keys.`,
    "invalid_request_error",
    null,
    "invalid_api_key",
  );
}

/** An injected fault; 429 carries `retry-after: 1`. */
export function faultError(status: FaultStatus): AudioErrorReply {
  if (status === 429)
    return {
      ...reply(
        429,
        "Rate limit reached for requests (fake speech server). Please try again in 1s.",
        "requests",
        null,
        "rate_limit_exceeded",
      ),
      headers: { "retry-after": "1" },
    };
  return reply(status, `The fake speech server had an error (injected ${status}).`, "server_error");
}

/** A request the fake stopped waiting on because it is closing. */
export function shuttingDown(): AudioErrorReply {
  return reply(503, "The fake speech server is shutting down.", "server_error");
}

/** An unknown endpoint, as OpenAI words it. */
export function invalidUrl(method: string, path: string): AudioErrorReply {
  return reply(404, `Invalid URL (${method} ${path})`, "invalid_request_error");
}
