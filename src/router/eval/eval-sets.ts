import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { isRouterIntent, NEEDS_AGENT } from "../intents.js";
import { CorpusError, type LabelledExample } from "../train/corpus.js";
import { parseInjongoLabelMap } from "../train/injongo.js";
import { fnv1a } from "../train/split.js";
import type { EvalExample } from "./evaluate.js";

/** Corpus examples as evaluation examples (their label is the one right answer). */
export function asEvalExamples(examples: readonly LabelledExample[], prefix: string): EvalExample[] {
  return examples.map((example, index) => ({
    id: `${prefix}-${index}`,
    text: example.text,
    gold: [example.label],
    lang: example.lang,
  }));
}

// The label map's parser lives with the INJONGO loader (training reads the map too).
export { parseInjongoLabelMap } from "../train/injongo.js";

function parseJsonLinesEval(path: string, text: string): EvalExample[] {
  const fromName = basename(path, ".jsonl");
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line, index) => {
      let row: { id?: unknown; text?: unknown; intent?: unknown; gold?: unknown; lang?: unknown };
      try {
        row = JSON.parse(line) as typeof row;
      } catch {
        throw new CorpusError(`${path}:${index + 1}: not valid JSON`);
      }
      if (typeof row.text !== "string") throw new CorpusError(`${path}:${index + 1}: "text" is missing`);
      const gold = Array.isArray(row.gold)
        ? row.gold.filter((name): name is string => typeof name === "string")
        : typeof row.intent === "string"
          ? [row.intent]
          : isRouterIntent(fromName) || fromName === NEEDS_AGENT
            ? [fromName]
            : [];
      if (gold.length === 0)
        throw new CorpusError(
          `${path}:${index + 1}: no gold label ("intent", "gold", or an <intent>.jsonl file name)`,
        );
      return {
        id: typeof row.id === "string" ? row.id : `${fromName}-${index}`,
        text: row.text,
        gold,
        lang: typeof row.lang === "string" ? row.lang : "unknown",
      };
    });
}

/**
 * Reads an evaluation file: our JSON lines (`{"text", "intent" | "gold", "lang"}`),
 * an INJONGO TSV (`lang, domain, intent, text`, with label_map.tsv beside it),
 * or an AfriSenti TSV (`tweet, label`: every tweet is out_of_scope chatter).
 */
export function loadEvalFile(path: string): EvalExample[] {
  const text = readFileSync(path, "utf8");
  if (path.endsWith(".jsonl")) return parseJsonLinesEval(path, text);
  const [header = "", ...lines] = text.split("\n");
  const columns = header.trim().split("\t");
  const name = basename(path, ".tsv");
  if (columns[0] === "tweet")
    return lines
      .map((line) => line.split("\t")[0]?.trim() ?? "")
      .filter((tweet) => tweet !== "")
      .map((tweet, index) => ({ id: `${name}-${index}`, text: tweet, gold: ["out_of_scope"], lang: "pcm" }));
  if (columns.join(",") === "lang,domain,intent,text") {
    const mapPath = join(dirname(path), "label_map.tsv");
    if (!existsSync(mapPath)) throw new CorpusError(`${path}: INJONGO needs label_map.tsv beside it`);
    const labelMap = parseInjongoLabelMap(readFileSync(mapPath, "utf8"));
    return lines
      .filter((line) => line.trim() !== "")
      .map((line, index) => {
        const [lang = "", , intent = "", utterance = ""] = line.split("\t");
        const gold = labelMap.get(intent);
        if (gold === undefined)
          throw new CorpusError(`${path}:${index + 2}: intent ${intent} is not in label_map.tsv`);
        return { id: `${name}-${index}`, text: utterance, gold, lang };
      });
  }
  throw new CorpusError(`${path}: unknown format (expected .jsonl, an INJONGO .tsv or an AfriSenti .tsv)`);
}

/** A deterministic sample of `count` items (seeded by each item's id). */
function sample<T extends { id: string }>(items: readonly T[], count: number, seed: string): T[] {
  return [...items].sort((a, b) => fnv1a(seed + a.id) - fnv1a(seed + b.id)).slice(0, count);
}

/** How the realistic mixed-traffic sample is composed (shares of its messages). */
export const MIXED_TRAFFIC_SHARES = { routine: 0.6, needsAgent: 0.25, chatter: 0.15 } as const;

/**
 * The "realistic mixed traffic" sample: routine requests from our test
 * split (every intent but out_of_scope), messages that need the agent (the
 * test split's hard negatives), and unrelated chatter (real Pidgin tweets
 * the router never trained on), in MIXED_TRAFFIC_SHARES proportions, as
 * large as the scarcest part allows.
 */
export function mixedTrafficSample(
  testSplit: readonly EvalExample[],
  chatter: readonly EvalExample[],
  shares: { routine: number; needsAgent: number; chatter: number } = MIXED_TRAFFIC_SHARES,
): EvalExample[] {
  const routine = testSplit.filter(
    (example) => example.gold[0] !== NEEDS_AGENT && example.gold[0] !== "out_of_scope",
  );
  const needsAgent = testSplit.filter((example) => example.gold[0] === NEEDS_AGENT);
  const total = Math.floor(
    Math.min(
      routine.length / shares.routine,
      needsAgent.length / shares.needsAgent,
      chatter.length / shares.chatter,
    ),
  );
  return [
    ...sample(routine, Math.round(total * shares.routine), "routine"),
    ...sample(needsAgent, Math.round(total * shares.needsAgent), "agent"),
    ...sample(chatter, Math.round(total * shares.chatter), "chatter"),
  ];
}
