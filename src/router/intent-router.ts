import { type AbstainReason, abstainReason } from "./abstain.js";
import type { DetectedLanguage } from "./detect-language.js";
import { forEachMessageFeature } from "./features.js";
import { isRouterIntent, NEEDS_AGENT, type RouterIntent } from "./intents.js";
import {
  defaultLanguageIdentifier,
  type LanguageGuess,
  type LanguageIdentifier,
} from "./language/identify-language.js";
import { type Lexicon, loadLexicon } from "./lexicon.js";
import { argmax, featureRows, loadModelFile, type RouterModel, scoreRows, softmax } from "./model.js";
import { normalizeMessage } from "./normalize.js";
import { dataPath } from "./package-files.js";
import type { RouterSlots } from "./slots.js";
import { tokenRows } from "./token-rows.js";

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
  /** True when the message was too short or unsure to tell its language (`language` is then a default): replies follow the tenant's order. */
  readonly languageUncertain?: boolean;
  /** The next most likely intents, best first (at most 2). */
  readonly alternatives: readonly { readonly intent: RouterIntent; readonly confidence: number }[];
  /** Set when the abstain layer (abstain.ts) held back an answer the scores would have given. */
  readonly abstained?: AbstainReason;
  /** The needs_agent class came first: no tier may answer this text locally (custom intents, FAQ). */
  readonly needsAgentFirst?: boolean;
}

export interface IntentRouter {
  readonly model: RouterModel;
  /**
   * Classifies one message. `resolved` holds only when the best class of all
   * is a routine intent (not needs_agent), its confidence reaches that
   * intent's calibrated threshold, and (when `enabledIntents` is given) the
   * intent is enabled, and the abstain layer does not flag the message
   * (`abstained` says why). A message whose best intent is not enabled is
   * never forced into an enabled one: it goes to the agent.
   */
  classify(text: string, enabledIntents?: ReadonlySet<string>): RouterDecision;
  /**
   * The language of a text, without classifying it: what the rule and
   * reply-id tiers pick a reply's language by. Hook for the language
   * identifier (it should give the same answer as `classify(...).language`);
   * optional so that test doubles need not implement it.
   */
  identifyLanguage?(text: string): DetectedLanguage | undefined;
}

/** "hi", "ok": too short to tell, so the identifier gave its default; a reply should follow the tenant's order instead. */
function isUncertain(guess: LanguageGuess): boolean {
  return guess.basis === "short" || guess.basis === "uncertain";
}

export const DEFAULT_MODEL_PATH = (): string => dataPath("router", "model.bin");

/** `language` names the message's language (default: the package's language model, see language/identify-language.ts). */
export function createIntentRouter(
  model: RouterModel,
  lexicon: Lexicon,
  language: LanguageIdentifier = defaultLanguageIdentifier(),
): IntentRouter {
  const needsAgentIndex = model.classes.indexOf(NEEDS_AGENT);
  const intentIndexes = model.classes.flatMap((name, index) => (isRouterIntent(name) ? [index] : []));
  return {
    model,
    classify(text, enabledIntents) {
      const normalized = normalizeMessage(text, lexicon);
      const rows = featureRows(model, (visit, visitRow) => {
        for (const token of normalized.tokens) for (const row of tokenRows(model, token)) visitRow(row);
        forEachMessageFeature(normalized, visit);
      });
      const probabilities = softmax(scoreRows(model, rows), model.temperature);
      // The three best intents in one pass (no sort on the hot path).
      let best = -1;
      let second = -1;
      let third = -1;
      for (const index of intentIndexes) {
        const p = probabilities[index] as number;
        if (best < 0 || p > (probabilities[best] as number)) {
          third = second;
          second = best;
          best = index;
        } else if (second < 0 || p > (probabilities[second] as number)) {
          third = second;
          second = index;
        } else if (third < 0 || p > (probabilities[third] as number)) third = index;
      }
      const intent = model.classes[best] as RouterIntent;
      const confidence = probabilities[best] as number;
      const guess = language.identify(text);
      const detected = guess.language;
      const native = detected === "yo" || detected === "ha" || detected === "ig";
      const threshold =
        (native ? model.nativeThresholds?.[intent] : undefined) ??
        model.thresholds[intent] ??
        Number.POSITIVE_INFINITY;
      const first = argmax(probabilities);
      const answerable =
        first === best &&
        confidence >= threshold &&
        (enabledIntents === undefined || enabledIntents.has(intent));
      // The abstain layer only matters where the router would answer (and costs ~10 µs).
      const abstained = answerable ? abstainReason(text, intent) : undefined;
      const resolved = answerable && abstained === undefined;
      return {
        intent,
        confidence,
        resolved,
        slots: normalized.slots,
        language: detected,
        ...(isUncertain(guess) ? { languageUncertain: true } : {}),
        alternatives: [second, third].map((index) => ({
          intent: model.classes[index] as RouterIntent,
          confidence: probabilities[index] as number,
        })),
        ...(abstained === undefined ? {} : { abstained }),
        ...(first === needsAgentIndex ? { needsAgentFirst: true } : {}),
      };
    },
    identifyLanguage(text) {
      const guess = language.identify(text);
      return isUncertain(guess) ? undefined : guess.language;
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
