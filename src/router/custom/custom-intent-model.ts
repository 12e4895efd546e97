import { createHash } from "node:crypto";
import { forEachFeature } from "../features.js";
import type { NormalizedText } from "../normalize.js";
import type { CustomIntentDefinition } from "./custom-intent-definitions.js";

/** Bumped whenever training or features change, so older files are retrained. */
export const CUSTOM_TRAINER_VERSION = 1;
export const NOT_CUSTOM = "_none";

/**
 * A tenant's custom-intent classifier: multinomial logistic regression over
 * the router's features, restricted to the features its examples use, with
 * one extra class (NOT_CUSTOM) trained on the router's corpus. What it knows
 * nothing about scores near the bias, i.e. NOT_CUSTOM.
 */
export interface CustomIntentModel {
  readonly tenant: string;
  /** customIntentsHash of what it was trained on. */
  readonly hash: string;
  /** NOT_CUSTOM first, then the tenant's intents in their order. */
  readonly classes: readonly string[];
  readonly features: readonly string[];
  /** Row-major: weights[feature * classes.length + class]. */
  readonly weights: readonly number[];
  readonly bias: readonly number[];
  /** Per custom intent: the probability at or above which it answers (> 1: never), from cross-validation. */
  readonly thresholds: Readonly<Record<string, number>>;
  /**
   * Router intents most of a custom intent's examples look like (a menu looks
   * like product_inquiry): their corpus examples were not used as negatives,
   * and a confident custom intent wins over them. Other resolved router intents win over it.
   */
  readonly overlaps: Readonly<Record<string, readonly string[]>>;
  /** Cross-validated recall at the thresholds, and how many corpus negatives stayed under them (for logs). */
  readonly calibration: Readonly<Record<string, { readonly recall: number; readonly negatives: number }>>;
}

export interface CustomIntentScore {
  /** The best custom intent, or NOT_CUSTOM. */
  readonly intent: string;
  readonly confidence: number;
  /** A custom intent, at or above its threshold. */
  readonly confident: boolean;
}

/** What the hash of a tenant's definitions covers: its examples, the lexicon, the negatives and the trainer. */
export function customIntentsHash(
  definitions: readonly CustomIntentDefinition[],
  context: { readonly lexiconSha256: string; readonly negativesSha256: string },
): string {
  return createHash("sha256")
    .update(
      JSON.stringify({
        trainer: CUSTOM_TRAINER_VERSION,
        intents: definitions.map(({ intent, examples }) => ({ intent, examples })),
        ...context,
      }),
    )
    .digest("hex");
}

/**
 * A message's distinct features and their count. Every feature weighs
 * 1/sqrt(count), so a message with few features the examples know (a long
 * complaint that mentions the menu once) stays near the bias.
 */
export function messageFeatures(text: NormalizedText): {
  readonly features: Set<string>;
  readonly scale: number;
} {
  const features = new Set<string>();
  forEachFeature(text, (feature) => features.add(feature));
  return { features, scale: 1 / Math.sqrt(Math.max(1, features.size)) };
}

/** Softmax over the classes for a message's features. */
export function customProbabilities(
  model: Pick<CustomIntentModel, "classes" | "weights" | "bias">,
  featureIndex: ReadonlyMap<string, number>,
  message: { readonly features: Iterable<string>; readonly scale: number },
): number[] {
  const classes = model.classes.length;
  const scores = [...model.bias];
  for (const feature of message.features) {
    const index = featureIndex.get(feature);
    if (index === undefined) continue;
    for (let c = 0; c < classes; c += 1)
      scores[c] = (scores[c] as number) + (model.weights[index * classes + c] as number) * message.scale;
  }
  const top = Math.max(...scores);
  const exps = scores.map((score) => Math.exp(score - top));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((value) => value / sum);
}

/** A loaded model, ready to score normalised messages. */
export interface CustomIntentClassifier {
  readonly model: CustomIntentModel;
  score(text: NormalizedText): CustomIntentScore;
}

export function createCustomIntentClassifier(model: CustomIntentModel): CustomIntentClassifier {
  const featureIndex = new Map(model.features.map((feature, index) => [feature, index]));
  return {
    model,
    score(text) {
      const probabilities = customProbabilities(model, featureIndex, messageFeatures(text));
      let best = 0;
      probabilities.forEach((p, index) => {
        if (p > (probabilities[best] as number)) best = index;
      });
      const intent = model.classes[best] as string;
      const confidence = probabilities[best] as number;
      const threshold = model.thresholds[intent] ?? Number.POSITIVE_INFINITY;
      return { intent, confidence, confident: intent !== NOT_CUSTOM && confidence >= threshold };
    },
  };
}
