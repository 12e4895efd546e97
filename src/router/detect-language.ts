import type { RouterLanguage } from "./lexicon.js";
import type { NormalizedText } from "./normalize.js";

/** A message's language guess: one of the router's languages, or `mix` for code-switched text. */
export type DetectedLanguage = RouterLanguage | "mix";

// Words that mark English rather than Pidgin: Pidgin drops the copula and the
// English auxiliaries ("my money never enter" vs "my money has not entered").
const ENGLISH_MARKERS = new Set([
  "the",
  "is",
  "was",
  "were",
  "has",
  "have",
  "had",
  "been",
  "does",
  "did",
  "didnt",
  "doesnt",
  "would",
  "could",
  "should",
  "please",
  "kindly",
  "why",
  "what",
  "received",
  "sent",
  "not",
  "yet",
  "of",
  "an",
  "with",
  "this",
  "your",
  "are",
  "it",
  "hasnt",
  "havent",
  "isnt",
  "wasnt",
  "will",
  "want",
  "need",
  "how",
]);

/**
 * A cheap language guess from lexicon hits (Pidgin, Yoruba, Hausa, Igbo) and
 * English function words: the language with most hits, or `mix` when a second
 * language has at least a third of them. Messages with no hits at all count as
 * English. Good enough for metrics labels; the classifier never depends on it.
 */
export function detectLanguage(text: NormalizedText): DetectedLanguage {
  const hits: Record<string, number> = { ...text.languageHits };
  let english = 0;
  for (const token of text.tokens) if (ENGLISH_MARKERS.has(token)) english += 1;
  // English markers are weak evidence next to a Pidgin/Yoruba/Hausa/Igbo word.
  hits.en = english * 0.5;
  const ranked = Object.entries(hits)
    .filter(([, count]) => count > 0)
    .sort((a, b) => b[1] - a[1]);
  const [first, second] = ranked;
  if (first === undefined) return "en";
  if (
    second !== undefined &&
    second[1] >= first[1] / 2 &&
    second[1] >= 1 &&
    first[0] !== "en" &&
    second[0] !== "en"
  )
    return "mix";
  if (second !== undefined && first[0] === "en" && second[1] >= first[1] * 0.5)
    return second[0] as RouterLanguage;
  return first[0] as RouterLanguage;
}
