import type { NormalizedText } from "./normalize.js";
import { SLOT_TOKENS } from "./slots.js";

const SLOT_TOKEN_SET: ReadonlySet<string> = new Set(Object.values(SLOT_TOKENS));

function lengthBucket(tokens: number): string {
  if (tokens <= 3) return String(tokens);
  if (tokens <= 6) return "4-6";
  if (tokens <= 12) return "7-12";
  if (tokens <= 25) return "13-25";
  return "26+";
}

/**
 * The classifier's features for one message, passed to `visit` (possibly
 * more than once each): words (`w:`), lexicon concepts (`c:`), bigrams over
 * words-with-concepts (`b:`, with message edges, so "hello" alone differs
 * from "hello, my card…"), character 3–5-grams of each word (`g:`, which
 * carry typos and spellings no list foresaw), slot presence (`s:`) and a
 * length bucket (`n:`). The same set as forEachTokenFeature over every token
 * plus forEachMessageFeature: inference caches the per-token part.
 */
export function forEachFeature(text: NormalizedText, visit: (feature: string) => void): void {
  // This order (which training's float sums follow) is the order of the shipped model: keep it.
  for (const token of text.tokens) visit(`w:${token}`);
  forEachContextFeature(text, visit);
  for (const token of text.tokens) forEachGramFeature(token, visit);
  forEachShapeFeature(text, visit);
}

/** A token's own features: the word (`w:`) and its character 3–5-grams (`g:`, none for slot tokens). */
export function forEachTokenFeature(token: string, visit: (feature: string) => void): void {
  visit(`w:${token}`);
  forEachGramFeature(token, visit);
}

/** The features that depend on the whole message: concepts, bigrams, slots and the length bucket. */
export function forEachMessageFeature(text: NormalizedText, visit: (feature: string) => void): void {
  forEachContextFeature(text, visit);
  forEachShapeFeature(text, visit);
}

function forEachGramFeature(token: string, visit: (feature: string) => void): void {
  if (SLOT_TOKEN_SET.has(token)) return;
  const padded = ` ${token} `;
  for (let size = 3; size <= 5; size += 1)
    for (let start = 0; start + size <= padded.length; start += 1)
      visit(`g:${padded.slice(start, start + size)}`);
}

function forEachContextFeature(text: NormalizedText, visit: (feature: string) => void): void {
  for (const concept of text.concepts) visit(`c:${concept}`);
  const sequence = text.sequence;
  for (let index = -1; index < sequence.length; index += 1)
    visit(`b:${sequence[index] ?? "^"}|${sequence[index + 1] ?? "$"}`);
}

function forEachShapeFeature(text: NormalizedText, visit: (feature: string) => void): void {
  for (const key of Object.keys(text.slots)) visit(`s:${key}`);
  visit(`n:${lengthBucket(text.tokens.length)}`);
}

/** The message's distinct features (training and tests; inference streams them). */
export function extractFeatures(text: NormalizedText): string[] {
  const features = new Set<string>();
  forEachFeature(text, (feature) => features.add(feature));
  return [...features];
}
