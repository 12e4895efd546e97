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

// Hooked letters (Hausa) folded to their plain letter.
const HOOKED = new Map([
  [0x0257, 0x64], // ɗ
  [0x0199, 0x6b], // ƙ
  [0x0253, 0x62], // ɓ
  [0x01b4, 0x79], // ƴ
  [0x014b, 0x6e], // ŋ
]);
const LETTER = /\p{L}/u;
const MARK = /\p{M}/u;
const MAYBE_TWEET_NOISE = /[@:]|RT|www\./iu;

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
 * Apostrophes join ("n'akaụntụ" → "nakauntu"), runs of a letter stop at two.
 * Reads about MAX_LANGUAGE_CHARS characters (whole words). One pass over the
 * characters: this runs on every message.
 */
export function languageText(original: string): LanguageText {
  // Handles and links aside, twice the characters kept is plenty to start from.
  let text = original.length > 2 * MAX_LANGUAGE_CHARS ? original.slice(0, 2 * MAX_LANGUAGE_CHARS) : original;
  if (MAYBE_TWEET_NOISE.test(text)) text = text.replace(TWEET_NOISE, " ");
  // Printable ASCII is its own NFKC and NFD form: most messages skip the normalisation.
  const source = ASCII.test(text)
    ? text.toLowerCase()
    : text.normalize("NFKC").toLowerCase().normalize("NFD");
  let folded = "";
  let marks = "";
  let last = -1;
  let run = 0;
  let space = false;
  let index = 0;
  for (; index < source.length && folded.length < MAX_LANGUAGE_CHARS; index += 1) {
    let code = source.charCodeAt(index);
    let letter = false;
    if (code >= 0x61 && code <= 0x7a) letter = true;
    else if (code === 0x27 || code === 0x60 || code === 0x2019)
      continue; // apostrophes join
    else if (code < 0x80 || code === 0xfe0e || code === 0xfe0f) letter = false;
    else if (code >= 0xd800 && code <= 0xdbff)
      index += 1; // emoji and other astral symbols
    else {
      const hooked = HOOKED.get(code);
      const char = source[index] as string;
      if (hooked !== undefined || (code >= 0x300 && code <= 0x36f) || MARK.test(char)) {
        if (!marks.includes(char)) marks += char;
        if (hooked === undefined) continue; // a mark: the letter before it stands
        code = hooked;
        letter = true;
      } else letter = LETTER.test(char);
    }
    if (!letter) {
      last = -1;
      space = folded.length > 0;
      continue;
    }
    if (code === last) {
      run += 1;
      if (run > 2) continue;
    } else {
      last = code;
      run = 1;
    }
    if (space) folded += " ";
    space = false;
    folded += String.fromCharCode(code);
  }
  // Cut at a word's end, not inside one.
  if (index < source.length && folded.lastIndexOf(" ") > 0) folded = folded.slice(0, folded.lastIndexOf(" "));
  let words = folded === "" ? 0 : 1;
  for (let at = 0; at < folded.length; at += 1) if (folded.charCodeAt(at) === 32) words += 1;
  return { folded, marks, words, letters: folded.length - Math.max(0, words - 1) };
}

/** Longest character n-gram the model reads. */
export const MAX_NGRAM = 4;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
// A distinct first byte keeps mark features apart from letter n-grams.
const MARK_SEED = Math.imul(FNV_OFFSET ^ 0x01, FNV_PRIME) >>> 0;

/**
 * Visits the 32-bit FNV-1a hash of every character 2–4-gram of " folded "
 * (spaces pad each word, so "abeg" yields " a", "eg ", " abe"…), then of every
 * mark. Single letters are left out: measured, they added nothing but a
 * quarter of the work. Hashing as it goes allocates no strings; repeated
 * n-grams are visited again (the caller keeps distinct ones).
 */
export function forEachLanguageFeature(text: LanguageText, visit: (hash: number) => void): void {
  const padded = ` ${text.folded} `;
  const length = padded.length;
  for (let start = 0; start + 1 < length; start += 1) {
    let hash = Math.imul(FNV_OFFSET ^ padded.charCodeAt(start), FNV_PRIME) >>> 0;
    const end = Math.min(length, start + MAX_NGRAM);
    for (let index = start + 1; index < end; index += 1) {
      hash = Math.imul(hash ^ padded.charCodeAt(index), FNV_PRIME) >>> 0;
      visit(hash);
    }
  }
  for (let index = 0; index < text.marks.length; index += 1)
    visit(Math.imul(MARK_SEED ^ text.marks.charCodeAt(index), FNV_PRIME) >>> 0);
}
