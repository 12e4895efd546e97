export interface KeyedTokenBucketsOptions {
  /** Most tokens a bucket holds (the burst). */
  readonly capacity: number;
  /** A bucket gains `refillTokens` every `refillEveryMs`, continuously. */
  readonly refillTokens: number;
  readonly refillEveryMs: number;
  readonly now: () => number;
}

/** One token bucket per key: a key's first take finds its bucket full. */
export interface KeyedTokenBuckets {
  /** Takes one token from `key`'s bucket; false (and nothing taken) when it is empty. */
  tryTake(key: string): boolean;
  /** Tokens left in `key`'s bucket now. */
  available(key: string): number;
  clear(): void;
}

interface Bucket {
  tokens: number;
  at: number;
}

// Buckets that have refilled completely are dropped past this many keys; a full bucket and no bucket behave the same.
const SWEEP_ABOVE = 10_000;

/**
 * Token buckets keyed by a string (a phone number id, a sender-recipient
 * pair), refilled continuously on an injected clock.
 */
export function createKeyedTokenBuckets(options: KeyedTokenBucketsOptions): KeyedTokenBuckets {
  const { capacity, now } = options;
  const perMs = options.refillTokens / options.refillEveryMs;
  const buckets = new Map<string, Bucket>();

  const refilled = (bucket: Bucket, at: number): number =>
    Math.min(capacity, bucket.tokens + Math.max(0, at - bucket.at) * perMs);

  const sweep = (at: number) => {
    for (const [key, bucket] of buckets) if (refilled(bucket, at) >= capacity) buckets.delete(key);
  };

  return {
    tryTake(key) {
      const at = now();
      let bucket = buckets.get(key);
      if (bucket === undefined) {
        if (buckets.size >= SWEEP_ABOVE) sweep(at);
        bucket = { tokens: capacity, at };
        buckets.set(key, bucket);
      }
      bucket.tokens = refilled(bucket, at);
      bucket.at = at;
      // A hair of tolerance: refill arithmetic in floating point must not lose a whole token.
      if (bucket.tokens < 1 - 1e-9) return false;
      bucket.tokens = Math.max(0, bucket.tokens - 1);
      return true;
    },
    available(key) {
      const bucket = buckets.get(key);
      return bucket === undefined ? capacity : refilled(bucket, now());
    },
    clear() {
      buckets.clear();
    },
  };
}
