/** A due pending recipient a claim met, with what the number and tenant know of its customer. */
export interface ClaimCandidate {
  readonly seq: number;
  readonly customerId: string;
  /** On the tenant's suppression list. */
  readonly suppressed: boolean;
  /** Already holds a place in the number's messaging window: costs none. */
  readonly inWindow: boolean;
}

export interface ClaimPlan {
  /** To claim, in the order met. */
  readonly claim: readonly ClaimCandidate[];
  /** Suppressed: to skip as opted out. */
  readonly skip: readonly number[];
  /** Places in the window the claimed take. */
  readonly placesTaken: number;
  /** A new customer was met with no place left for it. */
  readonly held: boolean;
}

/**
 * Decides one page of a claim: suppressed customers are skipped, customers already in the window
 * are claimed for free, new ones while places are left, up to `wanted`. Pure, so both adapters
 * decide alike.
 */
export function planClaim(candidates: readonly ClaimCandidate[], wanted: number, places: number): ClaimPlan {
  const claim: ClaimCandidate[] = [];
  const skip: number[] = [];
  let placesTaken = 0;
  let held = false;
  for (const candidate of candidates) {
    if (claim.length >= wanted) break;
    if (candidate.suppressed) {
      skip.push(candidate.seq);
    } else if (candidate.inWindow) {
      claim.push(candidate);
    } else if (placesTaken < places) {
      claim.push(candidate);
      placesTaken += 1;
    } else {
      held = true;
    }
  }
  return { claim, skip, placesTaken, held };
}

/**
 * When a place in the window frees up: its oldest entry's time plus the window. Entries this claim
 * made are at `now`; an empty window (a limit of 0) frees nothing sooner than a window from now.
 */
export function limitedUntilOf(oldestAt: number | undefined, now: number, windowMs: number): number {
  return Math.min(oldestAt ?? now, now) + windowMs;
}

/** Places a number has left: unlimited without a limit. */
export function placesLeft(messagingLimit: number | undefined, inWindow: number): number {
  return messagingLimit === undefined ? Number.POSITIVE_INFINITY : Math.max(0, messagingLimit - inWindow);
}
