/**
 * Router benchmark: model size and load time, warm classification latency,
 * and the evaluation figures of the classifier next to the keyword-list
 * baseline on our test split, a realistic mixed-traffic sample and
 * AfriSenti's Pidgin test tweets (never trained on). INJONGO is measured by
 * cross-validation in `sharpsharp router eval` (it is trained on).
 *
 *   node dist/bench/router/run.js [--shared DIR] [--repeat 20] [--details]
 *
 * Needs `npm run build`. Without the data folder (--shared or SHARPSHARP_SHARED_DATA), only our test split runs.
 */
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  asEvalExamples,
  DEFAULT_MODEL_PATH,
  dataPath,
  type EvalExample,
  type EvalReport,
  evaluateRouter,
  formatReport,
  keywordIntent,
  loadCorpus,
  loadEvalFile,
  loadIntentRouter,
  MIXED_TRAFFIC_SHARES,
  mixedTrafficSample,
  splitCorpus,
} from "../../src/router/index.js";

const { values } = parseArgs({
  options: {
    // A folder of the public data sets (AfriSenti, INJONGO); default $SHARPSHARP_SHARED_DATA.
    shared: { type: "string", default: process.env.SHARPSHARP_SHARED_DATA ?? "" },
    repeat: { type: "string", default: "20" },
    details: { type: "boolean", default: false },
  },
});

const pct = (value: number) => (Number.isNaN(value) ? "–" : `${(value * 100).toFixed(1)}%`);

const loadTimes: number[] = [];
let router = loadIntentRouter();
for (let run = 0; run < 10; run += 1) {
  const started = performance.now();
  router = loadIntentRouter();
  loadTimes.push(performance.now() - started);
}
loadTimes.sort((a, b) => a - b);

const test = asEvalExamples(splitCorpus(loadCorpus(dataPath("router")).examples).test, "test");
const sets: { name: string; examples: EvalExample[] }[] = [{ name: "our test split", examples: test }];
const shared = values.shared;
if (existsSync(join(shared, "afrisenti-pcm", "pcm_test.tsv"))) {
  const tweets = loadEvalFile(join(shared, "afrisenti-pcm", "pcm_test.tsv"));
  sets.push({ name: "mixed traffic sample", examples: mixedTrafficSample(test, tweets) });
  sets.push({
    name: "mixed traffic, harsher (40% routine)",
    examples: mixedTrafficSample(test, tweets, { routine: 0.4, needsAgent: 0.45, chatter: 0.15 }),
  });
  // INJONGO's training half is trained on now: its honest figure is the grouped
  // cross-validation of `sharpsharp router eval`, not a replay here.
  sets.push({ name: "AfriSenti pcm_test (chatter)", examples: tweets });
} else process.stdout.write(`(no shared data at ${shared}: only our test split)\n`);

// Latency: warm the JIT, then time every message of the mixed sample `repeat` times.
const timing = sets[1]?.examples ?? test;
for (let round = 0; round < 3; round += 1) for (const example of timing) router.classify(example.text);
const latencies: number[] = [];
const repeat = Number(values.repeat);
for (let round = 0; round < repeat; round += 1)
  for (const example of timing) {
    const started = process.hrtime.bigint();
    router.classify(example.text);
    latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
latencies.sort((a, b) => a - b);
const at = (p: number) =>
  latencies[Math.min(latencies.length - 1, Math.ceil(p * latencies.length) - 1)] as number;

const rows: { name: string; classifier: EvalReport; keyword: EvalReport }[] = sets.map(
  ({ name, examples }) => ({
    name,
    classifier: evaluateRouter(examples, (text) => router.classify(text)),
    keyword: evaluateRouter(examples, (text) => {
      const intent = keywordIntent(text);
      return { intent: intent ?? "out_of_scope", resolved: intent !== undefined };
    }),
  }),
);

const lines = [
  `model ${DEFAULT_MODEL_PATH()}: ${(statSync(DEFAULT_MODEL_PATH()).size / 1024 / 1024).toFixed(2)} MB, ` +
    `${router.model.features.length} features; load (model + lexicon) median ${loadTimes[5]?.toFixed(1)} ms, max ${loadTimes.at(-1)?.toFixed(1)} ms`,
  `classification latency over ${latencies.length} warm calls: p50 ${at(0.5).toFixed(4)} ms, p99 ${at(0.99).toFixed(4)} ms, max ${latencies.at(-1)?.toFixed(3)} ms`,
  `mixed traffic sample: ${MIXED_TRAFFIC_SHARES.routine * 100}% routine requests (test split), ${MIXED_TRAFFIC_SHARES.needsAgent * 100}% needs-agent hard negatives (test split), ${MIXED_TRAFFIC_SHARES.chatter * 100}% AfriSenti pcm_test tweets`,
  "",
  "| set | messages | router | coverage | precision of resolved | false resolution (needs agent) |",
  "| --- | --- | --- | --- | --- | --- |",
];
for (const row of rows)
  for (const [label, report] of [
    ["classifier", row.classifier],
    ["keyword list", row.keyword],
  ] as const)
    lines.push(
      `| ${row.name} | ${report.messages} | ${label} | ${pct(report.coverage)} | ${pct(report.resolvedPrecision)} | ${report.needsAgentMessages === 0 ? "–" : pct(report.falseResolutionRate)} |`,
    );
process.stdout.write(`${lines.join("\n")}\n`);
if (values.details)
  for (const row of rows)
    process.stdout.write(`\n${formatReport(`${row.name}: classifier`, row.classifier)}\n`);
