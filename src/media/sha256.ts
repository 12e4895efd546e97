import { createHash } from "node:crypto";

/** SHA-256 of `bytes` as base64, the way Meta writes it in webhooks. */
export function sha256Base64(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("base64");
}

/**
 * Whether `expected` names the digest `actualBase64`. Webhooks carry base64;
 * recorded `GET /{media-id}` answers carry 64 hex digits, so both are read
 * (base64url and missing padding too).
 */
export function sha256Matches(expected: string, actualBase64: string): boolean {
  const text = expected.trim();
  const actual = Buffer.from(actualBase64, "base64");
  const given = /^[0-9a-f]{64}$/i.test(text)
    ? Buffer.from(text, "hex")
    : Buffer.from(text.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  return given.length === actual.length && given.equals(actual);
}
