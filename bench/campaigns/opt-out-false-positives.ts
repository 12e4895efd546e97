/**
 * The opt-out / opt-in detector on real text nobody on the project wrote: no
 * text of the permitted public data sets is a request to stop or restart
 * campaign messages (banking requests, tweets, transcribed speech), so every
 * flag is a candidate false positive to read by hand. Each text is read whole,
 * as a message; then, harder, each clause of a text with several (cut at
 * . ! ? ; : , and dashes) is read as if it had been sent alone.
 *
 *   npx tsc -p tsconfig.build.json && node dist/bench/campaigns/opt-out-false-positives.js [--shared DIR]
 *
 * DIR (or $SHARPSHARP_SHARED_DATA) is a folder holding the INJONGO intent, AfriSenti and
 * Naija UD data sets (not shipped with the project: their licences and the files the table
 * names are in bench/RESULTS.md). The data is read where it lies, never copied. Never reads a test
 * file of AfriSenti: only the train and dev halves, and INJONGO's training half.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { detectOptChange, type OptChange } from "../../src/campaigns/index.js";

interface DataSet {
  readonly name: string;
  readonly files: readonly string[];
  /** The header name of the column that holds the text. */
  readonly column: string;
}

const DATA_SETS: readonly DataSet[] = [
  ...(["hau", "ibo", "yor"] as const).map((lang) => ({
    name: `injongo-intent ${lang} (training half)`,
    files: [`injongo-intent/${lang}.tsv`],
    column: "text",
  })),
  ...(["hau", "ibo", "yor"] as const).map((lang) => ({
    name: `afrisenti ${lang} train+dev`,
    files: [`afrisenti-hau-ibo-yor/${lang}_train.tsv`, `afrisenti-hau-ibo-yor/${lang}_dev.tsv`],
    column: "tweet",
  })),
  {
    name: "afrisenti pcm train+dev",
    files: ["afrisenti-pcm/pcm_train.tsv", "afrisenti-pcm/pcm_dev.tsv"],
    column: "tweet",
  },
  { name: "naija-ud sentences (pcm)", files: ["naija-ud-lexicon/pcm_en_sentence_pairs.tsv"], column: "pcm" },
  { name: "naija-ud sentences (en)", files: ["naija-ud-lexicon/pcm_en_sentence_pairs.tsv"], column: "en" },
];

/** The `column` of every row of a tab-separated file with a header row. */
function readColumn(path: string, column: string): string[] {
  // The held-back halves stay unread, whatever the list above says.
  if (/_test\.tsv$/u.test(path)) throw new Error(`refusing to read a test file: ${path}`);
  const [header = "", ...rows] = readFileSync(path, "utf8").split("\n");
  const index = header.split("\t").indexOf(column);
  if (index < 0) throw new Error(`${path} has no column ${column}`);
  return rows.map((row) => row.split("\t")[index] ?? "").filter((text) => text.trim() !== "");
}

// Tweets carry "@user", "RT" and links that no WhatsApp message has; without them more
// tweets are short enough to be read as a bare request, which makes the test harder.
const clean = (text: string) =>
  text
    .replace(/@user/gu, " ")
    .replace(/https?:\/\/\S+/gu, " ")
    .replace(/\bRT\b/gu, " ")
    .replace(/\s+/gu, " ")
    .trim();
/** Words of the phrase lists (folded): a text holding one was read closely and still rejected. */
const KEYWORD_WORD =
  /\b(stop\w*|unsub\w*|subscri\w*|start\w*|unstop|dekun|duro|daina|dena|tsaya|fara|kwusi\w*|akwusi\w*|achoghi\w*|malite\w*|bido|comot|commot|bere)\b/u;
const fold = (text: string) =>
  text
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase();
const words = (text: string) => text.split(/[^\p{L}\p{N}]+/u).filter((word) => word !== "").length;

/** A text cut at sentence and clause punctuation: each piece read as if it were a message of its own. */
const clauses = (text: string) =>
  text
    .split(/[.!?;:,\n]+|\s[-–—]\s/u)
    .map((piece) => piece.trim())
    .filter((piece) => words(piece) > 0);

interface Flag {
  readonly set: string;
  readonly text: string;
  readonly change: OptChange;
}

interface SetResult {
  readonly name: string;
  readonly texts: number;
  /** Texts of at most six words: the ones a whole-phrase match could possibly accept. */
  readonly short: number;
  readonly withKeywordWord: number;
  readonly flags: readonly Flag[];
  readonly clauses: number;
  readonly clauseFlags: readonly Flag[];
}

function flagsOf(set: string, texts: readonly string[]): Flag[] {
  return texts.flatMap((text) => {
    const change = detectOptChange(text);
    return change === undefined ? [] : [{ set, text, change }];
  });
}

function scan(shared: string, set: DataSet): SetResult | undefined {
  const paths = set.files.map((file) => join(shared, file));
  if (!paths.every((path) => existsSync(path))) return undefined;
  const texts = paths.flatMap((path) => readColumn(path, set.column)).map(clean);
  // Only texts that really have several clauses: a one-clause text was already read whole.
  const pieces = texts
    .map(clauses)
    .filter((list) => list.length > 1)
    .flat();
  return {
    name: set.name,
    texts: texts.length,
    short: texts.filter((text) => words(text) <= 6).length,
    withKeywordWord: texts.filter((text) => KEYWORD_WORD.test(fold(text))).length,
    flags: flagsOf(set.name, texts),
    clauses: pieces.length,
    clauseFlags: flagsOf(set.name, pieces),
  };
}

const { values } = parseArgs({
  options: {
    shared: { type: "string" },
  },
});
const dataDir = values.shared ?? process.env.SHARPSHARP_SHARED_DATA;
if (dataDir === undefined) {
  process.stderr.write("Say where the data sets are: --shared DIR or SHARPSHARP_SHARED_DATA=DIR.\n");
  process.exit(2);
}
const shared = resolve(dataDir);
const out = (line: string) => process.stdout.write(`${line}\n`);
const count = (flags: readonly Flag[], kind: OptChange["kind"]) =>
  flags.filter((flag) => flag.change.kind === kind).length;
const COLUMNS: readonly (readonly [string, (result: Omit<SetResult, "name">) => number])[] = [
  ["texts", (r) => r.texts],
  ["of <=6 words", (r) => r.short],
  ["with a keyword word", (r) => r.withKeywordWord],
  ["opt_out", (r) => count(r.flags, "opt_out")],
  ["opt_in", (r) => count(r.flags, "opt_in")],
  ["clauses", (r) => r.clauses],
  ["clause opt_out", (r) => count(r.clauseFlags, "opt_out")],
  ["clause opt_in", (r) => count(r.clauseFlags, "opt_in")],
];
const row = (cells: readonly (string | number)[]) => out(`| ${cells.join(" | ")} |`);

out(`opt-out keywords on real text, data from ${shared}`);
out("");
row(["data set", ...COLUMNS.map(([header]) => header)]);
row(["---", ...COLUMNS.map(() => "---:")]);
const results: SetResult[] = [];
for (const set of DATA_SETS) {
  const result = scan(shared, set);
  if (result === undefined) row([set.name, "(missing)"]);
  else {
    results.push(result);
    row([result.name, ...COLUMNS.map(([, value]) => value(result))]);
  }
}
const all = {
  texts: results.reduce((total, r) => total + r.texts, 0),
  short: results.reduce((total, r) => total + r.short, 0),
  withKeywordWord: results.reduce((total, r) => total + r.withKeywordWord, 0),
  flags: results.flatMap((r) => r.flags),
  clauses: results.reduce((total, r) => total + r.clauses, 0),
  clauseFlags: results.flatMap((r) => r.clauseFlags),
};
row(["all", ...COLUMNS.map(([, value]) => value(all))]);

for (const [title, list] of [
  ["flagged texts", all.flags],
  ["flagged clauses", all.clauseFlags],
] as const) {
  out("");
  out(`${title}:${list.length === 0 ? " none" : ""}`);
  for (const { set, change, text } of list)
    out(`- [${set}] ${change.kind} ${change.language} "${change.keyword}": ${JSON.stringify(text)}`);
}
