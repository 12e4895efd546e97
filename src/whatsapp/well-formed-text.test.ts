import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { wellFormedJson, wellFormedText } from "./well-formed-text.js";

describe("well-formed text before any store write", () => {
  it("replaces NUL and lone surrogates, and keeps emoji and Nigerian scripts whole", () => {
    expect(wellFormedText("abeg\u0000 check")).toBe("abeg\uFFFD check");
    expect(wellFormedText("half \uD83D of an emoji")).toBe("half \uFFFD of an emoji");
    expect(wellFormedText("\uDE4F alone")).toBe("\uFFFD alone");
    const fine = "Ẹ jọ̀ọ́ 🙏 ₦15k, ina ƙaunar ku";
    expect(wellFormedText(fine)).toBe(fine);
  });

  it("cleans every string of a parsed body, keys included, and leaves a clean body as it is", () => {
    const body = { entry: [{ text: { body: "a\u0000b" }, "k\uD800": ["\uDC00", 1, null, true] }] };
    expect(wellFormedJson(body)).toEqual({
      entry: [{ text: { body: "a\uFFFDb" }, "k\uFFFD": ["\uFFFD", 1, null, true] }],
    });
    const clean = { entry: [{ text: { body: "hi" } }] };
    expect(wellFormedJson(clean)).toBe(clean);
  });

  it("property: the result always encodes to UTF-8 and back unchanged, with no NUL", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        const clean = wellFormedText(text);
        expect(clean.includes("\u0000")).toBe(false);
        expect(Buffer.from(clean, "utf8").toString("utf8")).toBe(clean);
      }),
      { numRuns: 500 },
    );
  });
});
