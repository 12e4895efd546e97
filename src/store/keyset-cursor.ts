import { StoreInvalidPageError } from "./errors.js";
import type { Page } from "./ports.js";

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

/**
 * Cuts a page from `limit + 1` rows, newest first: the extra row only tells
 * that an older page exists, and the last row served becomes the cursor.
 */
export function pageOf<Row, Item>(
  rows: Row[],
  limit: number,
  toItem: (row: Row) => Item,
  keysetOf: (row: Row) => Keyset,
): Page<Item> {
  const served = rows.slice(0, limit);
  const last = served.at(-1);
  const items = served.map(toItem);
  return rows.length > limit && last !== undefined
    ? { items, next: encodeCursor(keysetOf(last)) }
    : { items };
}

/**
 * The tie-breaker of a message cursor is its row id; anything else was not
 * handed out by a store, and it matches no row rather than failing the page.
 */
export function messageIdOf(keyset: Keyset): string | undefined {
  return /^\d+$/.test(keyset.tieBreaker) ? keyset.tieBreaker : undefined;
}
