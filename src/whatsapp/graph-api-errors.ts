import { type ErrorCatalogEntry, SharpsharpError } from "../errors/index.js";

/**
 * Errors of the Graph API client. None of their messages holds the bearer
 * token: Meta's own text is redacted before it is quoted.
 */
export const graphApiErrorCatalog = {
  graphError: {
    code: "SS_WHATSAPP_GRAPH_ERROR",
    meaning:
      "Meta answered a Graph API call with an error (its code, subcode, details and trace id are kept).",
  },
  transport: {
    code: "SS_WHATSAPP_TRANSPORT",
    meaning:
      "A Graph API call failed on the network or timed out; `requestWritten` says whether Meta may have received it.",
  },
  unexpectedResponse: {
    code: "SS_WHATSAPP_UNEXPECTED_RESPONSE",
    meaning: "Meta answered 2xx with a body that is not the documented success shape.",
  },
  responseTooLarge: {
    code: "SS_WHATSAPP_RESPONSE_TOO_LARGE",
    meaning: "A Graph API answer or media download is larger than allowed; it was not read further.",
  },
  mediaHostNotAllowed: {
    code: "SS_WHATSAPP_MEDIA_HOST_NOT_ALLOWED",
    meaning:
      "A media download URL is not on the Graph API's host nor (over https) on an allowed media host suffix; nothing was sent to it, so the bearer token stayed home.",
  },
} as const satisfies Record<string, ErrorCatalogEntry>;

/** What Meta said about a refused call, as parsed from its error body and headers. */
export interface GraphApiErrorInit {
  /** What the client was doing, e.g. `send message`. */
  readonly operation: string;
  /** Meta's HTTP status. */
  readonly status: number;
  /** Meta's `error.code`; undefined when the body was not a Graph error (a proxy's HTML, a bare 404). */
  readonly graphCode?: number;
  /** Meta's `error.error_subcode` (deprecated by Meta, still sent, e.g. 463 = token expired). */
  readonly graphSubcode?: number;
  /** Meta's `error.message`, e.g. `(#131047) Re-engagement message`. */
  readonly graphMessage?: string;
  readonly type?: string;
  /** Meta's `error.error_data.details`: build logic on this and the code, not on the title. */
  readonly details?: string;
  readonly fbtraceId?: string;
  /** Meta's `error.is_transient`. */
  readonly isTransient?: boolean;
  /** How long Meta asked us to wait (Retry-After, or X-Business-Use-Case-Usage), ms. */
  readonly retryAfterMs?: number;
}

/**
 * Meta refused a Graph API call. `graphCode` is Meta's error code (the
 * inherited `code` is sharpsharp's `SS_WHATSAPP_GRAPH_ERROR`); `status` is
 * Meta's HTTP status. Decide what to do with `classifySendError`.
 */
export class GraphApiError extends SharpsharpError {
  readonly operation: string;
  readonly status: number;
  readonly graphCode: number | undefined;
  readonly graphSubcode: number | undefined;
  readonly type: string | undefined;
  readonly details: string | undefined;
  readonly fbtraceId: string | undefined;
  readonly isTransient: boolean;
  readonly retryAfterMs: number | undefined;

  constructor(init: GraphApiErrorInit) {
    const what = init.graphCode === undefined ? "no Graph error code" : `error ${init.graphCode}`;
    const said = [init.graphMessage, init.details].filter((text) => text !== undefined && text !== "");
    const trace = init.fbtraceId === undefined ? "" : ` (fbtrace_id ${init.fbtraceId})`;
    super(
      graphApiErrorCatalog.graphError.code,
      `Graph API refused ${init.operation}: HTTP ${init.status}, ${what}${said.length > 0 ? `: ${said.join(" — ")}` : ""}${trace}`,
    );
    this.operation = init.operation;
    this.status = init.status;
    this.graphCode = init.graphCode;
    this.graphSubcode = init.graphSubcode;
    this.type = init.type;
    this.details = init.details;
    this.fbtraceId = init.fbtraceId;
    this.isTransient = init.isTransient ?? false;
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** Why a call failed on the wire. */
export type TransportFailure = "timeout" | "network";

/**
 * A Graph API call failed on the network: DNS, connection refused or reset,
 * or no complete answer within the timeout. `requestWritten` is true when
 * the whole request had been handed to the network, so Meta may have acted on
 * it and the outcome is unknown; false means Meta cannot have received it.
 */
export class TransportError extends SharpsharpError {
  readonly operation: string;
  readonly failure: TransportFailure;
  readonly requestWritten: boolean;
  /** The system error code, e.g. `ECONNREFUSED`, when there is one. */
  readonly networkCode: string | undefined;

  constructor(
    operation: string,
    failure: TransportFailure,
    requestWritten: boolean,
    detail: string,
    options: { readonly networkCode?: string; readonly cause?: unknown } = {},
  ) {
    const outcome = requestWritten
      ? "the request was sent, so Meta may have acted on it"
      : "the request was not sent";
    super(graphApiErrorCatalog.transport.code, `Graph API ${operation} failed (${detail}); ${outcome}`, {
      cause: options.cause,
    });
    this.operation = operation;
    this.failure = failure;
    this.requestWritten = requestWritten;
    this.networkCode = options.networkCode;
  }
}

/**
 * Meta answered 2xx with a body that is not the documented success shape.
 * For a send this means the message was most likely accepted: do not resend.
 */
export class UnexpectedResponseError extends SharpsharpError {
  readonly operation: string;
  readonly status: number;

  constructor(operation: string, status: number, problem: string) {
    super(
      graphApiErrorCatalog.unexpectedResponse.code,
      `Graph API ${operation} answered HTTP ${status} with an unexpected body (${problem})`,
    );
    this.operation = operation;
    this.status = status;
  }
}

/** A Graph API answer or media download is larger than `limitBytes`; it was not read further. */
export class ResponseTooLargeError extends SharpsharpError {
  readonly operation: string;
  readonly limitBytes: number;

  constructor(operation: string, limitBytes: number, declaredBytes?: number) {
    const size = declaredBytes === undefined ? "more than that" : `${declaredBytes} bytes`;
    super(
      graphApiErrorCatalog.responseTooLarge.code,
      `Graph API ${operation}: the answer is larger than ${limitBytes} bytes (${size})`,
    );
    this.operation = operation;
    this.limitBytes = limitBytes;
  }
}

/**
 * A media URL points outside the hosts the bearer token may go to (the Graph
 * API's own host, or an allowed suffix over https). No request was made. The
 * message names the host only, never the signed URL.
 */
export class MediaHostNotAllowedError extends SharpsharpError {
  readonly operation: string;
  readonly host: string;

  constructor(operation: string, host: string, protocol: string) {
    super(
      graphApiErrorCatalog.mediaHostNotAllowed.code,
      `Graph API ${operation}: refused to send the token to ${protocol}//${host} (not the Graph API host nor an allowed media host over https)`,
    );
    this.operation = operation;
    this.host = host;
  }
}
