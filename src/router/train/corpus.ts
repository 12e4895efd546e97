import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isRouterIntent, NEEDS_AGENT } from "../intents.js";
import { loadInjongo } from "./injongo.js";

/** Languages a corpus example may be labelled with. */
export const CORPUS_LANGUAGES = ["en", "pcm", "yo", "ha", "ig", "mix"] as const;
export type CorpusLanguage = (typeof CORPUS_LANGUAGES)[number];

/** One labelled message. `label` is an intent or NEEDS_AGENT. */
export interface LabelledExample {
  readonly text: string;
  readonly label: string;
  readonly lang: CorpusLanguage;
  /** Near-duplicates share a group, and a group never straddles splits. */
  readonly group: string;
  /** For needs_agent examples: the intent it superficially resembles. */
  readonly looksLike?: string;
  readonly source: string;
  /** Measured by a grouped cross-validation of its own (INJONGO): never put in the test split. */
  readonly crossValidated?: boolean;
  /** Other intents that are also right answers (INJONGO's label map accepts several); calibration counts them. */
  readonly alsoRight?: readonly string[];
}

export class CorpusError extends Error {
  override readonly name = "CorpusError";
}

/** A loaded corpus and a digest of its bytes (recorded in the model: same data, same model). */
export interface Corpus {
  readonly examples: readonly LabelledExample[];
  readonly sha256: string;
}

function parseJsonLines(name: string, text: string, label: string): LabelledExample[] {
  const seen = new Set<string>();
  const examples: LabelledExample[] = [];
  text.split("\n").forEach((line, index) => {
    if (line.trim() === "") return;
    const where = `${name}:${index + 1}`;
    let row: { text?: unknown; lang?: unknown; group?: unknown; looksLike?: unknown };
    try {
      row = JSON.parse(line) as typeof row;
    } catch {
      throw new CorpusError(`${where}: not valid JSON`);
    }
    if (typeof row.text !== "string" || row.text.trim() === "")
      throw new CorpusError(`${where}: "text" is missing`);
    if (typeof row.lang !== "string" || !(CORPUS_LANGUAGES as readonly string[]).includes(row.lang))
      throw new CorpusError(`${where}: "lang" must be one of ${CORPUS_LANGUAGES.join(", ")}`);
    if (typeof row.group !== "string" || row.group === "")
      throw new CorpusError(`${where}: "group" is missing`);
    if (seen.has(row.text)) throw new CorpusError(`${where}: duplicate text`);
    seen.add(row.text);
    const looksLike = typeof row.looksLike === "string" ? row.looksLike : undefined;
    if (looksLike !== undefined && !isRouterIntent(looksLike))
      throw new CorpusError(`${where}: "looksLike" names no intent: ${looksLike}`);
    examples.push({
      text: row.text,
      label,
      lang: row.lang as CorpusLanguage,
      group: `${label}/${row.group}`,
      ...(looksLike === undefined ? {} : { looksLike }),
      source: name,
    });
  });
  return examples;
}

/**
 * Tweets from an AfriSenti-style TSV with a header. A bare `tweet` header (the
 * original afrisenti-oos.tsv) is Pidgin chatter, out_of_scope; a
 * `tweet<TAB>label<TAB>lang` header gives each row its own label (an intent or
 * needs_agent) and language, so real complaints and native chatter share the format.
 */
export function parseTweetPool(name: string, text: string): LabelledExample[] {
  const [header = "", ...lines] = text.split("\n");
  const labelled = header.trim() === "tweet\tlabel\tlang";
  if (!labelled && header.trim().split("\t")[0] !== "tweet")
    throw new CorpusError(`${name}:1: expected a "tweet" or "tweet<TAB>label<TAB>lang" header`);
  const examples: LabelledExample[] = [];
  lines.forEach((line, index) => {
    const [tweet = "", label = "out_of_scope", lang = "pcm"] = line.split("\t").map((cell) => cell.trim());
    if (tweet === "") return;
    const where = `${name}:${index + 2}`;
    if (labelled && !isRouterIntent(label) && label !== NEEDS_AGENT)
      throw new CorpusError(`${where}: "${label}" names no intent`);
    if (labelled && !(CORPUS_LANGUAGES as readonly string[]).includes(lang))
      throw new CorpusError(`${where}: "lang" must be one of ${CORPUS_LANGUAGES.join(", ")}`);
    examples.push({
      text: tweet,
      label: labelled ? label : "out_of_scope",
      lang: (labelled ? lang : "pcm") as CorpusLanguage,
      group: `${name}/${index}`,
      source: name,
    });
  });
  return examples;
}

/** Tweet pools in the data folder: `afrisenti-*.tsv` (see parseTweetPool). */
export const TWEET_POOL = /^afrisenti-.*\.tsv$/u;

/**
 * Reads the training corpus: `corpus/<intent>.jsonl` (and `needs_agent.jsonl`
 * for hard negatives) plus the tweet pools `afrisenti-*.tsv` (Pidgin and
 * native chatter, out_of_scope; real Pidgin complaints, needs_agent) and the
 * INJONGO training half under `injongo/` (see train/injongo.ts).
 * Every problem names its file and line.
 */
export function loadCorpus(dir: string): Corpus {
  const hash = createHash("sha256");
  const examples: LabelledExample[] = [];
  const corpusDir = join(dir, "corpus");
  if (!existsSync(corpusDir)) throw new CorpusError(`no corpus folder at ${corpusDir}`);
  for (const name of readdirSync(corpusDir).sort()) {
    if (!name.endsWith(".jsonl")) continue;
    // <label>.jsonl, or <label>.<part>.jsonl when a label's examples come in several files.
    const label = name.split(".")[0] ?? "";
    if (!isRouterIntent(label) && label !== NEEDS_AGENT)
      throw new CorpusError(`${name}: the file name names no intent (expected <intent>[.<part>].jsonl)`);
    const text = readFileSync(join(corpusDir, name), "utf8");
    hash.update(name).update("\0").update(text);
    examples.push(...parseJsonLines(name, text, label));
  }
  for (const name of readdirSync(dir).sort()) {
    if (!TWEET_POOL.test(name)) continue;
    const text = readFileSync(join(dir, name), "utf8");
    hash.update(name).update("\0").update(text);
    examples.push(...parseTweetPool(name, text));
  }
  const injongo = loadInjongo(dir);
  if (injongo.rows.length > 0) {
    hash.update(injongo.sha256);
    examples.push(...injongo.rows.flatMap((row) => (row.trains ? [row.example] : [])));
  }
  if (examples.length === 0) throw new CorpusError(`the corpus at ${corpusDir} is empty`);
  return { examples, sha256: hash.digest("hex") };
}
