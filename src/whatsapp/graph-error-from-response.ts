import { GraphApiError } from "./graph-api-errors.js";
import { businessUsageSchema, graphErrorBodySchema } from "./graph-api-schemas.js";
import type { HttpResponse } from "./http-transport.js";

/** What turning an answer into an error needs besides the answer. */
export interface GraphErrorContext {
  /** Replaced by `[redacted]` wherever Meta's text quotes it. */
  readonly token: string;
  /** ms since the epoch, for a Retry-After given as a date. */
  readonly now: () => number;
}

/** Replaces every occurrence of `secret` in `text`. */
export function redact(text: string | undefined, secret: string): string | undefined {
  if (text === undefined || secret === "") return text;
  return text.split(secret).join("[redacted]");
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    return undefined;
  }
}

/** `Retry-After` (seconds or an HTTP date) in ms from now. */
function retryAfterHeader(value: string | undefined, now: () => number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now());
}

/** The longest `estimated_time_to_regain_access` (minutes) in `X-Business-Use-Case-Usage`, in ms. */
function businessUsageWait(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = businessUsageSchema.safeParse(parseJson(Buffer.from(value, "utf8")));
  if (!parsed.success) return undefined;
  const minutes = Object.values(parsed.data)
    .flat()
    .map((usage) => usage.estimated_time_to_regain_access ?? 0);
  const longest = Math.max(0, ...minutes);
  return longest > 0 ? longest * 60_000 : undefined;
}

/** Meta's hint of how long to wait before calling again, if it gave one. */
export function retryAfterMs(
  headers: Readonly<Record<string, string>>,
  now: () => number,
): number | undefined {
  const hints = [
    retryAfterHeader(headers["retry-after"], now),
    businessUsageWait(headers["x-business-use-case-usage"]),
  ].filter((hint): hint is number => hint !== undefined);
  return hints.length === 0 ? undefined : Math.max(...hints);
}

/**
 * The `GraphApiError` for a non-2xx answer: Meta's code, subcode, details,
 * trace id and wait hint when the body is a Graph error, else just the HTTP
 * status. Meta's text is redacted of the token before it is kept.
 */
export function graphErrorFromResponse(
  operation: string,
  response: HttpResponse,
  context: GraphErrorContext,
): GraphApiError {
  const parsed = graphErrorBodySchema.safeParse(parseJson(response.body));
  const error = parsed.success ? parsed.data.error : undefined;
  return new GraphApiError({
    operation,
    status: response.status,
    graphCode: error?.code,
    graphSubcode: error?.error_subcode,
    graphMessage: redact(error?.message, context.token),
    type: error?.type,
    details: redact(error?.error_data?.details, context.token),
    fbtraceId: error?.fbtrace_id,
    isTransient: error?.is_transient,
    retryAfterMs: retryAfterMs(response.headers, context.now),
  });
}
