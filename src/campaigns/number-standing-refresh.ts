import type { Logger } from "../observability/index.js";
import type { PhoneNumberStanding } from "../whatsapp/index.js";
import { messagingLimitOfTier } from "./messaging-tiers.js";
import type { NumberQuality, NumberStandings } from "./ports.js";

export interface NumberStandingRefreshDeps {
  readonly standings: NumberStandings;
  /** Every business number with a way to ask Meta about it. */
  readonly numbers: readonly {
    readonly phoneNumberId: string;
    readonly read: () => Promise<PhoneNumberStanding>;
  }[];
  readonly logger: Logger;
  readonly now: () => number;
}

const QUALITIES: ReadonlySet<string> = new Set(["GREEN", "YELLOW", "RED"]);

/**
 * Reads each number's messaging limit and quality from Meta's Graph fields and keeps them, so a
 * campaign knows its number's limit before the first webhook about it (which only comes on a change).
 * A number Meta does not answer for keeps what it had; never rejects.
 */
export function createNumberStandingRefresh(deps: NumberStandingRefreshDeps): () => Promise<void> {
  return async () => {
    for (const number of deps.numbers) {
      try {
        const read = await number.read();
        const before = await deps.standings.get(number.phoneNumberId);
        const tier =
          read.messagingLimitTier === undefined ? null : messagingLimitOfTier(read.messagingLimitTier);
        const messagingLimit = tier === null ? before?.messagingLimit : tier;
        const quality: NumberQuality =
          read.qualityRating !== undefined && QUALITIES.has(read.qualityRating)
            ? (read.qualityRating as NumberQuality)
            : (before?.quality ?? "UNKNOWN");
        await deps.standings.set({
          phoneNumberId: number.phoneNumberId,
          quality,
          updatedAt: deps.now(),
          ...(messagingLimit === undefined ? {} : { messagingLimit }),
        });
      } catch (error) {
        deps.logger.warn(
          { err: error, phoneNumberId: number.phoneNumberId },
          "could not read the number's messaging limit from Meta; keeping what is known",
        );
      }
    }
  };
}
