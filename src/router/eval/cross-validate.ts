import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createIntentRouter } from "../intent-router.js";
import type { Lexicon } from "../lexicon.js";
import type { Corpus } from "../train/corpus.js";
import { INJONGO_DIR, type InjongoRow, parseInjongoLabelMap } from "../train/injongo.js";
import { fnv1a } from "../train/split.js";
import { DEFAULT_TRAIN_OPTIONS, type TrainOptions } from "../train/train.js";
import { trainRouter } from "../train/train-pipeline.js";
import { type EvalExample, type EvalOutcome, type EvalReport, evaluateRouter } from "./evaluate.js";

/** Folds of the INJONGO grouped cross-validation. */
export const INJONGO_CV_FOLDS = 5;

export interface CrossValidation {
  /** All held-out rows together, with their INJONGO language (hau, ibo, yor) as `lang`. */
  readonly report: EvalReport;
  readonly perFold: readonly EvalReport[];
}

/** The fold of each INJONGO row: a hash of its near-duplicate group, so template variants stay together. */
export function injongoFolds(rows: readonly InjongoRow[], folds: number = INJONGO_CV_FOLDS): number[] {
  return rows.map((row) => fnv1a(`cv:${row.example.group}`) % folds);
}

/**
 * Grouped cross-validation of the whole training recipe on the INJONGO rows:
 * for each fold, trainRouter (with its own calibration) runs on the corpus
 * without that fold's rows, and the fold is scored against the label map's
 * gold (every router intent the map names for the row's INJONGO intent is
 * right, whatever label the row trained as). The report's latency is that
 * of replaying stored outcomes, not of classification.
 */
export function crossValidateInjongo(
  corpus: Corpus,
  rows: readonly InjongoRow[],
  labelMap: ReadonlyMap<string, readonly string[]>,
  lexicon: Lexicon,
  options: { folds?: number; train?: TrainOptions; progress?: (line: string) => void } = {},
): CrossValidation {
  const folds = options.folds ?? INJONGO_CV_FOLDS;
  const progress = options.progress ?? (() => {});
  const foldOf = injongoFolds(rows, folds);
  const sourceFold = new Map(rows.map((row, index) => [row.example.source, foldOf[index] as number]));
  const examples: EvalExample[] = rows.map((row) => {
    const gold = labelMap.get(row.injongoIntent);
    if (gold === undefined) throw new Error(`INJONGO intent ${row.injongoIntent} is not in the label map`);
    return { id: row.example.source, text: row.example.text, gold, lang: row.injongoLang };
  });
  const outcomes: EvalOutcome[] = new Array(rows.length);
  const perFold: EvalReport[] = [];
  for (let fold = 0; fold < folds; fold += 1) {
    const started = performance.now();
    const training: Corpus = {
      examples: corpus.examples.filter((example) => sourceFold.get(example.source) !== fold),
      sha256: corpus.sha256,
    };
    const { model } = trainRouter(training, lexicon, options.train ?? DEFAULT_TRAIN_OPTIONS);
    const router = createIntentRouter(model, lexicon);
    const heldOut = examples.filter((_, index) => foldOf[index] === fold);
    for (const [index, example] of examples.entries())
      if (foldOf[index] === fold) {
        const decision = router.classify(example.text);
        outcomes[index] = { intent: decision.intent, resolved: decision.resolved };
      }
    const report = evaluateRouter(heldOut, (text) => {
      const decision = router.classify(text);
      return { intent: decision.intent, resolved: decision.resolved };
    });
    perFold.push(report);
    progress(
      `fold ${fold + 1}/${folds}: ${heldOut.length} held out, coverage ${(report.coverage * 100).toFixed(1)}%, ` +
        `precision ${(report.resolvedPrecision * 100).toFixed(1)}% (${((performance.now() - started) / 1000).toFixed(0)} s)`,
    );
  }
  let next = 0;
  const report = evaluateRouter(examples, () => outcomes[next++] as EvalOutcome);
  return { report, perFold };
}

/** The label map shipped beside the INJONGO rows (data/router/injongo/label_map.tsv). */
export function loadInjongoLabelMap(dataDir: string): Map<string, string[]> {
  return parseInjongoLabelMap(readFileSync(join(dataDir, INJONGO_DIR, "label_map.tsv"), "utf8"));
}
