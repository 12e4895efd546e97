import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fnv1a } from "../train/split.js";
import { INJONGO_LANGUAGES, injongoHeldOut, parseInjongoRows } from "./injongo-holdout.js";
import { languageText, stripTweetNoise } from "./language-text.js";

/** The languages whose training text is drawn from the public sets (English comes from our corpus). */
export const SAMPLED_LANGUAGES = ["pcm", "ha", "ig", "yo"] as const;
export type SampledLanguage = (typeof SAMPLED_LANGUAGES)[number];

/** Most tweets kept per language. */
export const TWEETS_PER_LANGUAGE = 3000;
/** Fewest words a tweet needs, after cleaning, to be kept. */
const MIN_WORDS = 4;

// Common English words that are not also common Hausa, Igbo or Yoruba words
// ("to", "so", "me", "in", "a", "o", "na", "ka", "ba" are, and are left out).
const ENGLISH_WORDS = new Set(
  (
    "the and of is are was were be been being have has had do does did not this that these those with " +
    "for from you your yours they them their we our us he him his she her it its my mine what which who " +
    "whom when where why how all any both each few more most other some such only own same than too very " +
    "can will just should would could now about after again against because before below between during " +
    "into off once over then there here under until up out while also even ever every still yet however " +
    "people good great love like know think want need make made get got going gone come came see seen say " +
    "said tell told thank thanks please happy day today tomorrow yesterday time year years life man men " +
    "woman women god lord world country nigeria government president money work new old first last next " +
    "never always nothing something everything anything one two three many much well really right wrong " +
    "way back still long little big better best bad sad true news just let lets dont cant wont im ive youre " +
    "thats its isnt wasnt didnt doesnt guy guys someone anyone everyone congratulations birthday morning " +
    "night week friend friends family home school church game match team win lost best beautiful"
  ).split(" "),
);

// Words that mark Nigerian Pidgin rather than English (written for sharpsharp).
const PIDGIN_WORDS = new Set(
  (
    "dey don na wetin abeg una sef wey dem wahala oga pikin sabi comot chop wan abi sha jare nawa oya shey " +
    "kuku sotey yawa pesin pipo belle waka gist ehn haba dis dat wen wen di nor no be dan wia wetin im ein " +
    "dem wey e go fit make una ooo o jor shebi wahala yarn dash palava kolo japa ginger nyash gbege"
  )
    .split(" ")
    .filter((word) => !["no", "be", "e", "go", "fit", "make", "o"].includes(word)),
);

/** A tweet's share of words that are common English words. */
export function englishShare(words: readonly string[]): number {
  if (words.length === 0) return 0;
  return words.filter((word) => ENGLISH_WORDS.has(word)).length / words.length;
}

/** True when a tweet has a word that marks Pidgin (or "e don", "no be", "i go"…). */
export function hasPidginMarker(words: readonly string[]): boolean {
  return words.some(
    (word, index) =>
      PIDGIN_WORDS.has(word) ||
      (index > 0 && ["e", "i", "we", "you", "u"].includes(words[index - 1] as string) && word === "go") ||
      (index > 0 && words[index - 1] === "no" && word === "be"),
  );
}

function tweets(path: string): string[] {
  const [header = "", ...lines] = readFileSync(path, "utf8").split("\n");
  const column = header.split("\t").indexOf("tweet");
  return lines.map((line) => line.split("\t")[column] ?? "").filter((tweet) => tweet.trim() !== "");
}

export interface LanguageSample {
  /** Per language, the TSV text (`source<TAB>text`, a header). */
  readonly files: Readonly<Record<SampledLanguage, string>>;
  /** What was kept and dropped, per language, for the README and the report. */
  readonly stats: Readonly<Record<SampledLanguage, Readonly<Record<string, number>>>>;
}

const AFRISENTI_FILES: Readonly<Record<SampledLanguage, string>> = {
  pcm: join("afrisenti-pcm", "pcm"),
  ha: join("afrisenti-hau-ibo-yor", "hau"),
  ig: join("afrisenti-hau-ibo-yor", "ibo"),
  yo: join("afrisenti-hau-ibo-yor", "yor"),
};

/**
 * Draws the language identifier's training text from the public sets in
 * `sharedDir` (see data/router/language/README.md): AfriSenti train tweets,
 * cleaned (stripTweetNoise), at least four words, none equal (once cleaned
 * and folded) to a dev tweet; Pidgin tweets only when they have a Pidgin
 * marker word, Hausa, Igbo and Yoruba tweets only when under a third of their
 * words are common English words; at most TWEETS_PER_LANGUAGE of them, chosen
 * by a hash of their text. Plus every INJONGO row outside the held-out fifth
 * (injongoHeldOut). Deterministic.
 */
export function drawLanguageSample(sharedDir: string): LanguageSample {
  const files = {} as Record<SampledLanguage, string>;
  const stats = {} as Record<SampledLanguage, Record<string, number>>;
  const injongo = new Map<SampledLanguage, string[]>();
  for (const [code, lang] of Object.entries(INJONGO_LANGUAGES)) {
    const rows = parseInjongoRows(readFileSync(join(sharedDir, "injongo-intent", `${code}.tsv`), "utf8"));
    const heldOut = injongoHeldOut(rows);
    injongo.set(
      lang,
      rows.filter((_, index) => !heldOut[index]).map((row) => stripTweetNoise(row.text)),
    );
  }
  for (const lang of SAMPLED_LANGUAGES) {
    const base = join(sharedDir, AFRISENTI_FILES[lang]);
    const dev = new Set(tweets(`${base}_dev.tsv`).map((tweet) => languageText(tweet).folded));
    const seen = new Set<string>();
    const counts = { train: 0, short: 0, inDevOrRepeated: 0, english: 0, noPidginMarker: 0, kept: 0 };
    const kept: string[] = [];
    for (const tweet of tweets(`${base}_train.tsv`)) {
      counts.train += 1;
      const clean = stripTweetNoise(tweet);
      const { folded } = languageText(clean);
      const words = folded.split(" ").filter((word) => word !== "");
      if (words.length < MIN_WORDS) counts.short += 1;
      else if (dev.has(folded) || seen.has(folded)) counts.inDevOrRepeated += 1;
      else if (lang === "pcm" && !hasPidginMarker(words)) counts.noPidginMarker += 1;
      else if (lang !== "pcm" && englishShare(words) >= 1 / 3) counts.english += 1;
      else kept.push(clean);
      seen.add(folded);
    }
    const chosen = kept
      .sort((a, b) => fnv1a(`lid:${a}`) - fnv1a(`lid:${b}`) || (a < b ? -1 : a > b ? 1 : 0))
      .slice(0, TWEETS_PER_LANGUAGE);
    counts.kept = chosen.length;
    const native = injongo.get(lang) ?? [];
    files[lang] = [
      "source\ttext",
      ...chosen.map((text) => `afrisenti-train\t${text}`),
      ...native.map((text) => `injongo\t${text}`),
      "",
    ].join("\n");
    stats[lang] = { ...counts, injongo: native.length };
  }
  return { files, stats };
}
