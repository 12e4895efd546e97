/**
 * Grammar words that tell Nigerian Pidgin from English where their letters
 * do not: a character model reads "my account never credit" as English,
 * though English says "has not been credited". Pidgin marks tense and mood
 * with words English lacks (dey, don, wetin, abeg) and negates the past with
 * "never" before a bare verb. Only consulted when English and Pidgin are the
 * model's two best guesses.
 */
const PIDGIN_WORDS: ReadonlySet<string> = new Set([
  "abeg",
  "wetin",
  "dey",
  "una",
  "wey",
  "sef",
  "oga",
  "abi",
  "shey",
  "sha",
  "comot",
  "wahala",
  "sabi",
  "wan",
  "dem",
  "nko",
  "pikin",
  "kuku",
  "waka",
  "chop",
  "o",
  "oo",
]);

/** English words Pidgin rarely uses: auxiliaries and inflected forms the grammar drops. */
const ENGLISH_WORDS: ReadonlySet<string> = new Set([
  "has",
  "have",
  "had",
  "been",
  "was",
  "were",
  "is",
  "are",
  "the",
  "does",
  "did",
  "would",
  "could",
  "should",
  "kindly",
  "hasn't",
  "haven't",
  "didn't",
  "isn't",
  "wasn't",
]);

// "don" and "fit" before a verb, "make i/we", "no fit", "e don", "na im/so": Pidgin constructions.
const PIDGIN_PHRASES =
  /\b(?:i|we|e|you|u|dem|una|money|it) don\b|\b(?:no|go|i|we) fit\b|\bmake (?:i|we|una|you)\b|\bna (?:im|so|wetin|who|why)\b|\bsharp sharp\b/gu;
// "never" before a bare verb is Pidgin's past negative; English puts a participle or "been" there.
const NEVER_BARE_VERB = /\bnever (?!been\b|ever\b|be\b|had\b|have\b|mind\b)([a-z]+)\b/gu;

export interface PidginEvidence {
  readonly pidgin: number;
  readonly english: number;
}

/** Counts Pidgin and English grammar markers in a message (lower-cased inside). */
export function pidginEvidence(text: string): PidginEvidence {
  const lower = text.toLowerCase().replace(/[’`]/gu, "'");
  let pidgin = 0;
  let english = 0;
  for (const word of lower.match(/[a-z']+/gu) ?? []) {
    if (PIDGIN_WORDS.has(word)) pidgin += 1;
    else if (ENGLISH_WORDS.has(word)) english += 1;
  }
  pidgin += lower.match(PIDGIN_PHRASES)?.length ?? 0;
  for (const match of lower.matchAll(NEVER_BARE_VERB)) {
    const verb = match[1] ?? "";
    if (!/(?:ed|en)$/u.test(verb)) pidgin += 1;
  }
  return { pidgin, english };
}
