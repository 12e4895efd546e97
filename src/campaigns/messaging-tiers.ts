/** Meta's messaging-limit tiers (current_limit) as unique customers per 24 h; absent: unlimited. */
export const MESSAGING_LIMIT_TIERS: Readonly<Record<string, number | undefined>> = {
  TIER_50: 50,
  TIER_250: 250,
  TIER_1K: 1_000,
  TIER_2K: 2_000,
  TIER_10K: 10_000,
  TIER_100K: 100_000,
  TIER_UNLIMITED: undefined,
};

/** A tier name as a number of customers; `null` for a name Meta does not use (ignored). */
export function messagingLimitOfTier(tier: string): number | undefined | null {
  return tier in MESSAGING_LIMIT_TIERS ? MESSAGING_LIMIT_TIERS[tier] : null;
}
