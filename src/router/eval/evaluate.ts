import { NEEDS_AGENT, ROUTER_INTENTS } from "../intents.js";

/** One evaluation message: its text, the answers that count as right, and its language label. */
export interface EvalExample {
  readonly id: string;
  readonly text: string;
  /** Intents a local answer may give and be right; [NEEDS_AGENT] = any local answer is wrong. */
  readonly gold: readonly string[];
  readonly lang: string;
}

/** What a router under evaluation says about a message. */
export interface EvalOutcome {
  readonly intent: string;
  readonly resolved: boolean;
}

export interface IntentScores {
  readonly support: number;
  readonly resolved: number;
  readonly precision: number;
  readonly recall: number;
  readonly f1: number;
}

export interface GroupScores {
  readonly messages: number;
  readonly coverage: number;
  readonly resolvedPrecision: number;
  readonly needsAgentMessages: number;
  /** Share of the group's needs-agent messages answered locally (NaN when it has none). */
  readonly falseResolutionRate: number;
}

export interface EvalReport {
  readonly messages: number;
  /** Share of messages answered locally. */
  readonly coverage: number;
  /** Share of local answers that were right. */
  readonly resolvedPrecision: number;
  /** Share of messages that need the agent which were answered locally anyway. */
  readonly falseResolutionRate: number;
  readonly needsAgentMessages: number;
  /** Top-1 intent accuracy on messages with a routine gold intent, resolved or not. */
  readonly top1Accuracy: number;
  readonly perIntent: Readonly<Record<string, IntentScores>>;
  readonly perLanguage: Readonly<Record<string, GroupScores>>;
  /** confusion[gold][outcome]: outcome is the resolved intent or "agent". */
  readonly confusion: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** wrongAnswers[gold][answered]: local answers that were wrong (gold is the first gold intent). */
  readonly wrongAnswers: Readonly<Record<string, Readonly<Record<string, number>>>>;
  readonly latencyMs: { readonly p50: number; readonly p99: number; readonly max: number };
}

function ratio(numerator: number, denominator: number): number {
  return denominator === 0 ? Number.NaN : numerator / denominator;
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

/**
 * Runs `classify` over the examples and scores the local answers: a resolved
 * outcome is right when its intent is among the example's gold intents.
 * Per-intent precision/recall/F1 count resolved answers only (what the
 * customer would actually get); the latency is measured around each call.
 */
export function evaluateRouter(
  examples: readonly EvalExample[],
  classify: (text: string) => EvalOutcome,
): EvalReport {
  const perIntent = new Map<string, { support: number; resolved: number; correct: number }>();
  for (const intent of ROUTER_INTENTS) perIntent.set(intent, { support: 0, resolved: 0, correct: 0 });
  const perLanguage = new Map<
    string,
    { messages: number; resolved: number; correct: number; needsAgent: number; falseResolutions: number }
  >();
  const confusion: Record<string, Record<string, number>> = {};
  const wrongAnswers: Record<string, Record<string, number>> = {};
  const latencies: number[] = [];
  let resolved = 0;
  let correct = 0;
  let needsAgent = 0;
  let falseResolutions = 0;
  let routine = 0;
  let top1 = 0;
  for (const example of examples) {
    const started = process.hrtime.bigint();
    const outcome = classify(example.text);
    latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
    const right = example.gold.includes(outcome.intent);
    const goldName = example.gold[0] ?? NEEDS_AGENT;
    const isNeedsAgent = goldName === NEEDS_AGENT;
    for (const gold of example.gold) {
      const entry = perIntent.get(gold);
      if (entry !== undefined) entry.support += 1;
    }
    if (isNeedsAgent) needsAgent += 1;
    else {
      routine += 1;
      if (right) top1 += 1;
    }
    const language = perLanguage.get(example.lang) ?? {
      messages: 0,
      resolved: 0,
      correct: 0,
      needsAgent: 0,
      falseResolutions: 0,
    };
    language.messages += 1;
    if (isNeedsAgent) language.needsAgent += 1;
    perLanguage.set(example.lang, language);
    const row = confusion[goldName] ?? {};
    const column = outcome.resolved ? outcome.intent : "agent";
    row[column] = (row[column] ?? 0) + 1;
    confusion[goldName] = row;
    if (!outcome.resolved) continue;
    resolved += 1;
    language.resolved += 1;
    const entry = perIntent.get(outcome.intent);
    if (entry !== undefined) entry.resolved += 1;
    if (isNeedsAgent) {
      falseResolutions += 1;
      language.falseResolutions += 1;
    }
    if (!right) {
      const wrongRow = wrongAnswers[goldName] ?? {};
      wrongRow[outcome.intent] = (wrongRow[outcome.intent] ?? 0) + 1;
      wrongAnswers[goldName] = wrongRow;
    }
    if (right) {
      correct += 1;
      language.correct += 1;
      if (entry !== undefined) entry.correct += 1;
    }
  }
  // Recall counts a hit once per example, against the intent it was answered with.
  const intentScores: Record<string, IntentScores> = {};
  for (const [intent, entry] of perIntent) {
    const precision = ratio(entry.correct, entry.resolved);
    const recall = ratio(entry.correct, entry.support);
    intentScores[intent] = {
      support: entry.support,
      resolved: entry.resolved,
      precision,
      recall,
      f1: precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : Number.NaN,
    };
  }
  const languageScores: Record<string, GroupScores> = {};
  for (const [language, entry] of [...perLanguage].sort(([a], [b]) => a.localeCompare(b)))
    languageScores[language] = {
      messages: entry.messages,
      coverage: ratio(entry.resolved, entry.messages),
      resolvedPrecision: ratio(entry.correct, entry.resolved),
      needsAgentMessages: entry.needsAgent,
      falseResolutionRate: ratio(entry.falseResolutions, entry.needsAgent),
    };
  latencies.sort((a, b) => a - b);
  return {
    messages: examples.length,
    coverage: ratio(resolved, examples.length),
    resolvedPrecision: ratio(correct, resolved),
    falseResolutionRate: ratio(falseResolutions, needsAgent),
    needsAgentMessages: needsAgent,
    top1Accuracy: ratio(top1, routine),
    perIntent: intentScores,
    perLanguage: languageScores,
    confusion,
    wrongAnswers,
    latencyMs: {
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: latencies.at(-1) ?? Number.NaN,
    },
  };
}
