import { describe, expect, it } from "vitest";
import { checkLimit, decodeCursor, encodeCursor, MAX_PAGE } from "./keyset-cursor.js";

describe("keyset cursor", () => {
  it("round-trips a boundary, tie-breaker included", () => {
    const keyset = { atMs: 1_768_046_400_123, tieBreaker: "acme:106540352242922:2348012345678" };
    expect(decodeCursor(encodeCursor(keyset))).toEqual(keyset);
  });

  it("refuses a cursor it did not hand out", () => {
    for (const forged of ["", "nonsense", Buffer.from('["x","y"]').toString("base64url")]) {
      expect(() => decodeCursor(forged)).toThrow(
        expect.objectContaining({ code: "SS_STORE_INVALID_CURSOR" }),
      );
    }
  });

  it("accepts page sizes 1 to MAX_PAGE only", () => {
    expect(checkLimit(1)).toBe(1);
    expect(checkLimit(MAX_PAGE)).toBe(MAX_PAGE);
    for (const bad of [0, MAX_PAGE + 1, 1.5, Number.NaN]) expect(() => checkLimit(bad)).toThrow(/limit/);
  });
});
