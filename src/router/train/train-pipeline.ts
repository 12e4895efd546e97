import type { Lexicon } from "../lexicon.js";
import { classScores, type RouterModel } from "../model.js";
import { multiRequestExamples } from "./augment.js";
import { calibrateFromScores } from "./calibrate.js";
import type { Corpus, LabelledExample } from "./corpus.js";
import { fnv1a, mergedGroups, splitCorpus } from "./split.js";
import { DEFAULT_TRAIN_OPTIONS, featurize, type TrainOptions, trainModel } from "./train.js";

/** How many synthetic several-requests-in-one messages join each training set. */
export const SYNTHETIC_MULTI_REQUESTS = 400;
/** Folds for the out-of-fold scores the calibration is fitted on. */
export const CALIBRATION_FOLDS = 5;

export interface TrainedRouter {
  readonly model: RouterModel;
  /** Messages the final model trained on (train + validation splits), before synthetic ones. */
  readonly trainedOn: number;
  readonly heldOutTest: number;
}

function withSynthetic(examples: readonly LabelledExample[], seed: number): LabelledExample[] {
  return [...examples, ...multiRequestExamples(examples, SYNTHETIC_MULTI_REQUESTS, seed)];
}

/**
 * The whole training recipe. The test split is held out. On the rest (train
 * + validation), 5-fold cross-validation by merged group gives every message
 * a score from a model that never saw it; the temperature and thresholds are
 * fitted on those out-of-fold scores (five times the hard negatives a single
 * validation split holds), and the final model trains on all of it.
 * Deterministic: same corpus, same bytes.
 */
export function trainRouter(
  corpus: Corpus,
  lexicon: Lexicon,
  options: TrainOptions = DEFAULT_TRAIN_OPTIONS,
  progress: (line: string) => void = () => {},
): TrainedRouter {
  const splits = splitCorpus(corpus.examples);
  const pool = [...splits.train, ...splits.validation];
  const groups = mergedGroups(pool);
  const folds = groups.map((group) => fnv1a(`fold:${group}`) % CALIBRATION_FOLDS);
  const logits = new Array<Float64Array>(pool.length);
  for (let fold = 0; fold < CALIBRATION_FOLDS; fold += 1) {
    const training = pool.filter((_, index) => folds[index] !== fold);
    const model = trainModel(withSynthetic(training, options.seed + fold), lexicon, options);
    pool.forEach((example, index) => {
      if (folds[index] === fold) logits[index] = classScores(model, featurize(example.text, lexicon));
    });
    progress(`fold ${fold + 1}/${CALIBRATION_FOLDS}: trained on ${training.length} messages`);
  }
  const final = trainModel(withSynthetic(pool, options.seed), lexicon, options);
  progress(`final model: trained on ${pool.length} messages`);
  const calibrated = calibrateFromScores(final, pool, logits);
  return {
    model: { ...calibrated, provenance: { ...calibrated.provenance, corpusSha256: corpus.sha256 } },
    trainedOn: pool.length,
    heldOutTest: splits.test.length,
  };
}
