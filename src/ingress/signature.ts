import { createHash, createHmac, timingSafeEqual } from "node:crypto";

const PREFIX = "sha256=";
const HEADER_LENGTH = PREFIX.length + 64;

/**
 * Checks Meta's X-Hub-Signature-256 (HMAC-SHA256 of the exact raw body, keyed
 * with the app secret) in constant time. Any malformed header is simply invalid.
 */
export function isValidSignature(
  rawBody: Buffer,
  header: string | string[] | undefined,
  appSecret: string,
): boolean {
  if (typeof header !== "string" || header.length !== HEADER_LENGTH || !header.startsWith(PREFIX))
    return false;
  // Hex decoding stops at the first character that is not hex: anything but 64 hex digits is short.
  const given = Buffer.from(header.slice(PREFIX.length), "hex");
  if (given.length !== 32) return false;
  const expected = createHmac("sha256", appSecret).update(rawBody).digest();
  return timingSafeEqual(given, expected);
}

/** The header value Meta would send for `rawBody` (used by tests, the simulator and benchmarks). */
export function signatureFor(rawBody: Buffer | string, appSecret: string): string {
  return `sha256=${createHmac("sha256", appSecret).update(rawBody).digest("hex")}`;
}

/** Compares two strings in time independent of where they differ, and of their lengths. */
export function constantTimeEquals(a: string, b: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();
  return timingSafeEqual(digest(a), digest(b));
}
