import http from "node:http";
import https from "node:https";
import { ResponseTooLargeError, TransportError } from "./graph-api-errors.js";

/** One HTTP exchange, described without any HTTP library's types. */
export interface HttpRequest {
  /** Names the call in error messages, e.g. `send message`. */
  readonly operation: string;
  readonly method: "GET" | "POST";
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  /** A string is sent as UTF-8; bytes as they are. */
  readonly body?: string | Uint8Array;
  /** The whole exchange (connect, send, answer, body) must finish within this, ms. */
  readonly timeoutMs: number;
  /** The answer's body may hold at most this many bytes. */
  readonly maxBytes: number;
}

/** Any complete HTTP answer, error statuses included. */
export interface HttpResponse {
  readonly status: number;
  /** Lower-case names; repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

/**
 * The wire under the Graph API client. `request` resolves with any HTTP
 * answer (error statuses included) and rejects with `TransportError` or
 * `ResponseTooLargeError`.
 */
export interface HttpTransport {
  request(request: HttpRequest): Promise<HttpResponse>;
  /** Closes idle keep-alive connections. */
  close(): Promise<void>;
}

/** Options of the node:http transport. */
export interface HttpTransportOptions {
  /** Most sockets per host; default 256. */
  readonly maxSockets?: number;
}

function flatHeaders(raw: http.IncomingHttpHeaders): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return headers;
}

function networkCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/**
 * An `HttpTransport` on node:http/https with keep-alive agents. It tells
 * whether a failed request was written: the request's `finish` event fires
 * once headers and body are handed to the operating system, which needs a
 * connection; a refused or unresolvable host never gets there.
 */
export function createHttpTransport(options: HttpTransportOptions = {}): HttpTransport {
  const agentOptions = { keepAlive: true, maxSockets: options.maxSockets ?? 256 };
  const agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };

  const request = (spec: HttpRequest): Promise<HttpResponse> =>
    new Promise((resolve, reject) => {
      const secure = spec.url.protocol === "https:";
      const headers: Record<string, string> = { ...spec.headers };
      const payload =
        spec.body === undefined
          ? undefined
          : typeof spec.body === "string"
            ? Buffer.from(spec.body, "utf8")
            : Buffer.from(spec.body.buffer, spec.body.byteOffset, spec.body.byteLength);
      if (payload !== undefined) headers["content-length"] = String(payload.length);
      let written = false;
      let settled = false;

      const outgoing = (secure ? https : http).request(spec.url, {
        method: spec.method,
        headers,
        agent: secure ? agents.https : agents.http,
      });
      const fail = (error: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        outgoing.destroy();
        reject(error);
      };
      const timer = setTimeout(
        () =>
          fail(
            new TransportError(
              spec.operation,
              "timeout",
              written,
              `no complete answer within ${spec.timeoutMs} ms`,
            ),
          ),
        spec.timeoutMs,
      );

      outgoing.on("finish", () => {
        written = true;
      });
      outgoing.on("error", (cause) => {
        const code = networkCode(cause);
        const detail = `${code ?? cause.message} talking to ${spec.url.host}`;
        fail(
          new TransportError(spec.operation, "network", written, detail, {
            cause,
            ...(code === undefined ? {} : { networkCode: code }),
          }),
        );
      });
      outgoing.on("response", (incoming) => {
        // An answer means the request arrived, whatever happens to the body afterwards.
        written = true;
        const declared = Number(incoming.headers["content-length"]);
        if (Number.isFinite(declared) && declared > spec.maxBytes) {
          fail(new ResponseTooLargeError(spec.operation, spec.maxBytes, declared));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        incoming.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > spec.maxBytes) fail(new ResponseTooLargeError(spec.operation, spec.maxBytes));
          else chunks.push(chunk);
        });
        incoming.on("error", (cause) =>
          fail(new TransportError(spec.operation, "network", true, "the answer was cut off", { cause })),
        );
        incoming.on("close", () => {
          if (!incoming.complete) {
            fail(new TransportError(spec.operation, "network", true, "the answer was cut off"));
          }
        });
        incoming.on("end", () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve({
            status: incoming.statusCode ?? 0,
            headers: flatHeaders(incoming.headers),
            body: Buffer.concat(chunks),
          });
        });
      });
      outgoing.end(payload);
    });

  return {
    request,
    async close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
