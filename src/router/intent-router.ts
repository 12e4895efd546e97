import { argmax } from "./calibrate.js";
import { type DetectedLanguage, detectLanguage } from "./detect-language.js";
import { extractFeatures } from "./features.js";
import { isRouterIntent, type RouterIntent } from "./intents.js";
import { type Lexicon, loadLexicon } from "./lexicon.js";
import { classProbabilities, loadModelFile, type RouterModel } from "./model.js";
import { normalizeMessage } from "./normalize.js";
import { dataPath } from "./package-files.js";
import type { RouterSlots } from "./slots.js";

/** What the router makes of one message. */
export interface RouterDecision {
  /** The most likely routine intent (a hint for the agent even when not resolved). */
  readonly intent: RouterIntent;
  /** Its calibrated probability. */
  readonly confidence: number;
  /** True when the router would answer locally: see `classify`. */
  readonly resolved: boolean;
  readonly slots: RouterSlots;
  readonly language: DetectedLanguage;
  /** The next most likely intents, best first (at most 2). */
  readonly alternatives: readonly { readonly intent: RouterIntent; readonly confidence: number }[];
}

export interface IntentRouter {
  readonly model: RouterModel;
  /**
   * Classifies one message. `resolved` holds only when the best class of all
   * is a routine intent (not needs_agent), its confidence reaches that
   * intent's calibrated threshold, and (when `enabledIntents` is given) the
   * intent is enabled. A message whose best intent is not enabled is never
   * forced into an enabled one: it goes to the agent.
   */
  classify(text: string, enabledIntents?: ReadonlySet<string>): RouterDecision;
}

export const DEFAULT_MODEL_PATH = (): string => dataPath("router", "model.bin");

export function createIntentRouter(model: RouterModel, lexicon: Lexicon): IntentRouter {
  const intentIndexes = model.classes.flatMap((name, index) => (isRouterIntent(name) ? [index] : []));
  return {
    model,
    classify(text, enabledIntents) {
      const normalized = normalizeMessage(text, lexicon);
      const probabilities = classProbabilities(model, extractFeatures(normalized));
      const ranked = [...intentIndexes].sort(
        (a, b) => (probabilities[b] as number) - (probabilities[a] as number),
      );
      const best = ranked[0] as number;
      const intent = model.classes[best] as RouterIntent;
      const confidence = probabilities[best] as number;
      const threshold = model.thresholds[intent] ?? Number.POSITIVE_INFINITY;
      const resolved =
        argmax(probabilities) === best &&
        confidence >= threshold &&
        (enabledIntents === undefined || enabledIntents.has(intent));
      return {
        intent,
        confidence,
        resolved,
        slots: normalized.slots,
        language: detectLanguage(normalized),
        alternatives: ranked.slice(1, 3).map((index) => ({
          intent: model.classes[index] as RouterIntent,
          confidence: probabilities[index] as number,
        })),
      };
    },
  };
}

/** The router from the package's model file and lexicon (or the given paths). */
export function loadIntentRouter(paths: { model?: string; lexiconDir?: string } = {}): IntentRouter {
  return createIntentRouter(
    loadModelFile(paths.model ?? DEFAULT_MODEL_PATH()),
    loadLexicon(paths.lexiconDir),
  );
}
