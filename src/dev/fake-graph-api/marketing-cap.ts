import { z } from "zod";

/** A share of sends: 0 to 1. */
export const shareSchema = z.number().min(0).max(1);

/** What `GET /_fake/marketing-cap` answers. */
export interface MarketingCapSnapshot {
  /** Share (0–1) of marketing template sends refused with 131049. */
  readonly share: number;
  /** Marketing template sends the cap looked at, and how many it refused, since the start (or reset). */
  readonly rolled: number;
  readonly refused: number;
}

/**
 * Meta's per-user marketing cap, seen from one business: some marketing
 * templates are withheld (131049) because the customer got too many
 * marketing messages from any business lately. Which customers that hits is
 * invisible to the business, so the fake rolls it per send, on the injected
 * (seedable) random source.
 */
export interface MarketingCap {
  /** True when this marketing template send is to be refused. */
  roll(): boolean;
  snapshot(): MarketingCapSnapshot;
  setShare(share: number): void;
  clear(): void;
}

export function createMarketingCap(initialShare: number, random: () => number): MarketingCap {
  let share = shareSchema.parse(initialShare);
  let rolled = 0;
  let refused = 0;
  return {
    roll() {
      if (share <= 0) return false;
      rolled += 1;
      const hit = random() < share;
      if (hit) refused += 1;
      return hit;
    },
    snapshot: () => ({ share, rolled, refused }),
    setShare(next) {
      share = shareSchema.parse(next);
    },
    clear() {
      rolled = refused = 0;
    },
  };
}
