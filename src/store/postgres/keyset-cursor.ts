import { StoreInvalidPageError } from "../errors.js";

/** Largest page the console queries serve. */
export const MAX_PAGE = 500;

/**
 * A page boundary: the sort time (ms) and a tie-breaker of the last item
 * served. Paging by time alone would skip or repeat rows that share a
 * millisecond at a page edge.
 */
export interface Keyset {
  readonly atMs: number;
  readonly tieBreaker: string;
}

export function encodeCursor(keyset: Keyset): string {
  return Buffer.from(JSON.stringify([keyset.atMs, keyset.tieBreaker])).toString("base64url");
}

export function decodeCursor(cursor: string): Keyset {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(parsed) && Number.isFinite(parsed[0]) && typeof parsed[1] === "string") {
      return { atMs: parsed[0] as number, tieBreaker: parsed[1] };
    }
  } catch {
    // fall through to the error below
  }
  throw new StoreInvalidPageError("the `before` cursor is not one this store handed out");
}

export function checkLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE) {
    throw new StoreInvalidPageError(`limit must be an integer from 1 to ${MAX_PAGE}, got ${limit}`);
  }
  return limit;
}
