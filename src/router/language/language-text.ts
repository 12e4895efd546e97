/**
 * What the language identifier reads of a message: the words only. Tweets and
 * chats carry @handles, links, "RT", hashtags, emoji and numbers that say
 * nothing about the language (and an @handle or a link says a lot about the
 * tweet's author, which a model would happily learn), so they go first.
 */

// @handles, links and "RT" in one pass; then everything but letters, marks and spaces.
const TWEET_NOISE = /@\w+|\b(?:[Hh][Tt][Tt][Pp][Ss]?:\/\/|[Ww][Ww][Ww]\.)\S+|\bRT\b/gu;
// Variation selectors are marks to Unicode but belong to the emoji they follow.
const NOISE = /[\uFE0E\uFE0F]|[^\p{L}\p{M}'’` ]+/gu;
const SPACES = /\s+/gu;
const ASCII = /^[\x20-\x7e]*$/u;

/**
 * @handles, links, "RT", '#', emoji, digits and punctuation removed, spaces
 * collapsed; case and tone marks kept. The form the training sample is stored in.
 */
export function stripTweetNoise(text: string): string {
  // Printable ASCII is its own NFKC form: most messages skip the normalisation.
  return (ASCII.test(text) ? text : text.normalize("NFKC"))
    .replace(TWEET_NOISE, " ")
    .replace(NOISE, " ")
    .replace(SPACES, " ")
    .trim();
}

const HOOKED: Readonly<Record<string, string>> = { ɗ: "d", ƙ: "k", ɓ: "b", ƴ: "y", ŋ: "n" };
const FOLDED_AWAY = /\p{M}|[ɗƙɓƴŋ]/gu;
const APOSTROPHES = /['’`]/gu;
const RUNS = /(\p{L})\1{2,}/gu;

/** Letters read from a message at most (the language shows long before; it keeps long messages cheap). */
export const MAX_LANGUAGE_CHARS = 160;

/** A message as the language model reads it: folded words, and the marks and hooked letters folding removed. */
export interface LanguageText {
  /** Lower case, tone marks, dots and hooks folded, apostrophes dropped, letter runs cut, single spaces. */
  readonly folded: string;
  /** Each distinct combining mark (tone, dot below, dot above) and hooked letter the text had, in order of appearance. */
  readonly marks: string;
  readonly words: number;
  /** Letters in `folded` (very short messages say little about their language). */
  readonly letters: number;
}

/**
 * Strips tweet noise, lower-cases and folds: "Ọ̀wọ́ mi ti ɗauka!!" gives the
 * folded words "owo mi ti dauka" and the marks "\u0323\u0300\u0301ɗ". Folding
 * makes Yoruba and Igbo written without tone marks look like the same
 * language written with them; the marks are kept aside as evidence of their own.
 * Reads the first MAX_LANGUAGE_CHARS characters of the cleaned text.
 */
export function languageText(original: string): LanguageText {
  // Links and handles aside, twice the characters kept is plenty to start from.
  let clean = stripTweetNoise(
    original.length > 2 * MAX_LANGUAGE_CHARS ? original.slice(0, 2 * MAX_LANGUAGE_CHARS) : original,
  )
    .toLowerCase()
    .replace(APOSTROPHES, "");
  if (clean.length > MAX_LANGUAGE_CHARS)
    clean = clean.slice(0, clean.lastIndexOf(" ", MAX_LANGUAGE_CHARS) + 1 || MAX_LANGUAGE_CHARS).trimEnd();
  let marks = "";
  if (!ASCII.test(clean)) {
    clean = clean.normalize("NFD").replace(FOLDED_AWAY, (found) => {
      if (!marks.includes(found)) marks += found;
      return HOOKED[found] ?? "";
    });
  }
  const folded = clean.replace(RUNS, "$1$1").replace(SPACES, " ").trim();
  let words = folded === "" ? 0 : 1;
  for (let index = 0; index < folded.length; index += 1) if (folded.charCodeAt(index) === 32) words += 1;
  return { folded, marks, words, letters: folded.length - Math.max(0, words - 1) };
}

/** Longest character n-gram the model reads. */
export const MAX_NGRAM = 4;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
// A distinct first byte keeps mark features apart from letter n-grams.
const MARK_SEED = Math.imul(FNV_OFFSET ^ 0x01, FNV_PRIME) >>> 0;

/**
 * Visits the 32-bit FNV-1a hash of every character 1–4-gram of " folded "
 * (spaces pad each word, so "abeg" yields " a", "eg ", " abe"…; the lone space
 * is skipped), then of every mark. Hashing as it goes allocates no strings;
 * repeated n-grams are visited again (the caller keeps distinct ones).
 */
export function forEachLanguageFeature(text: LanguageText, visit: (hash: number) => void): void {
  const padded = ` ${text.folded} `;
  const length = padded.length;
  for (let start = 0; start < length; start += 1) {
    let hash = FNV_OFFSET;
    const end = Math.min(length, start + MAX_NGRAM);
    for (let index = start; index < end; index += 1) {
      hash = Math.imul(hash ^ padded.charCodeAt(index), FNV_PRIME) >>> 0;
      if (index === start && padded.charCodeAt(index) === 32) continue;
      visit(hash);
    }
  }
  for (let index = 0; index < text.marks.length; index += 1)
    visit(Math.imul(MARK_SEED ^ text.marks.charCodeAt(index), FNV_PRIME) >>> 0);
}
