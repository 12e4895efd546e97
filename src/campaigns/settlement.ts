import type { RecipientOutcome, RecipientState } from "./campaign-types.js";

/**
 * The columns a settle writes, the same in both adapters. A null `wamid`, `errorCode`, `notBefore`,
 * `sentAt` or `failedAt` keeps what the row holds (a retry's code stays on a later failure).
 */
export interface Settlement {
  readonly state: RecipientState;
  readonly wamid: string | null;
  readonly errorCode: number | null;
  readonly reason: string | null;
  readonly notBefore: number | null;
  /** 1 for a failed attempt (a retry or a failure), else 0. */
  readonly attempts: 0 | 1;
  readonly sentAt: number | null;
  readonly failedAt: number | null;
  readonly unknownSince: number | null;
}

const NOTHING = {
  wamid: null,
  errorCode: null,
  reason: null,
  notBefore: null,
  attempts: 0,
  sentAt: null,
  failedAt: null,
  unknownSince: null,
} as const;

export function settlementOf(outcome: RecipientOutcome, now: number): Settlement {
  switch (outcome.kind) {
    case "sent":
      return { ...NOTHING, state: "sent", wamid: outcome.wamid, sentAt: now };
    case "failed":
      return {
        ...NOTHING,
        state: "failed",
        errorCode: outcome.code ?? null,
        reason: outcome.reason,
        attempts: 1,
        failedAt: now,
      };
    case "skipped":
      return { ...NOTHING, state: "skipped", reason: outcome.reason };
    case "retry":
      return {
        ...NOTHING,
        state: "pending",
        errorCode: outcome.code ?? null,
        reason: outcome.reason ?? null,
        notBefore: outcome.notBefore,
        attempts: 1,
      };
    case "unknown":
      return { ...NOTHING, state: "unknown", unknownSince: now };
    case "release":
      // Not attempted: no attempt counted, and no error to keep.
      return { ...NOTHING, state: "pending", reason: outcome.reason ?? null, notBefore: outcome.notBefore };
  }
}
