import { describe, expect, it } from "vitest";
import { loadLexicon } from "../lexicon.js";
import { normalizeMessage } from "../normalize.js";
import { loadLanguageIdentifier } from "./identify-language.js";
import { forEachLanguageFeature, languageText, stripTweetNoise } from "./language-text.js";

const identifier = loadLanguageIdentifier();
const languageOf = (text: string) => identifier.identify(text).language;

describe("identifyLanguage (the shipped model)", () => {
  it("names Yoruba with tone marks and without", () => {
    expect(languageOf("Ẹ jọ̀ọ́, owó mi kò tíì wọlé láti àná")).toBe("yo");
    expect(languageOf("E jowo, owo mi ko tii wole lati ana")).toBe("yo");
  });

  it("names Hausa with hooked letters and without", () => {
    expect(languageOf("Don Allah kuɗina bai shiga asusuna ba tun jiya")).toBe("ha");
    expect(languageOf("Don Allah kudina bai shiga asusuna ba tun jiya")).toBe("ha");
  });

  it("names Igbo with dots and without", () => {
    expect(languageOf("Biko, ego m abataghị n'akaụntụ m kemgbe ụnyahụ")).toBe("ig");
    expect(languageOf("Biko, ego m abataghi n'akauntu m kemgbe unyahu")).toBe("ig");
  });

  it("tells Pidgin from English", () => {
    expect(languageOf("abeg my money never enter")).toBe("pcm");
    expect(languageOf("I don send am since morning but e never reach una side")).toBe("pcm");
    expect(languageOf("Please my transfer has not been received since yesterday")).toBe("en");
    expect(languageOf("Good afternoon, I would like to know the status of my order")).toBe("en");
  });

  it("hears Pidgin's grammar where its letters look English", () => {
    // The character model alone says English for both (0.63 and 0.54).
    expect(languageOf("I sharp sharp transfer ₦15k since morning, my account never credit")).toBe("pcm");
    expect(languageOf("my transfer still never enter")).toBe("pcm");
    expect(languageOf("I never received my refund")).toBe("en");
    expect(languageOf("I have not received my money")).toBe("en");
  });

  it("says mix for a line that switches between Pidgin and Yoruba halfway", () => {
    const guess = identifier.identify("Abeg help me check am, e jowo owo mi ko tii wole");
    expect(guess.language).toBe("mix");
    expect(guess.basis).toBe("mix");
    expect(guess.scores.pcm + guess.scores.yo).toBeGreaterThan(0.9);
  });

  it("does not call an English line with a Yoruba or Igbo name a mix", () => {
    expect(languageOf("Hi, I'm Chukwuemeka, my card was blocked yesterday")).toBe("en");
    expect(languageOf("Thank you Oluwaseun, you have been very helpful today")).toBe("en");
  });

  it("never calls English and Pidgin alone a mix", () => {
    expect(languageOf("oga I need pay my water bill for this month")).not.toBe("mix");
  });

  it("returns probabilities that sum to one, and the best one as `probability`", () => {
    const guess = identifier.identify("Sannu, ina son in biya kudin wuta");
    expect(guess.language).toBe("ha");
    expect(Object.values(guess.scores).reduce((sum, p) => sum + p, 0)).toBeCloseTo(1, 6);
    expect(guess.probability).toBe(guess.scores.ha);
  });

  it("falls back to English, or to the caller's language, for messages too short to tell", () => {
    for (const text of ["ok", "hi", "no", "k"]) {
      expect(identifier.identify(text).basis).toBe("short");
      expect(languageOf(text)).toBe("en");
      expect(identifier.identify(text, { fallback: "pcm" }).language).toBe("pcm");
    }
  });

  it("still names short words that belong to one language", () => {
    expect(languageOf("abeg")).toBe("pcm");
    expect(languageOf("biko")).toBe("ig");
    expect(languageOf("e jowo")).toBe("yo");
  });

  it("copes with empty, emoji-only and digits-only messages", () => {
    for (const text of ["", "   ", "🙏🙏😭", "👍🏽", "12345 678", "₦15,000!!!", "https://t.co/abc @user"]) {
      const guess = identifier.identify(text, { fallback: "ha" });
      expect(guess.language, text).toBe("ha");
      expect(guess.basis, text).toBe("short");
      expect(Object.values(guess.scores).every(Number.isFinite)).toBe(true);
    }
  });

  it("accepts a NormalizedText (reads its original)", () => {
    const normalized = normalizeMessage("Biko ego m abataghi na akauntu m", loadLexicon());
    expect(identifier.identify(normalized).language).toBe("ig");
  });
});

describe("languageText", () => {
  it("strips what says nothing about the language", () => {
    expect(stripTweetNoise("RT @user: Ọlọ́run 🙏🏽 #Yoruba https://t.co/x 2024 ₦500!")).toBe("Ọlọ́run Yoruba");
  });

  it("folds tone marks, dots and hooks, keeping them aside as marks", () => {
    const marked = languageText("Ọ̀wọ́ mi ti ɗauka");
    expect(marked.folded).toBe("owo mi ti dauka");
    expect([...marked.marks].sort()).toEqual(["\u0300", "\u0301", "\u0323", "ɗ"].sort());
    expect(languageText("owo mi ti dauka").marks).toBe("");
    expect(languageText("pleaseeeee don't").folded).toBe("pleasee dont");
    expect(languageText("a b").words).toBe(2);
  });

  it("gives a marked text the unmarked text's n-grams and more", () => {
    const collect = (text: string) => {
      const hashes = new Set<number>();
      forEachLanguageFeature(languageText(text), (hash) => hashes.add(hash));
      return hashes;
    };
    const plain = collect("owo mi");
    const marked = collect("ọ̀wọ́ mi");
    expect([...plain].every((hash) => marked.has(hash))).toBe(true);
    expect(marked.size).toBeGreaterThan(plain.size);
  });
});
