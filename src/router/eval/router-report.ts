import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { NEEDS_AGENT } from "../intents.js";
import type { Corpus } from "../train/corpus.js";
import { splitCorpus } from "../train/split.js";
import { asEvalExamples, loadEvalFile, mixedTrafficSample } from "./eval-sets.js";
import type { EvalExample, EvalOutcome, EvalReport } from "./evaluate.js";
import { evaluateRouter } from "./evaluate.js";

/** One set of the router's report: where its messages come from and whether anyone on the project wrote them. */
export interface ReportSet {
  readonly name: string;
  readonly examples: readonly EvalExample[];
  /** `ours`: written by the project (its test split); `real`: text nobody on the project wrote. */
  readonly origin: "ours" | "real";
}

export interface ReportRow {
  readonly set: ReportSet;
  readonly report: EvalReport;
}

/** The evaluation sets shipped in the repository (data/router/eval/), never read by training. */
export const SHIPPED_EVAL_SETS = [
  {
    file: "afrisenti-pcm-dev-complaints.jsonl",
    name: "real Pidgin complaints (AfriSenti pcm_dev, needs agent)",
    origin: "real",
  },
  {
    file: "written-needs-agent-check.jsonl",
    name: "written needs-agent check (never tuned on)",
    origin: "ours",
  },
] as const;

// The pools were stored cleaned (@user, links, RT removed): dev tweets are compared the same way.
function cleanTweet(tweet: string): string {
  return tweet
    .replace(/@user/gu, "")
    .replace(/https?:\/\/\S+/gu, "")
    .replace(/\bRT\b/gu, "")
    .replace(/\s+/gu, " ")
    .trim();
}

/**
 * AfriSenti dev tweets as out_of_scope chatter, without the texts the router
 * trained on (the dev and train files share tweets upstream) and without the
 * shipped complaints (those need the agent).
 */
export function devChatter(path: string, lang: string, exclude: ReadonlySet<string>): EvalExample[] {
  const [header = "", ...lines] = readFileSync(path, "utf8").split("\n");
  const column = header.split("\t").indexOf("tweet");
  const seen = new Set<string>();
  return lines.flatMap((line, index) => {
    const tweet = cleanTweet(line.split("\t")[column] ?? "");
    if (tweet === "" || seen.has(tweet) || exclude.has(tweet)) return [];
    seen.add(tweet);
    return [{ id: `${lang}-dev-${index}`, text: tweet, gold: ["out_of_scope"], lang }];
  });
}

/**
 * The report's sets. Always: our test split, the mixed-traffic sample, and
 * the evaluation sets in data/router/eval/. With `shared` (a folder holding
 * the public sets: afrisenti-pcm/, afrisenti-hau-ibo-yor/), also AfriSenti's
 * Pidgin, Hausa, Igbo and Yoruba dev tweets as chatter, and the mixed sample's
 * chatter comes from pcm_test as in bench/router (otherwise from the tweets
 * our test split holds). AfriSenti's test files are read for evaluation only.
 */
export function routerReportSets(corpus: Corpus, routerDataDir: string, shared?: string): ReportSet[] {
  const test = asEvalExamples(splitCorpus(corpus.examples).test, "test");
  const pcmTest = shared === undefined ? undefined : join(shared, "afrisenti-pcm", "pcm_test.tsv");
  const chatter =
    pcmTest !== undefined && existsSync(pcmTest)
      ? loadEvalFile(pcmTest)
      : test.filter((example) => example.gold[0] === "out_of_scope" && isPooled(example, corpus));
  const sets: ReportSet[] = [
    { name: "our test split", examples: test, origin: "ours" },
    {
      name: `mixed traffic sample (chatter: ${pcmTest !== undefined && existsSync(pcmTest) ? "AfriSenti pcm_test" : "tweets in our test split"})`,
      examples: mixedTrafficSample(test, chatter),
      origin: "ours",
    },
  ];
  for (const shipped of SHIPPED_EVAL_SETS) {
    const path = join(routerDataDir, "eval", shipped.file);
    if (existsSync(path))
      sets.push({ name: shipped.name, examples: loadEvalFile(path), origin: shipped.origin });
  }
  if (shared === undefined) return sets;
  const trained = new Set(corpus.examples.map((example) => cleanTweet(example.text)));
  for (const set of sets)
    if (set.name.startsWith("real Pidgin complaints")) for (const e of set.examples) trained.add(e.text);
  const devFiles = [
    [join(shared, "afrisenti-pcm", "pcm_dev.tsv"), "pcm"],
    [join(shared, "afrisenti-hau-ibo-yor", "hau_dev.tsv"), "ha"],
    [join(shared, "afrisenti-hau-ibo-yor", "ibo_dev.tsv"), "ig"],
    [join(shared, "afrisenti-hau-ibo-yor", "yor_dev.tsv"), "yo"],
  ] as const;
  for (const [path, lang] of devFiles)
    if (existsSync(path))
      sets.push({
        name: `AfriSenti ${lang} dev tweets (chatter)`,
        examples: devChatter(path, lang, trained),
        origin: "real",
      });
  return sets;
}

const pooledSources = new WeakMap<Corpus, ReadonlySet<string>>();

/** Whether a test-split example is one of the pooled tweets (AfriSenti), not a message the project wrote. */
function isPooled(example: EvalExample, corpus: Corpus): boolean {
  let texts = pooledSources.get(corpus);
  if (texts === undefined) {
    texts = new Set(
      corpus.examples
        .filter((entry) => entry.source.endsWith(".tsv") && entry.label === "out_of_scope")
        .map((entry) => entry.text),
    );
    pooledSources.set(corpus, texts);
  }
  return texts.has(example.text);
}

/** Every set scored with `classify`. */
export function scoreReportSets(
  sets: readonly ReportSet[],
  classify: (text: string) => EvalOutcome,
): ReportRow[] {
  return sets.map((set) => ({ set, report: evaluateRouter(set.examples, classify) }));
}

const pct = (value: number): string => (Number.isNaN(value) ? "–" : `${(value * 100).toFixed(1)}%`);

/**
 * The one report: per set, coverage (answered locally), precision of the
 * local answers and false resolution (needs-agent messages answered locally),
 * then the same per language. Markdown tables, for the terminal and docs.
 */
export function formatRouterReport(rows: readonly ReportRow[]): string {
  const lines = [
    "| set | origin | messages | coverage | precision of resolved | false resolution (needs agent) |",
    "| --- | --- | --- | --- | --- | --- |",
  ];
  for (const { set, report } of rows)
    lines.push(
      `| ${set.name} | ${set.origin} | ${report.messages} | ${pct(report.coverage)} | ${pct(report.resolvedPrecision)} | ${report.needsAgentMessages === 0 ? "–" : `${pct(report.falseResolutionRate)} (n=${report.needsAgentMessages})`} |`,
    );
  lines.push(
    "",
    "| set | language | messages | coverage | precision of resolved | false resolution |",
    "| --- | --- | --- | --- | --- | --- |",
  );
  for (const { set, report } of rows) {
    const languages = Object.entries(report.perLanguage);
    if (languages.length < 2 && set.examples.every((example) => example.gold[0] !== NEEDS_AGENT)) continue;
    for (const [language, scores] of languages)
      lines.push(
        `| ${set.name} | ${language} | ${scores.messages} | ${pct(scores.coverage)} | ${pct(scores.resolvedPrecision)} | ${scores.needsAgentMessages === 0 ? "–" : pct(scores.falseResolutionRate)} |`,
      );
  }
  return lines.join("\n");
}
