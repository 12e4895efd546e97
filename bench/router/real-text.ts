/**
 * The router on real text nobody on the project wrote, train-free parts only:
 * real Pidgin complaints that need the agent (AfriSenti pcm_dev, selected and
 * hand-checked into data/router/eval/afrisenti-pcm-dev-complaints.jsonl) and
 * real chatter (AfriSenti pcm_dev and the Hausa, Igbo and Yoruba dev tweets,
 * minus every text the router trained on). Also what the abstain layer costs
 * on the routine messages of our test split.
 *
 *   node dist/bench/router/real-text.js [--shared DIR]
 *
 * Never reads a test file of AfriSenti.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  asEvalExamples,
  dataPath,
  type EvalExample,
  evaluateRouter,
  loadCorpus,
  loadEvalFile,
  loadIntentRouter,
  NEEDS_AGENT,
  splitCorpus,
} from "../../src/router/index.js";

const { values } = parseArgs({
  options: { shared: { type: "string", default: process.env.SHARPSHARP_SHARED_DATA ?? "" } },
});
const pct = (value: number) => (Number.isNaN(value) ? "–" : `${(value * 100).toFixed(1)}%`);

const router = loadIntentRouter();
const corpus = loadCorpus(dataPath("router"));
// The chatter pools were cleaned (@user, links, RT removed) before they were stored: compare cleaned texts.
const clean = (tweet: string) =>
  tweet
    .replace(/@user/gu, "")
    .replace(/https?:\/\/\S+/gu, "")
    .replace(/\bRT\b/gu, "")
    .replace(/\s+/gu, " ")
    .trim();
const trainedOn = new Set(corpus.examples.map((example) => clean(example.text)));
const complaints = loadEvalFile(dataPath("router", "eval", "afrisenti-pcm-dev-complaints.jsonl"));
const complaintTexts = new Set(complaints.map((example) => example.text));

/** Dev tweets (`tweet` column) as out_of_scope chatter, minus complaints and anything trained on. */
function devChatter(path: string, lang: string): EvalExample[] {
  const [header = "", ...lines] = readFileSync(path, "utf8").split("\n");
  const column = header.split("\t").indexOf("tweet");
  const seen = new Set<string>();
  return lines.flatMap((line, index) => {
    const tweet = clean(line.split("\t")[column] ?? "");
    if (tweet === "" || seen.has(tweet) || trainedOn.has(tweet) || complaintTexts.has(tweet)) return [];
    seen.add(tweet);
    return [{ id: `${lang}-dev-${index}`, text: tweet, gold: ["out_of_scope"], lang }];
  });
}

const sets: { name: string; examples: EvalExample[] }[] = [
  { name: "pcm_dev complaints (needs agent)", examples: complaints },
];
const shared = values.shared;
if (shared !== "") {
  sets.push({
    name: "pcm_dev chatter",
    examples: devChatter(join(shared, "afrisenti-pcm", "pcm_dev.tsv"), "pcm"),
  });
  for (const [file, lang] of [
    ["hau", "ha"],
    ["ibo", "ig"],
    ["yor", "yo"],
  ] as const)
    sets.push({
      name: `${file}_dev chatter`,
      examples: devChatter(join(shared, "afrisenti-hau-ibo-yor", `${file}_dev.tsv`), lang),
    });
} else process.stdout.write("(no --shared folder: the complaints only)\n");

const lines = [
  "| set | messages | coverage (answered locally) | precision of resolved | false resolution (needs agent) |",
  "| --- | --- | --- | --- | --- |",
];
for (const { name, examples } of sets) {
  const report = evaluateRouter(examples, (text) => router.classify(text));
  lines.push(
    `| ${name} | ${report.messages} | ${pct(report.coverage)} | ${pct(report.resolvedPrecision)} | ${report.needsAgentMessages === 0 ? "–" : pct(report.falseResolutionRate)} |`,
  );
}

// The abstain layer's price: routine test-split messages it flags that would
// otherwise clear their intent's threshold (an upper bound on lost coverage).
const routine = asEvalExamples(splitCorpus(corpus.examples).test, "test").filter(
  (example) => example.gold[0] !== NEEDS_AGENT && example.gold[0] !== "out_of_scope",
);
const reasons = new Map<string, number>();
let flagged = 0;
let wouldResolve = 0;
for (const example of routine) {
  const decision = router.classify(example.text);
  if (decision.abstained === undefined) continue;
  flagged += 1;
  reasons.set(decision.abstained, (reasons.get(decision.abstained) ?? 0) + 1);
  if (decision.confidence >= (router.model.thresholds[decision.intent] ?? 2)) wouldResolve += 1;
}
lines.push(
  "",
  `abstain layer on the test split's ${routine.length} routine messages: flags ${flagged} (${pct(flagged / routine.length)}), ` +
    `of which ${wouldResolve} (${pct(wouldResolve / routine.length)} coverage) would otherwise have been answered; ` +
    `reasons: ${[...reasons].map(([reason, count]) => `${reason} ${count}`).join(", ") || "none"}`,
);
process.stdout.write(`${lines.join("\n")}\n`);
