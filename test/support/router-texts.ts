import { createSeededRandom } from "../../src/random/index.js";
import { dataPath, loadCorpus } from "../../src/router/index.js";

/** Every message the router is trained on: its own corpus and the chatter pools beside it. */
export function corpusTexts(): string[] {
  return loadCorpus(dataPath("router")).examples.map((example) => example.text);
}

// Pieces a customer's text is made of, the awkward ones included: spaces of every kind, tone marks
// (precomposed and combining), hooked letters, fullwidth forms (NFKC changes them), emoji and their
// modifiers (surrogate pairs), letters and marks outside the BMP, currency, digits of other scripts,
// lone surrogates, a singleton NFC changes (the Ångström sign).
const PIECES = [
  "a",
  "Z",
  "ọ",
  "ẹ́",
  "ɗ",
  "ƙ",
  "ɓ",
  "ƴ",
  "ŋ",
  "e\u0301",
  "o\u0323\u0300",
  "\u0301",
  "Ａ",
  "ｂ",
  "١",
  "7",
  "₦",
  "#",
  "!",
  "?",
  ".",
  "...",
  "-",
  "'",
  " ",
  "  ",
  "\t",
  "\n",
  "\u00a0",
  "\u2003",
  "\u3000",
  "😩",
  "🙏🏽",
  "👍",
  "\u{1F3FB}",
  "\ufe0f",
  "\ud83d",
  "\ude29",
  "İ",
  "ß",
  "Σ",
  "𐌰",
  "𠀀",
  "\u{1D167}",
  "\u212b",
  "é",
  "ñ",
  "ụ",
  "abeg",
  "15k",
  "N5,000",
  "wetin dey sup",
];

/** `count` random mixes of up to 11 pieces, the same every run. */
export function randomTexts(count: number, seed = 17): string[] {
  const random = createSeededRandom(seed);
  const texts: string[] = [];
  for (let n = 0; n < count; n += 1) {
    const length = Math.floor(random() * 12);
    let text = "";
    for (let i = 0; i < length; i += 1) text += PIECES[Math.floor(random() * PIECES.length)];
    texts.push(text);
  }
  return texts;
}
