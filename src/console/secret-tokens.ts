import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** API tokens start with this, so a leaked one is easy to recognise (and to scan for). */
export const API_TOKEN_PREFIX = "sst_";

/** 32 random bytes, base64url: a session cookie, a CSRF token or (prefixed) an API token. */
export function randomToken(): string {
  return randomBytes(32).toString("base64url");
}

/** What the database keeps of a token: its SHA-256, so a read of the table opens no session. */
export function tokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
