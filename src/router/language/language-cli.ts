import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { detectLanguage } from "../detect-language.js";
import { loadLexicon } from "../lexicon.js";
import { normalizeMessage } from "../normalize.js";
import { dataPath } from "../package-files.js";
import {
  corpusTestLanguages,
  evaluateLanguage,
  formatLanguageReport,
  type LanguageEvalExample,
  loadLanguageEvalFile,
} from "./evaluate-language.js";
import { createLanguageIdentifier, DEFAULT_LANGUAGE_MODEL_PATH } from "./identify-language.js";
import { loadLanguageData } from "./language-data.js";
import { loadLanguageModelFile, serializeLanguageModel } from "./language-model.js";
import { drawLanguageSample, SAMPLED_LANGUAGES } from "./language-sample.js";
import { trainLanguageModel } from "./train-language.js";

interface Output {
  readonly stdout: NodeJS.WritableStream;
}

class LanguageUsageError extends Error {
  override readonly name = "UsageError";
}

/** Trains the language identifier from a router data folder into its model file; returns a one-line summary. */
export function trainLanguageFiles(dataDir: string, out: string = DEFAULT_LANGUAGE_MODEL_PATH()): string {
  // A data folder made for a test or a tenant may hold a corpus only.
  if (!existsSync(join(dataDir, "language")))
    return `language model: skipped (no language/ folder in ${dataDir})`;
  const started = performance.now();
  const data = loadLanguageData(dataDir);
  const model = trainLanguageModel(data.examples, data.sha256);
  const bytes = serializeLanguageModel(model);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, bytes);
  const perLanguage = Object.entries(model.provenance.examples)
    .map(([lang, count]) => `${lang} ${count}`)
    .join(", ");
  return (
    `language model: ${data.examples.length} lines (${perLanguage}), ${model.hashes.length} features, ` +
    `${(bytes.length / 1024).toFixed(0)} kB, ${((performance.now() - started) / 1000).toFixed(1)} s -> ${out}`
  );
}

/**
 * `sharpsharp router eval-language [files]`: the identifier's confusion matrix
 * and per-language accuracy on our test split (default) or the files given,
 * beside the old lexicon-hit guess (detect-language.ts) on the same messages.
 */
export function evalLanguageCommand(args: string[], io: Output): number {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { model: { type: "string" }, json: { type: "boolean" } },
  });
  const sets: { title: string; examples: LanguageEvalExample[] }[] =
    positionals.length === 0
      ? [{ title: "our test split", examples: corpusTestLanguages(dataPath("router")) }]
      : positionals.map((path) => ({ title: path, examples: loadLanguageEvalFile(path) }));
  const identifier = createLanguageIdentifier(
    loadLanguageModelFile(values.model ?? DEFAULT_LANGUAGE_MODEL_PATH()),
  );
  const lexicon = loadLexicon();
  const reports = sets.map(({ title, examples }) => ({
    title,
    report: evaluateLanguage(examples, (text) => identifier.identify(text).language),
    lexiconHits: evaluateLanguage(examples, (text) => detectLanguage(normalizeMessage(text, lexicon))),
  }));
  if (values.json === true) io.stdout.write(`${JSON.stringify(reports, null, 2)}\n`);
  else
    for (const { title, report, lexiconHits } of reports)
      io.stdout.write(`${formatLanguageReport(title, report, lexiconHits)}\n\n`);
  return 0;
}

/** `sharpsharp router language-sample --from DIR`: redraws data/router/language/*.tsv from the public sets. */
export function languageSampleCommand(args: string[], io: Output): number {
  const { values } = parseArgs({ args, options: { from: { type: "string" }, out: { type: "string" } } });
  if (values.from === undefined)
    throw new LanguageUsageError(
      "--from <folder with afrisenti-pcm, afrisenti-hau-ibo-yor, injongo-intent> is required",
    );
  const outDir = values.out ?? dataPath("router", "language");
  const { files, stats } = drawLanguageSample(values.from);
  mkdirSync(outDir, { recursive: true });
  for (const lang of SAMPLED_LANGUAGES) {
    writeFileSync(join(outDir, `${lang}.tsv`), files[lang]);
    io.stdout.write(`${lang}: ${JSON.stringify(stats[lang])} -> ${join(outDir, `${lang}.tsv`)}\n`);
  }
  return 0;
}
