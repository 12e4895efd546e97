import { readFileSync } from "node:fs";
import { basename } from "node:path";
import type { DetectedLanguage } from "../detect-language.js";
import { ROUTER_LANGUAGES } from "../lexicon.js";
import { CORPUS_LANGUAGES, loadCorpus } from "../train/corpus.js";
import { splitCorpus } from "../train/split.js";
import { INJONGO_LANGUAGES, injongoHeldOut, parseInjongoRows } from "./injongo-holdout.js";

/** A message with its language (`mix` for code-switched text). */
export interface LanguageEvalExample {
  readonly text: string;
  readonly lang: DetectedLanguage;
}

export interface LanguageEvalReport {
  readonly messages: number;
  /** Share of messages whose language was named exactly (`mix` for `mix`). */
  readonly accuracy: number;
  /** Accuracy over the messages of the five languages only (`mix` messages aside). */
  readonly monolingualAccuracy: number;
  readonly perLanguage: Readonly<Record<string, { readonly messages: number; readonly accuracy: number }>>;
  /** confusion[gold][predicted] = messages. */
  readonly confusion: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

const AFRISENTI_NAME = /^(pcm|hau|ibo|yor)_(train|dev|test)\.tsv$/u;
const AFRISENTI_LANGUAGES: Readonly<Record<string, DetectedLanguage>> = { pcm: "pcm", ...INJONGO_LANGUAGES };

export class LanguageEvalError extends Error {
  override readonly name = "LanguageEvalError";
}

/**
 * Reads an evaluation file: an AfriSenti `{pcm,hau,ibo,yor}_{train,dev}.tsv`
 * (every tweet in the file's language; test files are refused: they are never
 * read), an INJONGO `{hau,ibo,yor}.tsv` (only the fifth held out of training,
 * see injongoHeldOut), or JSON lines with `text` and `lang`.
 */
export function loadLanguageEvalFile(path: string): LanguageEvalExample[] {
  const name = basename(path);
  const afrisenti = AFRISENTI_NAME.exec(name);
  if (afrisenti?.[2] === "test") throw new LanguageEvalError(`${name}: AfriSenti test files are never used`);
  const text = readFileSync(path, "utf8");
  if (afrisenti !== null) {
    const lang = AFRISENTI_LANGUAGES[afrisenti[1] as string] as DetectedLanguage;
    const [header = "", ...lines] = text.split("\n");
    const column = header.split("\t").indexOf("tweet");
    return lines
      .map((line) => line.split("\t")[column] ?? "")
      .filter((tweet) => tweet.trim() !== "")
      .map((tweet) => ({ text: tweet, lang }));
  }
  if (text.startsWith("lang\tdomain\tintent\ttext")) {
    const rows = parseInjongoRows(text);
    const heldOut = injongoHeldOut(rows);
    return rows.flatMap((row, index) => {
      const lang = INJONGO_LANGUAGES[row.lang];
      return heldOut[index] && lang !== undefined ? [{ text: row.text, lang }] : [];
    });
  }
  if (name.endsWith(".jsonl"))
    return text
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line, index) => {
        const row = JSON.parse(line) as { text?: unknown; lang?: unknown };
        if (
          typeof row.text !== "string" ||
          typeof row.lang !== "string" ||
          !(CORPUS_LANGUAGES as readonly string[]).includes(row.lang)
        )
          throw new LanguageEvalError(
            `${name}:${index + 1}: expected {"text", "lang"} with a router language`,
          );
        return { text: row.text, lang: row.lang as DetectedLanguage };
      });
  throw new LanguageEvalError(
    `${name}: unknown format (expected AfriSenti {pcm,hau,ibo,yor}_{train,dev}.tsv, INJONGO {hau,ibo,yor}.tsv or .jsonl)`,
  );
}

/** Our corpus's test split (never trained on), written lines only, with their languages. */
export function corpusTestLanguages(routerDataDir: string): LanguageEvalExample[] {
  return splitCorpus(loadCorpus(routerDataDir).examples)
    .test.filter((example) => !example.source.endsWith(".tsv"))
    .map((example) => ({ text: example.text, lang: example.lang }));
}

/** Scores a language guesser on labelled messages. */
export function evaluateLanguage(
  examples: readonly LanguageEvalExample[],
  guess: (text: string) => DetectedLanguage,
): LanguageEvalReport {
  const confusion: Record<string, Record<string, number>> = {};
  const tally: Record<string, { messages: number; right: number }> = {};
  for (const example of examples) {
    const predicted = guess(example.text);
    const row = confusion[example.lang] ?? {};
    row[predicted] = (row[predicted] ?? 0) + 1;
    confusion[example.lang] = row;
    const counts = tally[example.lang] ?? { messages: 0, right: 0 };
    counts.messages += 1;
    if (predicted === example.lang) counts.right += 1;
    tally[example.lang] = counts;
  }
  const sum = (keys: readonly string[], field: "messages" | "right") =>
    keys.reduce((total, key) => total + (tally[key]?.[field] ?? 0), 0);
  const all = Object.keys(tally);
  return {
    messages: examples.length,
    accuracy: sum(all, "right") / Math.max(1, sum(all, "messages")),
    monolingualAccuracy:
      sum(ROUTER_LANGUAGES, "right") / Math.max(1, sum(ROUTER_LANGUAGES, "messages")) || Number.NaN,
    perLanguage: Object.fromEntries(
      [...ROUTER_LANGUAGES, "mix"]
        .filter((lang) => tally[lang] !== undefined)
        .map((lang) => {
          const counts = tally[lang] as { messages: number; right: number };
          return [lang, { messages: counts.messages, accuracy: counts.right / counts.messages }];
        }),
    ),
    confusion,
  };
}

const pct = (value: number): string => (Number.isNaN(value) ? "–" : `${(value * 100).toFixed(1)}%`);
const COLUMNS = [...ROUTER_LANGUAGES, "mix"] as const;

/** The confusion matrix and per-language accuracy, and the baseline's accuracy beside it when given. */
export function formatLanguageReport(
  title: string,
  report: LanguageEvalReport,
  baseline?: LanguageEvalReport,
): string {
  const lines = [
    `## ${title}`,
    `messages ${report.messages}   accuracy ${pct(report.accuracy)}` +
      (baseline === undefined ? "" : `   (old lexicon-hit guess ${pct(baseline.accuracy)})`),
    "",
    `gold \\ guess ${COLUMNS.map((lang) => lang.padStart(6)).join("")}   accuracy${baseline === undefined ? "" : "   old guess"}`,
  ];
  for (const [lang, scores] of Object.entries(report.perLanguage)) {
    const row = report.confusion[lang] ?? {};
    lines.push(
      `${lang.padEnd(12)} ${COLUMNS.map((column) => String(row[column] ?? 0).padStart(6)).join("")}` +
        `   ${pct(scores.accuracy).padStart(8)}` +
        (baseline === undefined
          ? ""
          : `   ${pct(baseline.perLanguage[lang]?.accuracy ?? Number.NaN).padStart(9)}`),
    );
  }
  return lines.join("\n");
}
