import { createSeededRandom } from "../../random/index.js";
import { extractFeatures } from "../features.js";
import { NEEDS_AGENT, ROUTER_INTENTS } from "../intents.js";
import type { Lexicon } from "../lexicon.js";
import { createRouterModel, type RouterModel } from "../model.js";
import { normalizeMessage } from "../normalize.js";
import type { LabelledExample } from "./corpus.js";

/** Training settings; the defaults were chosen on the validation split (bench/RESULTS.md). */
export interface TrainOptions {
  readonly epochs: number;
  readonly learningRate: number;
  readonly l2: number;
  /** A feature must occur in at least this many training messages. */
  readonly minFeatureCount: number;
  readonly seed: number;
}

export const DEFAULT_TRAIN_OPTIONS: TrainOptions = {
  epochs: 30,
  learningRate: 0.4,
  l2: 1e-5,
  minFeatureCount: 2,
  seed: 20261130,
};

/** The classes a model predicts, in a fixed order. */
export const MODEL_CLASSES: readonly string[] = [...ROUTER_INTENTS, NEEDS_AGENT];

export function featurize(text: string, lexicon: Lexicon): string[] {
  return extractFeatures(normalizeMessage(text, lexicon));
}

/**
 * Multinomial logistic regression over the message features, trained with
 * AdaGrad and L2, classes weighted to balance (the tweet pool must not drown
 * the intents). Deterministic: a seeded shuffle and a fixed feature order
 * (sorted), so the same corpus and options give the same weights bit for bit.
 * The model comes back uncalibrated (temperature 1, no thresholds).
 */
export function trainModel(
  examples: readonly LabelledExample[],
  lexicon: Lexicon,
  options: TrainOptions = DEFAULT_TRAIN_OPTIONS,
): RouterModel {
  const classIndex = new Map(MODEL_CLASSES.map((name, index) => [name, index]));
  const featureLists = examples.map((example) => featurize(example.text, lexicon));
  const counts = new Map<string, number>();
  for (const list of featureLists)
    for (const feature of list) counts.set(feature, (counts.get(feature) ?? 0) + 1);
  const features = [...counts.entries()]
    .filter(([, count]) => count >= options.minFeatureCount)
    .map(([feature]) => feature)
    .sort();
  const featureIndex = new Map(features.map((feature, index) => [feature, index]));
  const classes = MODEL_CLASSES.length;

  const rows = featureLists.map((list) => {
    const known = list.map((feature) => featureIndex.get(feature)).filter((index) => index !== undefined);
    // Same weighting as inference (scoreRows): 1/√(distinct known features).
    return { indexes: Int32Array.from(known), scale: 1 / Math.sqrt(Math.max(1, known.length)) };
  });
  const labels = examples.map((example) => {
    const index = classIndex.get(example.label);
    if (index === undefined) throw new Error(`unknown label ${example.label}`);
    return index;
  });
  const perClass = new Array<number>(classes).fill(0);
  for (const label of labels) perClass[label] = (perClass[label] ?? 0) + 1;
  const classWeight = perClass.map((count) => (count === 0 ? 0 : examples.length / (classes * count)));

  const weights = new Float32Array(features.length * classes);
  const bias = new Float32Array(classes);
  const squaredWeights = new Float64Array(weights.length);
  const squaredBias = new Float64Array(classes);
  const random = createSeededRandom(options.seed);
  const order = examples.map((_, index) => index);
  const scores = new Float64Array(classes);
  for (let epoch = 0; epoch < options.epochs; epoch += 1) {
    for (let index = order.length - 1; index > 0; index -= 1) {
      const other = Math.floor(random() * (index + 1));
      [order[index], order[other]] = [order[other] as number, order[index] as number];
    }
    for (const exampleIndex of order) {
      const row = rows[exampleIndex] as { indexes: Int32Array; scale: number };
      const label = labels[exampleIndex] as number;
      for (let c = 0; c < classes; c += 1) scores[c] = bias[c] as number;
      for (const feature of row.indexes) {
        const base = feature * classes;
        for (let c = 0; c < classes; c += 1)
          scores[c] = (scores[c] as number) + (weights[base + c] as number) * row.scale;
      }
      let max = Number.NEGATIVE_INFINITY;
      for (const score of scores) max = Math.max(max, score);
      let sum = 0;
      for (let c = 0; c < classes; c += 1) {
        scores[c] = Math.exp((scores[c] as number) - max);
        sum += scores[c] as number;
      }
      const weight = classWeight[label] as number;
      for (let c = 0; c < classes; c += 1) {
        const gradient = ((scores[c] as number) / sum - (c === label ? 1 : 0)) * weight;
        squaredBias[c] = (squaredBias[c] as number) + gradient * gradient;
        bias[c] =
          (bias[c] as number) -
          (options.learningRate * gradient) / (Math.sqrt(squaredBias[c] as number) + 1e-8);
        for (const feature of row.indexes) {
          const at = feature * classes + c;
          const g = gradient * row.scale + options.l2 * (weights[at] as number);
          squaredWeights[at] = (squaredWeights[at] as number) + g * g;
          weights[at] =
            (weights[at] as number) -
            (options.learningRate * g) / (Math.sqrt(squaredWeights[at] as number) + 1e-8);
        }
      }
    }
  }
  return createRouterModel(
    {
      classes: MODEL_CLASSES,
      features,
      temperature: 1,
      thresholds: {},
      provenance: {
        corpusSha256: "",
        lexiconSha256: lexicon.sha256,
        trainExamples: examples.length,
        validationExamples: 0,
        hyperparameters: { ...options },
        targetPrecision: 0,
      },
    },
    weights,
    bias,
  );
}
