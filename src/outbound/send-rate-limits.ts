/** Meta's pair limit as the sender paces it. */
export interface PairLimit {
  /** Sends allowed at once to one recipient (default 10, as Meta allows short bursts). */
  readonly burst: number;
  /** One more send per this many ms (default 6,000: Meta's one message per 6 s). */
  readonly intervalMs: number;
}

/** The limits every SendRateLimiter adapter takes, with the same defaults. */
export interface SendRateLimitOptions {
  /** Sends per second per phone number id; default 80 (Meta's standard tier). */
  readonly throughputMps?: number;
  /**
   * Sends one number may make at once before pacing starts; default mps ÷ 10.
   * Smaller than Meta's bucket (a second's worth) on purpose: the rest is
   * headroom for network jitter, which bunches sends up on Meta's side.
   */
  readonly throughputBurst?: number;
  readonly pairLimit?: Partial<PairLimit>;
  /** Slots further away than this are not reserved (the job is delayed instead), ms; default 1,000. */
  readonly horizonMs?: number;
  /**
   * Sends per second of each business number that has its own (its tenant's `throughputMps`), so one
   * tenant's setting never paces another's numbers; a number not listed gets `throughputMps`.
   */
  readonly throughputMpsByNumber?: ReadonlyMap<string, number>;
}

export const DEFAULT_THROUGHPUT_MPS = 80;
export const DEFAULT_PAIR_LIMIT: PairLimit = { burst: 10, intervalMs: 6000 };

/** The GCRA parameters of both limits, in ms (see rate-limit-script.ts). */
export interface GcraLimits {
  readonly numberInterval: number;
  readonly numberTolerance: number;
  readonly pairInterval: number;
  readonly pairTolerance: number;
  readonly horizonMs: number;
}

/** Fills in the defaults and checks the limits; throws TypeError on a limit that cannot work. */
export function resolveSendRateLimits(options: SendRateLimitOptions): GcraLimits {
  const mps = options.throughputMps ?? DEFAULT_THROUGHPUT_MPS;
  if (!(mps > 0)) throw new TypeError("throughputMps must be positive");
  const burst = options.throughputBurst ?? Math.max(1, Math.ceil(mps / 10));
  const pair: PairLimit = { ...DEFAULT_PAIR_LIMIT, ...options.pairLimit };
  if (!(pair.burst >= 1 && pair.intervalMs > 0))
    throw new TypeError("pairLimit needs burst ≥ 1, intervalMs > 0");
  const interval = 1000 / mps;
  return {
    numberInterval: interval,
    numberTolerance: (burst - 1) * interval,
    pairInterval: pair.intervalMs,
    pairTolerance: (pair.burst - 1) * pair.intervalMs,
    horizonMs: options.horizonMs ?? 1000,
  };
}

/** The limits of each number: its own rate when it has one, else the default's. */
export function resolveSendRateLimitsByNumber(
  options: SendRateLimitOptions,
): (phoneNumberId: string) => GcraLimits {
  const fallback = resolveSendRateLimits(options);
  const own = new Map<string, GcraLimits>();
  for (const [phoneNumberId, throughputMps] of options.throughputMpsByNumber ?? []) {
    // A burst given for all numbers holds for each; else each number's follows its own rate.
    own.set(phoneNumberId, resolveSendRateLimits({ ...options, throughputMps }));
  }
  return (phoneNumberId) => own.get(phoneNumberId) ?? fallback;
}
