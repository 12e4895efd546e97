import { createHash, timingSafeEqual } from "node:crypto";

const digest = (value: string): Buffer => createHash("sha256").update(value, "utf8").digest();

/**
 * Whether an `Authorization` header carries `Bearer <token>`. The comparison
 * takes the same time whatever the header holds: both sides are hashed to one
 * length first, so neither a prefix nor the token's length can be timed out.
 */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer +(\S+) *$/i.exec(header ?? "");
  return timingSafeEqual(digest(match?.[1] ?? ""), digest(token)) && match !== null;
}
