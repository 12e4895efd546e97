import { describe, expect, it } from "vitest";
import { corpusTexts, randomTexts } from "../../test/support/router-texts.js";
import { detectLanguage } from "./detect-language.js";
import { LexiconError, loadLexicon, parseLexicon } from "./lexicon.js";
import { foldDiacritics, normalizeMessage } from "./normalize.js";
import { extractSlots } from "./slots.js";

const lexicon = loadLexicon();
const normalize = (text: string) => normalizeMessage(text, lexicon);

describe("normalizeMessage", () => {
  it("folds case, NFKC, tone marks, hooked letters and letter runs, keeping the original", () => {
    const text = "PLEASEEEE Ẹ jọ̀wọ́, ɗan Allah ｈｅｌｐ";
    const normalized = normalize(text);
    expect(normalized.original).toBe(text);
    expect(normalized.tokens).toEqual(["please", "e", "jowo", "dan", "allah", "help"]);
    expect(foldDiacritics("akaụntụ ọ̀wọ́ ɗina ƙasa")).toBe("akauntu owo dina kasa");
  });

  it("standardises SMS spellings", () => {
    expect(normalize("pls chk ur acct bal 2day bcos d alert nvr come").tokens).toEqual(
      expect.arrayContaining(["please", "your", "account", "balance", "today", "because", "the"]),
    );
  });

  it("maps Pidgin, Yoruba, Hausa and Igbo support words onto shared concepts", () => {
    for (const text of ["owo mi", "kudi na", "ego m", "my money"]) {
      const { concepts, tokens } = normalize(text);
      expect([...concepts, ...tokens], text).toContain("money");
    }
    for (const text of ["e jowo", "don Allah", "biko", "abeg", "pls 🙏"])
      expect([...normalize(text).concepts, ...normalize(text).tokens], text).toContain("please");
  });

  it("turns emoji into concept words and drops the rest", () => {
    expect(normalize("thanks 🙏🏾 👍 🦄").tokens).toEqual(["thanks", "please", "ok"]);
  });

  it("guesses the language for metrics", () => {
    expect(detectLanguage(normalize("abeg wetin dey happen, my money never enter"))).toBe("pcm");
    expect(detectLanguage(normalize("Don Allah kudina bai shigo ba tun jiya"))).toBe("ha");
    expect(detectLanguage(normalize("Biko ego m abataghi na akauntu m"))).toBe("ig");
    expect(detectLanguage(normalize("E jowo, owo mi ko wole"))).toBe("yo");
    expect(detectLanguage(normalize("Please why has my transfer not been received?"))).toBe("en");
  });
});

describe("extractSlots", () => {
  it("reads naira amounts written ten ways", () => {
    const written = [
      "₦15k",
      "N15,000",
      "15k naira",
      "15 thousand",
      "NGN 15000",
      "#15000",
      "15,000 naira",
      "₦15,000.00",
      "15K",
      "n 15,000",
    ];
    for (const text of written)
      expect(extractSlots(`i sent ${text.toLowerCase()} yesterday`).slots.amount, text).toBe(15_000);
    expect(extractSlots("2.5m naira").slots.amount).toBe(2_500_000);
    expect(extractSlots("i waited 2 days").slots.amount).toBeUndefined();
  });

  it("reads accounts, phones, references and order ids without calling them amounts", () => {
    const { slots, text } = extractSlots(
      "send to 0123456789, call 0803 123 4567, ref: trx2311000123, order #4521, session id 100004231130101010101010",
    );
    expect(slots).toMatchObject({
      account: "0123456789",
      phone: "+2348031234567",
      reference: "TRX2311000123",
      orderId: "4521",
    });
    expect(slots.amount).toBeUndefined();
    expect(text).toContain("_account_");
    expect(extractSlots("my ord-88213 never come").slots.orderId).toBe("ORD-88213");
    expect(extractSlots("+2349012345678").slots.phone).toBe("+2349012345678");
  });

  it("reads date words in English, Pidgin, Yoruba, Hausa and Igbo", () => {
    const date = (text: string) => normalize(text).slots.date;
    expect(date("I transfer since morning")).toBe("this_morning");
    expect(date("e don reach 3 days now")).toBe("days_ago");
    expect(date("I paid last week")).toBe("last_week");
    expect(date("since Friday nothing")).toBe("since_friday");
    expect(date("na jiya na tura")).toBe("yesterday");
    expect(date("mo san owo lana")).toBe("yesterday");
    expect(date("ezigara m ya unyahụ")).toBe("yesterday");
  });
});

describe("parseLexicon", () => {
  it("names the file and line of a bad entry or language", () => {
    expect(() => parseLexicon([{ name: "x.tsv", text: "# lang: pcm\nabeg\n" }])).toThrow(
      /x\.tsv:2: expected/,
    );
    expect(() => parseLexicon([{ name: "x.tsv", text: "# lang: fr\n" }])).toThrow(LexiconError);
    expect(() => parseLexicon([{ name: "x.tsv", text: "a b c d e\tz\n" }])).toThrow(/at most 4 words/);
  });

  it("matches the longest multi-word form first", () => {
    const small = parseLexicon([{ name: "ha.tsv", text: "# lang: ha\ndon\tfor\ndon allah\tplease\n" }]);
    expect(normalizeMessage("don allah", small).concepts).toEqual(["please"]);
    expect(normalizeMessage("don", small).concepts).toEqual(["for"]);
  });
});

/** What folding has always been, written as the patterns say it: the reference the fast version keeps. */
function foldedByPatterns(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .replace(
      /[ɗƙɓƴŋẹọ]/gu,
      (letter) => ({ ɗ: "d", ƙ: "k", ɓ: "b", ƴ: "y", ŋ: "n", ẹ: "e", ọ: "o" })[letter] ?? letter,
    )
    .normalize("NFC");
}

describe("foldDiacritics against its patterns", () => {
  it("folds every message of the router's corpus as the patterns do", () => {
    for (const text of corpusTexts()) expect(foldDiacritics(text), text).toBe(foldedByPatterns(text));
  });

  it("folds 20,000 random mixes of marks, hooked letters, emoji and stray surrogates as the patterns do", () => {
    for (const text of randomTexts(20_000, 29)) {
      expect(foldDiacritics(text), JSON.stringify(text)).toBe(foldedByPatterns(text));
    }
  });
});
