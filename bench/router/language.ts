/**
 * Language identifier benchmark: model file size and load time, and warm
 * identification latency on our test split (and AfriSenti dev tweets when the
 * shared data folder is given), overall and for messages over 120 characters.
 *
 *   node dist/bench/router/language.js [--shared DIR] [--repeat 20]
 *
 * Needs `npm run build`.
 */
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  corpusTestLanguages,
  createIntentRouter,
  DEFAULT_LANGUAGE_MODEL_PATH,
  DEFAULT_MODEL_PATH,
  dataPath,
  type LanguageIdentifier,
  loadLanguageEvalFile,
  loadLanguageIdentifier,
  loadLexicon,
  loadModelFile,
} from "../../src/router/index.js";

const { values } = parseArgs({
  options: {
    shared: { type: "string", default: process.env.SHARPSHARP_SHARED_DATA ?? "" },
    repeat: { type: "string", default: "20" },
  },
});

const loads: number[] = [];
let identifier = loadLanguageIdentifier();
for (let run = 0; run < 10; run += 1) {
  const started = performance.now();
  identifier = loadLanguageIdentifier();
  loads.push(performance.now() - started);
}
loads.sort((a, b) => a - b);

const texts = corpusTestLanguages(dataPath("router")).map((example) => example.text);
const devFiles = [
  "afrisenti-pcm/pcm_dev.tsv",
  ...["hau", "ibo", "yor"].map((code) => `afrisenti-hau-ibo-yor/${code}_dev.tsv`),
];
for (const file of devFiles)
  if (existsSync(join(values.shared, file)))
    texts.push(...loadLanguageEvalFile(join(values.shared, file)).map((example) => example.text));

for (let round = 0; round < 3; round += 1) for (const text of texts) identifier.identify(text);
const all: number[] = [];
const long: number[] = [];
for (let round = 0; round < Number(values.repeat); round += 1)
  for (const text of texts) {
    const started = performance.now();
    identifier.identify(text);
    const elapsed = (performance.now() - started) * 1000;
    all.push(elapsed);
    if (text.length > 120) long.push(elapsed);
  }
// The whole router's classify with the identifier, and with a constant in its place (what the identifier adds).
const model = loadModelFile(DEFAULT_MODEL_PATH());
const lexicon = loadLexicon();
const constant: LanguageIdentifier = {
  model: identifier.model,
  identify: () => ({
    language: "en",
    probability: 1,
    scores: { en: 1, pcm: 0, yo: 0, ha: 0, ig: 0 },
    basis: "model",
  }),
};
const routers = {
  "router.classify with the identifier": createIntentRouter(model, lexicon, identifier),
  "router.classify without it": createIntentRouter(model, lexicon, constant),
};
const routerTimes = new Map<string, number[]>(Object.keys(routers).map((name) => [name, []]));
const corpusTexts = texts.slice(0, corpusTestLanguages(dataPath("router")).length);
for (let round = 0; round < Number(values.repeat); round += 1)
  for (const [name, router] of Object.entries(routers)) {
    const times = routerTimes.get(name) as number[];
    for (const text of corpusTexts) {
      const started = performance.now();
      router.classify(text);
      times.push((performance.now() - started) * 1000);
    }
  }

const at = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0;
const line = (name: string, times: number[]) => {
  times.sort((a, b) => a - b);
  return `${name}: ${times.length} warm calls, p50 ${at(times, 0.5).toFixed(1)} µs, p90 ${at(times, 0.9).toFixed(1)} µs, p99 ${at(times, 0.99).toFixed(1)} µs, max ${at(times, 1).toFixed(0)} µs`;
};
process.stdout.write(
  [
    `language model ${(statSync(DEFAULT_LANGUAGE_MODEL_PATH()).size / 1024).toFixed(0)} kB, load p50 ${at(loads, 0.5).toFixed(1)} ms, max ${at(loads, 1).toFixed(1)} ms`,
    `messages: ${texts.length} (our test split${existsSync(join(values.shared, devFiles[0] as string)) ? " + AfriSenti dev tweets" : ""})`,
    line("all messages", all),
    line("messages over 120 characters", long),
    ...[...routerTimes.entries()].map(([name, times]) => line(`${name} (our test split)`, times)),
    "",
  ].join("\n"),
);
