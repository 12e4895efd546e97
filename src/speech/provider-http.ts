import { request } from "undici";
import { SpeechError, type SpeechProviderRole, speechErrorCatalog } from "./errors.js";

/** One POST to an OpenAI-compatible audio endpoint. */
export interface ProviderCall {
  /** Names the call in error messages: `transcription`, `speech`. */
  readonly operation: string;
  readonly role: SpeechProviderRole;
  /** The provider's base URL, with its `/v1`, e.g. `https://api.openai.com/v1`. */
  readonly baseUrl: string;
  /** Appended to the base URL, e.g. `/audio/transcriptions`. */
  readonly path: string;
  readonly apiKey: string | undefined;
  /** Multipart (encoded with its boundary as the content type) or JSON. */
  readonly body: FormData | { readonly json: unknown };
  /** The whole exchange, answer body included, ms. */
  readonly timeoutMs: number;
  /** The answer's body may hold at most this many bytes. */
  readonly maxBytes: number;
}

/** A 2xx answer. */
export interface ProviderAnswer {
  /** Lower-case, parameters included; "" when absent. */
  readonly contentType: string;
  readonly body: Buffer;
}

const RETRYABLE_STATUSES = new Set([408, 409, 425, 429]);
const QUOTE_LIMIT = 300;

/** Whether a provider's HTTP status may succeed later or elsewhere. */
export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status) || status >= 500;
}

/**
 * Provider text with anything key-like taken out: the key itself, and the
 * masked key OpenAI quotes back in a 401 ("Incorrect API key provided: sk-ab***cd").
 */
export function redactKey(text: string, apiKey: string | undefined): string {
  let out = text;
  if (apiKey !== undefined && apiKey.length > 0) out = out.split(apiKey).join("[redacted]");
  out = out.replace(/\b(?:sk|gsk|rk|pk|key)[-_][\w*.-]{4,}/gi, "[redacted]");
  out = out.replace(/(API key provided:?\s*)\S+/gi, "$1[redacted]");
  return out.length > QUOTE_LIMIT ? `${out.slice(0, QUOTE_LIMIT)}…` : out;
}

/** The provider's own words from an error body: OpenAI's `error.message`, FastAPI's `detail`, or the text. */
function providerSays(body: Buffer): string {
  const text = body.toString("utf8").trim();
  try {
    const parsed = JSON.parse(text) as {
      error?: { message?: unknown } | string;
      detail?: unknown;
      message?: unknown;
    };
    const candidate =
      typeof parsed.error === "object" && parsed.error !== null
        ? parsed.error.message
        : (parsed.error ?? parsed.detail ?? parsed.message);
    if (typeof candidate === "string") return candidate;
    if (candidate !== undefined) return JSON.stringify(candidate);
  } catch {
    // Not JSON: a proxy's HTML or a plain text answer; quoted as is (shortened).
  }
  return text.replace(/\s+/g, " ");
}

type Answer = Awaited<ReturnType<typeof request>>;

async function readCapped(response: Answer, maxBytes: number): Promise<Buffer | undefined> {
  const declared = Number(response.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body.dump().catch(() => undefined);
    return undefined;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      response.body.destroy();
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * A form as one buffer, in the multipart encoding fetch would send: written to the socket at once,
 * where streaming the form wrote each boundary and part separately (several system calls a voice note).
 */
async function encodeForm(form: FormData): Promise<{ contentType: string; bytes: Buffer }> {
  const encoded = new Response(form);
  const contentType = encoded.headers.get("content-type") ?? "multipart/form-data";
  return { contentType, bytes: Buffer.from(await encoded.arrayBuffer()) };
}

/**
 * Loads Node's own fetch implementation (which FormData and Response come from) by encoding one
 * small form, so the first voice note does not pay for loading it while text turns wait beside it.
 */
export async function loadFormEncoder(): Promise<void> {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(1)], { type: "audio/ogg" }), "warm-up.ogg");
  await encodeForm(form);
}

function networkDetail(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && !code.startsWith("UND_ERR_")) return code;
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === "string") return cause.code;
  if (typeof cause?.message === "string") return cause.message;
  return (error as Error).message ?? String(error);
}

/**
 * POSTs to the provider (undici's request, lighter than fetch) and resolves with a 2xx answer;
 * anything else becomes a SpeechError: the caller's abort (`aborted`), the
 * timeout, a network failure, 408/429/5xx (`unavailable`, retryable), other
 * statuses (`refused`), an answer over `maxBytes` (`unexpectedResponse`).
 */
export async function callProvider(call: ProviderCall, signal?: AbortSignal): Promise<ProviderAnswer> {
  const where = `${call.role} speech provider (${call.operation})`;
  if (signal?.aborted)
    throw new SpeechError(speechErrorCatalog.aborted.code, `${where}: aborted`, { retryable: false });
  const timeout = AbortSignal.timeout(call.timeoutMs);
  const both = signal === undefined ? timeout : AbortSignal.any([signal, timeout]);
  const url = `${call.baseUrl.replace(/\/+$/, "")}${call.path}`;
  const headers: Record<string, string> = {
    accept: "application/json, audio/*;q=0.9, */*;q=0.5",
    "user-agent": "sharpsharp",
  };
  if (call.apiKey !== undefined) headers.authorization = `Bearer ${call.apiKey}`;
  let body: Buffer | string;
  if (call.body instanceof FormData) {
    const form = await encodeForm(call.body);
    headers["content-type"] = form.contentType;
    body = form.bytes;
  } else {
    headers["content-type"] = "application/json";
    body = JSON.stringify(call.body.json);
  }
  const failed = (error: unknown): SpeechError => {
    if (error instanceof SpeechError) return error;
    if (signal?.aborted)
      return new SpeechError(speechErrorCatalog.aborted.code, `${where}: aborted`, { retryable: false });
    if (timeout.aborted)
      return new SpeechError(
        speechErrorCatalog.unavailable.code,
        `${where}: no complete answer within ${call.timeoutMs} ms`,
        { retryable: true },
      );
    return new SpeechError(
      speechErrorCatalog.unavailable.code,
      `${where}: connection failed (${redactKey(networkDetail(error), call.apiKey)}) talking to ${new URL(url).host}`,
      { retryable: true },
    );
  };
  try {
    // undici acts on an abort only once connected (or at its own 10 s connect timeout): the race keeps
    // the timeout and the caller's abort prompt against a host that does not answer the connect.
    const abandoned = new Promise<never>((_, reject) => {
      if (both.aborted) reject(both.reason);
      else both.addEventListener("abort", () => reject(both.reason), { once: true });
    });
    abandoned.catch(() => {});
    // A proxy's 307/308 (http to https) is followed, as fetch did; the body is one buffer, so it can be sent again.
    const response = await Promise.race([
      request(url, { method: "POST", headers, body, signal: both, maxRedirections: 2 }),
      abandoned,
    ]);
    const answer = await readCapped(response, call.maxBytes);
    if (answer === undefined) {
      throw new SpeechError(
        speechErrorCatalog.unexpectedResponse.code,
        `${where}: the answer is larger than ${call.maxBytes} bytes`,
        { retryable: true, status: response.statusCode },
      );
    }
    if (response.statusCode < 200 || response.statusCode > 299) {
      const retryable = isRetryableStatus(response.statusCode);
      const said = redactKey(providerSays(answer), call.apiKey);
      throw new SpeechError(
        retryable ? speechErrorCatalog.unavailable.code : speechErrorCatalog.refused.code,
        `${where}: HTTP ${response.statusCode}${said === "" ? "" : `: ${said}`}`,
        { retryable, status: response.statusCode },
      );
    }
    const typed = response.headers["content-type"];
    const contentType = (Array.isArray(typed) ? typed[0] : typed) ?? "";
    return { contentType: contentType.toLowerCase(), body: answer };
  } catch (error) {
    throw failed(error);
  }
}

/**
 * Runs `primary`, and `fallback` when the primary failed retryably (and the
 * caller has not given up). When both fail, the error names both failures.
 */
export async function withFallbackProvider<T>(
  primary: () => Promise<T>,
  fallback: (() => Promise<T>) | undefined,
  signal: AbortSignal | undefined,
): Promise<T> {
  try {
    return await primary();
  } catch (error) {
    if (fallback === undefined || !(error instanceof SpeechError) || !error.retryable || signal?.aborted)
      throw error;
    try {
      return await fallback();
    } catch (second) {
      if (!(second instanceof SpeechError) || second.code === speechErrorCatalog.aborted.code) throw second;
      // The primary's failure was transient, so the whole call may succeed later.
      throw new SpeechError(
        speechErrorCatalog.unavailable.code,
        `both speech providers failed: ${error.message}; ${second.message}`,
        { retryable: true, ...(second.status === undefined ? {} : { status: second.status }), cause: second },
      );
    }
  }
}
