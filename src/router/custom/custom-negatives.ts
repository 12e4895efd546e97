import { createHash } from "node:crypto";
import type { Lexicon } from "../lexicon.js";
import { normalizeMessage } from "../normalize.js";
import { dataPath } from "../package-files.js";
import { type LabelledExample, loadCorpus } from "../train/corpus.js";
import { messageFeatures } from "./custom-intent-model.js";

/** A corpus message as a custom-intent negative: its label (to leave out overlapped intents) and features. */
export interface CustomNegative {
  readonly label: string;
  /** For cross-validation folds: near-duplicates share a group. */
  readonly group: string;
  readonly text: string;
  readonly features: readonly string[];
  readonly scale: number;
}

export interface CustomNegatives {
  readonly examples: readonly CustomNegative[];
  readonly sha256: string;
}

/** Featurises corpus examples as negatives (every label: routine intents, needs_agent, chatter). */
export function customNegativesFrom(
  examples: readonly LabelledExample[],
  lexicon: Lexicon,
  sha256: string,
): CustomNegatives {
  return {
    sha256,
    examples: examples.map((example) => {
      const { features, scale } = messageFeatures(normalizeMessage(example.text, lexicon));
      return {
        label: example.label,
        group: example.group,
        text: example.text,
        features: [...features],
        scale,
      };
    }),
  };
}

const cache = new Map<string, CustomNegatives>();

/**
 * The router's whole corpus (data/router: written messages and the tweet
 * pool) as negatives, read and featurised once per process (~0.25 s, shared
 * by every tenant that has to train).
 */
export function loadCustomNegatives(lexicon: Lexicon, dir: string = dataPath("router")): CustomNegatives {
  const key = `${dir}\0${lexicon.sha256}`;
  const known = cache.get(key);
  if (known !== undefined) return known;
  const corpus = loadCorpus(dir);
  const sha256 = createHash("sha256").update(corpus.sha256).update(lexicon.sha256).digest("hex");
  const negatives = customNegativesFrom(corpus.examples, lexicon, sha256);
  cache.set(key, negatives);
  return negatives;
}
