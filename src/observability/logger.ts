import { createHash } from "node:crypto";
import { type DestinationStream, type Logger, pino } from "pino";
import { splitCustomerOfConversation } from "../whatsapp/index.js";
import { CENSOR, censoredCopy, createLineRedactor } from "./redact-values.js";

export type { Logger } from "pino";

/**
 * Keys whose values never reach a log line, whatever their type: at the top level here (pino's paths);
 * below it, the line redactor censors these and more at any depth (redact-values.ts).
 */
const REDACTED_KEYS = [
  "appSecret",
  "verifyToken",
  "graphToken",
  "token",
  "apiKey",
  "authorization",
  "password",
  "secret",
  "text",
  "body",
  "caption",
];

// No `*.key` wildcard paths: pino runs each on every field of every line (14 µs a line, bench/RESULTS.md).
const REDACT_PATHS = [...REDACTED_KEYS, 'req.headers["x-hub-signature-256"]', "req.headers.authorization"];

export interface CreateLoggerOptions {
  readonly level: string;
  /** Where lines go; stdout by default. Tests pass a stream to read what was logged. */
  readonly destination?: DestinationStream;
  /** The configured secrets (see secretValuesOf), redacted wherever they appear; 8 characters or more. */
  readonly secrets?: readonly string[];
}

/**
 * The process logger: JSON lines, secrets and message text redacted by key
 * (pino's paths at the top level, then the line redactor at any depth, any
 * type) and by value on the finished line: the message, nested objects and an
 * error's message and stack included (see redact-values.ts). Identifiers of customers are
 * masked by the caller with maskCustomerId before they are logged.
 */
export function createLogger(options: CreateLoggerOptions): Logger {
  return pino(
    {
      level: options.level,
      base: { service: "sharpsharp" },
      redact: { paths: REDACT_PATHS, censor: CENSOR },
      hooks: {
        logMethod: censorInterpolated,
        // The serialized line: what pino's serializers and its cycle handling made of every value.
        streamWrite: createLineRedactor(options.secrets),
      },
    },
    options.destination,
  );
}

/**
 * Objects interpolated into the message (`%j`, `%o`, `%O`) land inside the message string, their keys
 * escaped, where the line redactor cannot tell them from text: each is censored here first, at any
 * depth, as logged objects are on the line.
 */
function censorInterpolated(
  this: Logger,
  args: Parameters<Logger["info"]>,
  method: (...args: unknown[]) => void,
): void {
  const values = args as unknown[];
  const formatAt = typeof values[0] === "string" ? 0 : 1;
  for (let at = formatAt + 1; at < values.length; at += 1) {
    const value = values[at];
    if (value !== null && typeof value === "object") values[at] = censoredCopy(value);
  }
  method.apply(this, values);
}

/**
 * Masks a phone number or business-scoped user id for logs: keeps enough to
 * tell customers apart in a support conversation, not enough to call them.
 * "2348012345678" → "234*******678"; "NG.4815162342108765432" → "NG.*************432".
 */
export function maskCustomerId(id: string | undefined): string | undefined {
  if (id === undefined) return undefined;
  if (id.length <= 6) return "*".repeat(id.length);
  const head = id.startsWith("+") ? 4 : 3;
  return `${id.slice(0, head)}${"*".repeat(id.length - head - 3)}${id.slice(-3)}`;
}

/** Masks the customer part of a conversation key (tenant:phone_number_id:customer). */
export function maskConversationKey(key: string): string {
  const { scope, customerId } = splitCustomerOfConversation(key);
  return scope === "" ? key : `${scope}${maskCustomerId(customerId)}`;
}

/**
 * A short, stable stand-in for an identifier that must not appear in logs:
 * a wamid is base64 of a structure that holds the customer's phone number.
 * The same id always gives the same fingerprint, so log lines still correlate.
 */
export function fingerprint(id: string | undefined): string | undefined {
  return id === undefined ? undefined : createHash("sha256").update(id).digest("base64url").slice(0, 12);
}
