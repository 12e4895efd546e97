import { StoreInvalidQueryError } from "./errors.js";
import type { ActivityBucket } from "./ports.js";

/** Most buckets one `activity` call returns: a dashboard's chart, not an export. */
export const MAX_ACTIVITY_BUCKETS = 10_000;

/** The buckets an `activity` call covers: `[startMs, endMs)`, `count` buckets of `bucketMs`. */
export interface ActivityWindow {
  readonly startMs: number;
  readonly endMs: number;
  readonly bucketMs: number;
  readonly count: number;
}

/** From `sinceMs` rounded down to a bucket up to the bucket holding `nowMs`. */
export function activityWindow(sinceMs: number, bucketMs: number, nowMs: number): ActivityWindow {
  if (!Number.isSafeInteger(bucketMs) || bucketMs < 1) {
    throw new StoreInvalidQueryError(`bucketMs must be a positive whole number of ms, got ${bucketMs}`);
  }
  if (!Number.isFinite(sinceMs)) throw new StoreInvalidQueryError(`sinceMs must be a time, got ${sinceMs}`);
  const startMs = Math.floor(sinceMs / bucketMs) * bucketMs;
  const count = Math.max(0, Math.floor(nowMs / bucketMs) - startMs / bucketMs + 1);
  if (count > MAX_ACTIVITY_BUCKETS) {
    throw new StoreInvalidQueryError(`${count} buckets asked for, more than ${MAX_ACTIVITY_BUCKETS}`);
  }
  return { startMs, endMs: startMs + count * bucketMs, bucketMs, count };
}

/** One row of an adapter's grouped counts: the bucket's index from the window's start, and its figures. */
export type BucketFigures = { readonly bucket: number } & Partial<Omit<ActivityBucket, "at">>;

/**
 * Every bucket of the window, oldest first, with the adapters' grouped rows
 * summed in: a bucket nothing happened in is there with zeros, so a chart
 * needs no gap filling. Drivers give some sums as strings (node-postgres'
 * bigint and numeric), hence `Number`.
 */
export function bucketsOf(window: ActivityWindow, rows: readonly BucketFigures[]): ActivityBucket[] {
  const buckets = Array.from({ length: window.count }, (_, index) => ({
    at: window.startMs + index * window.bucketMs,
    inbound: 0,
    outbound: 0,
    operatorMessages: 0,
    turns: 0,
    localTurns: 0,
    agentTurns: 0,
    promptTokens: 0,
    completionTokens: 0,
    costUsd: 0,
    failedDeliveries: 0,
  }));
  for (const row of rows) {
    const bucket = buckets[Number(row.bucket)];
    if (bucket === undefined) continue;
    for (const [name, value] of Object.entries(row)) {
      if (name === "bucket" || value === null || value === undefined) continue;
      const figure = name as keyof Omit<ActivityBucket, "at">;
      bucket[figure] += Number(value);
    }
  }
  return buckets;
}
