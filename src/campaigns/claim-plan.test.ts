import { describe, expect, it } from "vitest";
import { type ClaimCandidate, limitedUntilOf, placesLeft, planClaim } from "./claim-plan.js";

const candidate = (seq: number, over: Partial<ClaimCandidate> = {}): ClaimCandidate => ({
  seq,
  customerId: `c${seq}`,
  suppressed: false,
  inWindow: false,
  ...over,
});

describe("planClaim", () => {
  it("skips suppressed customers and claims up to the number wanted", () => {
    const plan = planClaim(
      [candidate(1, { suppressed: true }), candidate(2), candidate(3), candidate(4)],
      2,
      10,
    );
    expect(plan).toEqual({ claim: [candidate(2), candidate(3)], skip: [1], placesTaken: 2, held: false });
  });

  it("holds new customers once the places are taken, still claiming those already in the window", () => {
    const page = [candidate(1), candidate(2), candidate(3, { inWindow: true }), candidate(4)];
    const plan = planClaim(page, 10, 1);
    expect(plan.claim.map((c) => c.seq)).toEqual([1, 3]);
    expect(plan).toMatchObject({ placesTaken: 1, held: true, skip: [] });
  });

  it("holds nothing when the page ends before the places do", () => {
    expect(planClaim([candidate(1)], 5, 1)).toMatchObject({ held: false, placesTaken: 1 });
  });
});

describe("the window's figures", () => {
  it("frees a place a window after its oldest entry; an empty window a window from now", () => {
    expect(limitedUntilOf(100, 500, 1_000)).toBe(1_100);
    expect(limitedUntilOf(undefined, 500, 1_000)).toBe(1_500);
    expect(placesLeft(undefined, 10)).toBe(Number.POSITIVE_INFINITY);
    expect(placesLeft(5, 7)).toBe(0);
    expect(placesLeft(5, 3)).toBe(2);
  });
});
