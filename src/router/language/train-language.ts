import { createSeededRandom } from "../../random/index.js";
import type { RouterLanguage } from "../lexicon.js";
import { createLanguageModel, type LanguageModel } from "./language-model.js";
import { forEachLanguageFeature, languageText } from "./language-text.js";

/** One line of language-identification training text. */
export interface LanguageExample {
  readonly text: string;
  readonly lang: RouterLanguage;
  /** Where it comes from (a file name), for reports. */
  readonly source: string;
}

export interface LanguageTrainOptions {
  /** A feature must occur in at least this many training lines. */
  readonly minCount: number;
  /** The most frequent features kept (by lines they occur in). */
  readonly maxFeatures: number;
  readonly epochs: number;
  readonly learningRate: number;
  readonly l2: number;
  readonly seed: number;
}

export const DEFAULT_LANGUAGE_TRAIN_OPTIONS: LanguageTrainOptions = {
  minCount: 3,
  maxFeatures: 10_000,
  epochs: 12,
  learningRate: 0.5,
  l2: 1e-6,
  seed: 16,
};

/** Languages in the order the model's classes are stored. */
export const LANGUAGE_CLASSES: readonly RouterLanguage[] = ["en", "pcm", "yo", "ha", "ig"];

function distinctHashes(text: string): number[] {
  const seen = new Set<number>();
  forEachLanguageFeature(languageText(text), (hash) => seen.add(hash));
  return [...seen];
}

/**
 * Multinomial logistic regression by SGD over the examples' distinct hashed
 * n-grams (each 1/√k, as at inference), every language weighted equally
 * whatever its number of lines. Deterministic: the features are chosen and
 * ordered by count and hash, the shuffles are seeded, so the same examples in
 * the same order give the same bytes.
 */
export function trainLanguageModel(
  examples: readonly LanguageExample[],
  dataSha256: string,
  options: LanguageTrainOptions = DEFAULT_LANGUAGE_TRAIN_OPTIONS,
): LanguageModel {
  const classes = LANGUAGE_CLASSES;
  const classIndex = new Map(classes.map((name, index) => [name, index]));
  const docs = examples.map((example) => distinctHashes(example.text));
  const counts = new Map<number, number>();
  for (const doc of docs) for (const hash of doc) counts.set(hash, (counts.get(hash) ?? 0) + 1);
  const kept = [...counts.entries()]
    .filter(([, count]) => count >= options.minCount)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, options.maxFeatures)
    .map(([hash]) => hash)
    .sort((a, b) => a - b);
  const rowOf = new Map(kept.map((hash, row) => [hash, row]));
  const rows = docs.map((doc) => Int32Array.from(doc.flatMap((hash) => rowOf.get(hash) ?? [])));

  const perClass = new Array<number>(classes.length).fill(0);
  const labels = examples.map((example) => {
    const label = classIndex.get(example.lang);
    if (label === undefined) throw new Error(`no language class for "${example.lang}"`);
    perClass[label] = (perClass[label] ?? 0) + 1;
    return label;
  });
  const present = perClass.filter((count) => count > 0).length;
  const classWeight = perClass.map((count) => (count === 0 ? 0 : examples.length / (present * count)));

  const C = classes.length;
  const weights = new Float64Array(kept.length * C);
  const bias = new Float64Array(C);
  const scores = new Float64Array(C);
  const random = createSeededRandom(options.seed);
  const order = examples.map((_, index) => index);
  for (let epoch = 0; epoch < options.epochs; epoch += 1) {
    for (let i = order.length - 1; i > 0; i -= 1) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j] as number, order[i] as number];
    }
    const rate = options.learningRate / (1 + epoch * 0.5);
    for (const index of order) {
      const docRows = rows[index] as Int32Array;
      if (docRows.length === 0) continue;
      const value = 1 / Math.sqrt(docRows.length);
      for (let c = 0; c < C; c += 1) scores[c] = bias[c] as number;
      for (const row of docRows)
        for (let c = 0; c < C; c += 1)
          scores[c] = (scores[c] as number) + (weights[row * C + c] as number) * value;
      let max = Number.NEGATIVE_INFINITY;
      for (let c = 0; c < C; c += 1) max = Math.max(max, scores[c] as number);
      let sum = 0;
      for (let c = 0; c < C; c += 1) {
        scores[c] = Math.exp((scores[c] as number) - max);
        sum += scores[c] as number;
      }
      const label = labels[index] as number;
      const step = rate * (classWeight[label] as number);
      for (let c = 0; c < C; c += 1) {
        const gradient = (scores[c] as number) / sum - (c === label ? 1 : 0);
        bias[c] = (bias[c] as number) - step * gradient;
        for (const row of docRows) {
          const at = row * C + c;
          const weight = weights[at] as number;
          weights[at] = weight - step * (gradient * value + options.l2 * weight);
        }
      }
    }
  }
  const examplesPerLanguage: Partial<Record<RouterLanguage, number>> = {};
  classes.forEach((name, index) => {
    examplesPerLanguage[name] = perClass[index] ?? 0;
  });
  return createLanguageModel(
    classes,
    Uint32Array.from(kept),
    Float32Array.from(weights),
    Float32Array.from(bias),
    {
      dataSha256,
      examples: examplesPerLanguage,
      hyperparameters: { ...options },
    },
  );
}
