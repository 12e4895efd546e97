import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonTextMayHoldIllFormed, wellFormedJson, wellFormedText } from "./well-formed-text.js";

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

  it("says which JSON texts may parse to ill-formed strings: only escapes of NUL or a surrogate can", () => {
    expect(jsonTextMayHoldIllFormed('{"body":"Ẹ jọ̀ọ́ 🙏 ₦15k"}')).toBe(false);
    expect(jsonTextMayHoldIllFormed('{"body":"\\u00e9 \\u0041"}')).toBe(false);
    expect(jsonTextMayHoldIllFormed('{"body":"a\\u0000b"}')).toBe(true);
    expect(jsonTextMayHoldIllFormed('{"body":"\\uD83D"}')).toBe(true);
    expect(jsonTextMayHoldIllFormed('{"body":"\\udc00"}')).toBe(true);
    // An escaped emoji is a false alarm: the walk runs and changes nothing.
    expect(jsonTextMayHoldIllFormed('{"body":"\\ud83d\\ude4f"}')).toBe(true);
  });

  it("property: a body whose text the check clears needs no cleaning", () => {
    // Any UTF-16 code unit, so lone surrogates and NUL come up often.
    const unit = fc.oneof(
      fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
      fc.constantFrom("\u0000", "\uD83D", "\uDE4F", "\\", "a"),
    );
    const anyText = fc.string({ unit });
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: unit }), anyText, (value, key) => {
        // Through bytes, as a webhook arrives: lone surrogates only survive as escapes.
        const text = Buffer.from(JSON.stringify({ [key]: value }), "utf8").toString("utf8");
        const parsed: unknown = JSON.parse(text);
        if (!jsonTextMayHoldIllFormed(text)) expect(wellFormedJson(parsed)).toBe(parsed);
      }),
      { numRuns: 1000 },
    );
  });
});
