import type { FaultStatus } from "../fake-server/index.js";

/** OpenAI's error body: every refusal of the API has this shape. */
export interface OpenAiErrorBody {
  readonly error: {
    readonly message: string;
    readonly type: string;
    readonly param: string | null;
    readonly code: string | null;
  };
}

/** An error answer: status, body and any headers OpenAI sends with it. */
export interface OpenAiErrorReply {
  readonly status: number;
  readonly body: OpenAiErrorBody;
  readonly headers?: Readonly<Record<string, string>>;
}

/** Thrown by request validation; the route answers it 400 in OpenAI's shape. */
export class InvalidRequest extends Error {
  constructor(
    message: string,
    readonly param: string | null = null,
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

export function invalidRequest(error: InvalidRequest): OpenAiErrorReply {
  return {
    status: 400,
    body: {
      error: { message: error.message, type: "invalid_request_error", param: error.param, code: error.code },
    },
  };
}

/**
 * What OpenAI answers without a usable key. The key itself is never echoed
 * (OpenAI shows part of it; a fake has no reason to).
 */
export function unauthorized(keyGiven: boolean): OpenAiErrorReply {
  const message = keyGiven
    ? "Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys."
    : "You didn't provide an API key. You need to provide your API key in an Authorization header using " +
      "Bearer auth (i.e. Authorization: Bearer YOUR_KEY).";
  return {
    status: 401,
    body: {
      error: {
        message,
        type: "invalid_request_error",
        param: null,
        code: keyGiven ? "invalid_api_key" : null,
      },
    },
  };
}

const SERVER_ERROR_MESSAGES: Record<Exclude<FaultStatus, 429>, string> = {
  500: "The server had an error while processing your request. Sorry about that!",
  502: "Bad gateway.",
  503: "The engine is currently overloaded, please try again later.",
  504: "Gateway timeout.",
};

/** The error body of an injected fault; 429 carries `retry-after: 1` as OpenAI's rate limits do. */
export function faultError(status: FaultStatus): OpenAiErrorReply {
  if (status === 429) {
    return {
      status,
      headers: { "retry-after": "1" },
      body: {
        error: {
          message: "Rate limit reached for requests (fake LLM). Please try again in 1s.",
          type: "requests",
          param: null,
          code: "rate_limit_exceeded",
        },
      },
    };
  }
  return {
    status,
    body: {
      error: { message: SERVER_ERROR_MESSAGES[status], type: "server_error", param: null, code: null },
    },
  };
}

/** A request the fake stopped waiting on because it is closing. */
export function shuttingDown(): OpenAiErrorReply {
  return {
    status: 503,
    body: {
      error: { message: "The fake LLM is shutting down.", type: "server_error", param: null, code: null },
    },
  };
}

/** An unknown endpoint, as OpenAI words it. */
export function invalidUrl(method: string, path: string): OpenAiErrorReply {
  return {
    status: 404,
    body: {
      error: {
        message: `Invalid URL (${method} ${path})`,
        type: "invalid_request_error",
        param: null,
        code: null,
      },
    },
  };
}
