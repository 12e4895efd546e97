import type { IntentRouter } from "../intent-router.js";
import { NEEDS_AGENT } from "../intents.js";
import type { Lexicon } from "../lexicon.js";
import { normalizeMessage } from "../normalize.js";
import { fnv1a } from "../train/split.js";
import type { CustomIntentDefinition } from "./custom-intent-definitions.js";
import { type CustomIntentModel, messageFeatures, NOT_CUSTOM } from "./custom-intent-model.js";
import type { CustomNegative } from "./custom-negatives.js";

/** Hyperparameters, fixed: a tenant cannot tune them (chosen once, see docs/router.md "Custom intents"). */
const EPOCHS = 8;
const LEARNING_RATE = 0.5;
const L2 = 1e-4;
/** Each custom intent's examples together weigh this share of the negatives' weight. */
const POSITIVE_SHARE = 0.03;
const FOLDS = 5;
/** A router intent that this share of a custom intent's examples look like is overlapped (see CustomIntentModel.overlaps). */
const OVERLAP_SHARE = 0.25;
/** Thresholds never go below this, whatever cross-validation says. */
const MIN_THRESHOLD = 0.5;
/** Weights smaller than this are not kept in the file. */
const PRUNE = 1e-3;

/** A message as training sees it: indexes into the vocabulary of every positive's features. */
interface Row {
  readonly label: number;
  readonly indexes: Int32Array;
  readonly scale: number;
  readonly fold: number;
  /** For reports: the message. */
  readonly text: string;
}

interface Weights {
  readonly weights: Float64Array;
  readonly bias: Float64Array;
}

function probabilities(
  model: Weights,
  classes: number,
  row: Row,
  active: Uint8Array | undefined,
  out: Float64Array,
): void {
  for (let c = 0; c < classes; c += 1) out[c] = model.bias[c] as number;
  for (const index of row.indexes) {
    if (active !== undefined && active[index] === 0) continue;
    for (let c = 0; c < classes; c += 1)
      out[c] = (out[c] as number) + (model.weights[index * classes + c] as number) * row.scale;
  }
  let top = Number.NEGATIVE_INFINITY;
  for (let c = 0; c < classes; c += 1) top = Math.max(top, out[c] as number);
  let sum = 0;
  for (let c = 0; c < classes; c += 1) {
    out[c] = Math.exp((out[c] as number) - top);
    sum += out[c] as number;
  }
  for (let c = 0; c < classes; c += 1) out[c] = (out[c] as number) / sum;
}

/**
 * Logistic regression by AdaGrad SGD over `rows` in their fixed order (same
 * rows, same weights). Only `active` features (those the training positives
 * use) get a weight: a negative teaches which of them to distrust and lowers
 * the bias; a word no example used means nothing either way.
 */
function fitWeights(
  rows: readonly Row[],
  weightOf: (row: Row) => number,
  classes: number,
  size: number,
  active: Uint8Array | undefined,
): Weights {
  const weights = new Float64Array(size * classes);
  const squares = new Float64Array(size * classes).fill(1e-8);
  const bias = new Float64Array(classes);
  const biasSquares = new Float64Array(classes).fill(1e-8);
  const model = { weights, bias };
  const p = new Float64Array(classes);
  // A row none of whose features has a weight only moves the bias: those move it once per epoch, together.
  const hasWeight = (row: Row) => row.indexes.some((index) => active === undefined || active[index] === 1);
  const featureless = rows.filter((row) => !hasWeight(row));
  const featurelessWeight = new Float64Array(classes);
  for (const row of featureless)
    featurelessWeight[row.label] = (featurelessWeight[row.label] as number) + weightOf(row);
  const withFeatures = rows.filter(hasWeight);
  for (let epoch = 0; epoch < EPOCHS; epoch += 1) {
    if (featureless.length > 0) {
      const total = featurelessWeight.reduce((a, b) => a + b, 0);
      probabilities(model, classes, { indexes: new Int32Array(0) } as unknown as Row, undefined, p);
      for (let c = 1; c < classes; c += 1) {
        const gradient =
          ((p[c] as number) * total - (featurelessWeight[c] as number)) / Math.sqrt(featureless.length);
        biasSquares[c] = (biasSquares[c] as number) + gradient * gradient;
        bias[c] = (bias[c] as number) - (LEARNING_RATE * gradient) / Math.sqrt(biasSquares[c] as number);
      }
    }
    for (const row of withFeatures) {
      probabilities(model, classes, row, active, p);
      const weight = weightOf(row);
      // NOT_CUSTOM (class 0) is the reference class: its weights and bias stay 0, which halves the work.
      for (let c = 1; c < classes; c += 1) {
        const gradient = weight * ((p[c] as number) - (c === row.label ? 1 : 0));
        biasSquares[c] = (biasSquares[c] as number) + gradient * gradient;
        bias[c] = (bias[c] as number) - (LEARNING_RATE * gradient) / Math.sqrt(biasSquares[c] as number);
        for (const index of row.indexes) {
          if (active !== undefined && active[index] === 0) continue;
          const at = index * classes + c;
          const g = gradient * row.scale + L2 * (weights[at] as number);
          squares[at] = (squares[at] as number) + g * g;
          weights[at] = (weights[at] as number) - (LEARNING_RATE * g) / Math.sqrt(squares[at] as number);
        }
      }
    }
  }
  return model;
}

/** Positives spread evenly through the negatives, so every stretch of an epoch sees both. */
function interleave(positives: readonly Row[], negatives: readonly Row[]): Row[] {
  const rows: Row[] = [];
  const every = Math.max(1, Math.floor(negatives.length / Math.max(1, positives.length)));
  let next = 0;
  negatives.forEach((row, index) => {
    if (index % every === 0 && next < positives.length) rows.push(positives[next++] as Row);
    rows.push(row);
  });
  while (next < positives.length) rows.push(positives[next++] as Row);
  return rows;
}

/** What a held-out message scored: its true class and the best class with its probability. */
export interface HeldOut {
  readonly truth: number;
  readonly best: number;
  readonly probability: number;
  readonly text: string;
  /** A negative the base classifier's gate would keep from the custom tier (see customIntentTier). */
  readonly gatedOut?: boolean;
}

/**
 * The lowest threshold (never under MIN_THRESHOLD) above which no held-out
 * message of another class, negatives included, was taken for `intent`:
 * precision first. Above 1 when no held-out example could be told apart.
 */
function chooseThreshold(heldOut: readonly HeldOut[], intent: number): number {
  const worst = heldOut
    .filter((item) => item.best === intent && item.truth !== intent && item.gatedOut !== true)
    .reduce((max, item) => Math.max(max, item.probability), 0);
  return Math.max(MIN_THRESHOLD, worst + 1e-4);
}

export interface CustomTrainingInput {
  readonly tenant: string;
  readonly hash: string;
  readonly definitions: readonly CustomIntentDefinition[];
  readonly negatives: readonly CustomNegative[];
  readonly lexicon: Lexicon;
  /** The base router, to find the intents a custom intent overlaps. */
  readonly router: IntentRouter;
  /** Told every held-out score of the cross-validation (reports, tuning). */
  readonly onHeldOut?: (heldOut: readonly HeldOut[]) => void;
}

/**
 * Trains a tenant's custom-intent classifier: finds the router intents each
 * custom intent overlaps (their corpus examples are left out of the
 * negatives), cross-validates over FOLDS folds of the tenant's examples and
 * of the negatives (by group) to choose each intent's threshold, then trains
 * on everything.
 */
export function trainCustomIntents(input: CustomTrainingInput): CustomIntentModel {
  const { definitions, lexicon, router } = input;
  const classes = [NOT_CUSTOM, ...definitions.map((definition) => definition.intent)];
  const vocabulary = new Map<string, number>();
  const overlaps: Record<string, string[]> = {};
  const positiveFeatures: { label: number; features: string[]; scale: number; text: string }[] = [];
  definitions.forEach((definition, index) => {
    const counts = new Map<string, number>();
    for (const example of definition.examples) {
      const { features, scale } = messageFeatures(normalizeMessage(example, lexicon));
      for (const feature of features) if (!vocabulary.has(feature)) vocabulary.set(feature, vocabulary.size);
      positiveFeatures.push({ label: index + 1, features: [...features], scale, text: example });
      const decision = router.classify(example);
      counts.set(decision.intent, (counts.get(decision.intent) ?? 0) + 1);
    }
    overlaps[definition.intent] = [...counts.entries()]
      .filter(
        ([intent, count]) => intent !== NEEDS_AGENT && count >= OVERLAP_SHARE * definition.examples.length,
      )
      .map(([intent]) => intent)
      .sort();
  });
  const project = (features: readonly string[]) => {
    const indexes: number[] = [];
    for (const feature of features) {
      const index = vocabulary.get(feature);
      if (index !== undefined) indexes.push(index);
    }
    return Int32Array.from(indexes);
  };
  // Folds: each intent's examples dealt round-robin in a hashed order; negatives by group hash.
  const positives: Row[] = [];
  for (let c = 1; c < classes.length; c += 1)
    positiveFeatures
      .filter((row) => row.label === c)
      .sort((a, b) => fnv1a(a.text) - fnv1a(b.text) || (a.text < b.text ? -1 : 1))
      .forEach((row, index) => {
        positives.push({ ...row, indexes: project(row.features), fold: index % FOLDS });
      });
  const overlapped = new Set(Object.values(overlaps).flat());
  const negatives: Row[] = input.negatives
    .filter((negative) => !overlapped.has(negative.label))
    .map((negative) => ({
      label: 0,
      indexes: project(negative.features),
      scale: negative.scale,
      fold: fnv1a(negative.group) % FOLDS,
      text: negative.text,
    }));
  const positiveWeight = (rows: readonly Row[], negativeCount: number) => {
    const weights = classes.map((_, c) => {
      const count = rows.filter((row) => row.label === c).length;
      return c === 0 || count === 0 ? 1 : Math.max(1, (POSITIVE_SHARE * negativeCount) / count);
    });
    return (row: Row) => weights[row.label] ?? 1;
  };
  const size = vocabulary.size;
  const heldOut: HeldOut[] = [];
  const p = new Float64Array(classes.length);
  for (let fold = 0; fold < FOLDS; fold += 1) {
    const trainPositives = positives.filter((row) => row.fold !== fold);
    const trainNegatives = negatives.filter((row) => row.fold !== fold);
    // Features only the held-out fold's examples use are unknown to this fold's model, as new words are.
    const active = new Uint8Array(size);
    for (const row of trainPositives) for (const index of row.indexes) active[index] = 1;
    const rows = interleave(trainPositives, trainNegatives);
    const model = fitWeights(
      rows,
      positiveWeight(trainPositives, trainNegatives.length),
      classes.length,
      size,
      active,
    );
    for (const row of [...positives, ...negatives]) {
      if (row.fold !== fold) continue;
      probabilities(model, classes.length, row, active, p);
      let best = 0;
      for (let c = 1; c < classes.length; c += 1) if ((p[c] as number) > (p[best] as number)) best = c;
      heldOut.push({ truth: row.label, best, probability: p[best] as number, text: row.text });
    }
  }
  // A negative the base classifier keeps from the custom tier in service (needs_agent first, or a
  // resolved router intent the custom intent does not overlap) cannot be a wrong answer there.
  const gated = heldOut.map((item) => {
    if (item.truth !== 0 || item.best === 0) return item;
    const base = router.classify(item.text);
    const overlap = overlaps[classes[item.best] as string] ?? [];
    const gatedOut = base.needsAgentFirst === true || (base.resolved && !overlap.includes(base.intent));
    return gatedOut ? { ...item, gatedOut } : item;
  });
  input.onHeldOut?.(gated);
  const thresholds: Record<string, number> = {};
  const calibration: Record<string, { recall: number; negatives: number }> = {};
  for (let c = 1; c < classes.length; c += 1) {
    const threshold = chooseThreshold(gated, c);
    const own = gated.filter((item) => item.truth === c);
    const name = classes[c] as string;
    thresholds[name] = Math.round(threshold * 1e4) / 1e4;
    calibration[name] = {
      recall:
        Math.round(
          (own.filter((item) => item.best === c && item.probability >= threshold).length / own.length) * 1e3,
        ) / 1e3,
      negatives: negatives.length,
    };
  }
  const final = fitWeights(
    interleave(positives, negatives),
    positiveWeight(positives, negatives.length),
    classes.length,
    size,
    undefined,
  );
  // Keep only weights that matter; rounded so the file is small and the same on every machine.
  const names = [...vocabulary.keys()];
  const features: string[] = [];
  const weights: number[] = [];
  names.forEach((feature, index) => {
    const row = [...final.weights.subarray(index * classes.length, (index + 1) * classes.length)];
    if (row.every((weight) => Math.abs(weight) < PRUNE)) return;
    features.push(feature);
    weights.push(...row.map((weight) => Math.round(weight * 1e5) / 1e5));
  });
  return {
    tenant: input.tenant,
    hash: input.hash,
    classes,
    features,
    weights,
    bias: [...final.bias].map((weight) => Math.round(weight * 1e5) / 1e5),
    thresholds,
    overlaps,
    calibration,
  };
}
