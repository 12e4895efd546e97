import { describe, expect, it } from "vitest";
import { corpusTexts, randomTexts } from "../../../test/support/router-texts.js";
import { normalizeForRules } from "./rule-tier.js";

/** What rule matching has always read, written as the patterns say it: the reference the fast version keeps. */
function byPatterns(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\s\u00a0]+/gu, " ")
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "")
    .trim();
}

describe("normalizeForRules", () => {
  it("reads every message of the router's corpus as its patterns do", () => {
    const texts = corpusTexts();
    expect(texts.length).toBeGreaterThan(1000);
    for (const text of texts) expect(normalizeForRules(text), text).toBe(byPatterns(text));
  });

  it("reads 20,000 random mixes of letters, marks, spaces, emoji and stray surrogates as its patterns do", () => {
    for (const text of randomTexts(20_000)) {
      expect(normalizeForRules(text), JSON.stringify(text)).toBe(byPatterns(text));
    }
  });

  it("folds what edges and spaces hold", () => {
    expect(normalizeForRules("  😩 Ｍy\u00a0\u00a0money   never drop!!! 🙏🏽 ")).toBe("my money never drop");
    expect(normalizeForRules("?!… 😩")).toBe("");
    expect(normalizeForRules("₦15k")).toBe("15k");
  });
});
