import { detectBank } from "./bank-slot.js";
import type { Lexicon, RouterLanguage } from "./lexicon.js";
import { detectDate, extractSlots, type RouterSlots, SLOT_TOKENS } from "./slots.js";
import { extractWordAmounts } from "./word-amounts.js";

/** A message as the classifier sees it. */
export interface NormalizedText {
  readonly original: string;
  /** Lower case, NFKC, diacritics folded, letter runs cut, slots replaced, spellings standardised. */
  readonly tokens: readonly string[];
  /** The lexicon's concept words for every matched form ("kudi" → money, "owo mi" → my, money). */
  readonly concepts: readonly string[];
  /** The tokens with each matched form replaced by its first meaning's words: what word bigrams are built from. */
  readonly sequence: readonly string[];
  /** Lexicon hits per language (for a language guess). */
  readonly languageHits: Readonly<Partial<Record<RouterLanguage, number>>>;
  readonly slots: RouterSlots;
}

const SLOT_TOKEN_SET: ReadonlySet<string> = new Set(Object.values(SLOT_TOKENS));
const HOOKED_LETTERS: Record<string, string> = { ɗ: "d", ƙ: "k", ɓ: "b", ƴ: "y", ŋ: "n", ẹ: "e", ọ: "o" };
const EMOJI = /\p{Extended_Pictographic}[\uFE0F\u{1F3FB}-\u{1F3FF}]*/gu;

const HOOKED = /[ɗƙɓƴŋẹọ]/gu;
// Sticky: the marks starting at lastIndex.
const MARKS_AT = /\p{M}+/uy;
// No combining mark comes before U+0300.
const FIRST_MARK = 0x300;

/**
 * Tone marks and dots removed: "ọ̀wọ́" → "owo", "ɗina" → "dina", "akaụntụ" → "akauntu". Runs several
 * times on every message: the marks are looked for only where a code unit could be one, not by a
 * `\p{M}+` pattern tried at every position (a fifth of the router's time on 700-character messages).
 */
export function foldDiacritics(text: string): string {
  const decomposed = text.normalize("NFD");
  let unmarked = "";
  let from = 0;
  for (let at = 0; at < decomposed.length; ) {
    const unit = decomposed.charCodeAt(at);
    if (unit < FIRST_MARK) {
      at += 1;
      continue;
    }
    MARKS_AT.lastIndex = at;
    if (MARKS_AT.test(decomposed)) {
      unmarked += decomposed.slice(from, at);
      from = MARKS_AT.lastIndex;
      at = from;
      continue;
    }
    // A surrogate pair is one code point: step over both halves.
    const pair = unit >= 0xd800 && unit <= 0xdbff && isLowSurrogate(decomposed.charCodeAt(at + 1));
    at += pair ? 2 : 1;
  }
  unmarked = from === 0 ? decomposed : unmarked + decomposed.slice(from);
  HOOKED.lastIndex = 0;
  if (HOOKED.test(unmarked))
    unmarked = unmarked.replace(HOOKED, (letter) => HOOKED_LETTERS[letter] ?? letter);
  return unmarked.normalize("NFC");
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

function replaceEmoji(text: string, lexicon: Lexicon): string {
  return text.replace(EMOJI, (emoji) => {
    const base = emoji.replace(/[\uFE0F\u{1F3FB}-\u{1F3FF}]/gu, "");
    const words = lexicon.spellings.get(emoji) ?? lexicon.spellings.get(base);
    return words === undefined ? " " : ` ${words.join(" ")} `;
  });
}

/** Greedy longest match against `table` from `start`: multi-word forms only where `starts` says one begins. */
function longestMatch<T>(
  tokens: readonly string[],
  start: number,
  table: ReadonlyMap<string, T>,
  starts: ReadonlyMap<string, number>,
): { value: T; length: number } | undefined {
  const first = tokens[start] as string;
  const maxWords = starts.get(first);
  if (maxWords !== undefined)
    for (let length = Math.min(maxWords, tokens.length - start); length >= 2; length -= 1) {
      const value = table.get(tokens.slice(start, start + length).join(" "));
      if (value !== undefined) return { value, length };
    }
  const value = table.get(first);
  return value === undefined ? undefined : { value, length: 1 };
}

/**
 * Normalises a customer's message for the classifier: NFKC and case; emoji
 * to concept words (🙏 → please); slots (amounts, accounts, references, order
 * ids, phone numbers) lifted out and replaced by placeholder tokens;
 * diacritics folded; letter runs cut ("pleaseeee" → "please"); SMS spellings
 * standardised ("pls" → "please", "2day" → "today"); and lexicon concepts added
 * for Pidgin, Yoruba, Hausa and Igbo words ("kudi", "owo", "ego" → money).
 */
export function normalizeMessage(original: string, lexicon: Lexicon): NormalizedText {
  const lower = replaceEmoji(original.normalize("NFKC").toLowerCase(), lexicon);
  const { text: withSlots, slots } = extractSlots(lower);
  const folded = foldDiacritics(withSlots)
    .replace(/(\p{L})['’`](?=\p{L})/gu, "$1")
    .replace(/(\p{L})\1{2,}/gu, "$1");
  const date = detectDate(folded);
  if (date !== undefined) slots.date = date;
  const worded = extractWordAmounts(folded, SLOT_TOKENS.amount);
  if (worded.amount !== undefined) slots.amount ??= worded.amount;
  const bank = detectBank(original.normalize("NFKC"));
  if (bank !== undefined) slots.bank = bank;
  const raw = worded.text.match(/[\p{L}\p{N}_]+/gu) ?? [];

  const tokens: string[] = [];
  for (let index = 0; index < raw.length; ) {
    const token = raw[index] as string;
    if (SLOT_TOKEN_SET.has(token)) {
      tokens.push(token);
      index += 1;
      continue;
    }
    const spelled = longestMatch(raw, index, lexicon.spellings, lexicon.spellingStarts);
    if (spelled === undefined) {
      tokens.push(token);
      index += 1;
    } else {
      tokens.push(...spelled.value);
      index += spelled.length;
    }
  }

  const concepts: string[] = [];
  const sequence: string[] = [];
  const languageHits: Partial<Record<RouterLanguage, number>> = {};
  for (let index = 0; index < tokens.length; ) {
    const found = longestMatch(tokens, index, lexicon.concepts, lexicon.conceptStarts);
    if (found === undefined) {
      sequence.push(tokens[index] as string);
      index += 1;
      continue;
    }
    for (const words of found.value.concepts) concepts.push(...words);
    sequence.push(...(found.value.concepts[0] ?? []));
    for (const language of found.value.languages) languageHits[language] = (languageHits[language] ?? 0) + 1;
    index += found.length;
  }
  return { original, tokens, concepts, sequence, languageHits, slots };
}
