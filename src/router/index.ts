export { type AbstainReason, abstainReason } from "./abstain.js";
export type { CustomIntentDefinition } from "./custom/custom-intent-definitions.js";
export {
  type CustomIntentsContext,
  customIntentsFile,
  loadOrTrainCustomIntents,
} from "./custom/custom-intent-store.js";
export { DEFAULT_RESPONDER_SETTINGS } from "./default-responder-settings.js";
export { type DetectedLanguage, detectLanguage } from "./detect-language.js";
export { asEvalExamples, loadEvalFile, MIXED_TRAFFIC_SHARES, mixedTrafficSample } from "./eval/eval-sets.js";
export { type EvalExample, type EvalReport, evaluateRouter } from "./eval/evaluate.js";
export { formatReport } from "./eval/format-report.js";
export { keywordIntent } from "./eval/keyword-router.js";
export type { FaqSettings } from "./faq-settings.js";
export { extractFeatures } from "./features.js";
export {
  countRouted,
  createFirstResponder,
  customIntentsContext,
  type FirstResponderOptions,
  routeAndCount,
  routeAskOnceAndCount,
  routeTurn,
  staleReply,
  staleTurnDecision,
  turnDecisionOf,
} from "./first-responder.js";
export {
  createIntentRouter,
  DEFAULT_MODEL_PATH,
  type IntentRouter,
  loadIntentRouter,
  type RouterDecision,
} from "./intent-router.js";
export { isRouterIntent, NEEDS_AGENT, ROUTER_INTENTS, type RouterIntent } from "./intents.js";
export {
  corpusTestLanguages,
  evaluateLanguage,
  formatLanguageReport,
  type LanguageEvalExample,
  type LanguageEvalReport,
  loadLanguageEvalFile,
} from "./language/evaluate-language.js";
export {
  createLanguageIdentifier,
  DEFAULT_LANGUAGE_MODEL_PATH,
  defaultLanguageIdentifier,
  type LanguageGuess,
  type LanguageIdentifier,
  loadLanguageIdentifier,
} from "./language/identify-language.js";
export { loadLanguageModelFile } from "./language/language-model.js";
export { type Lexicon, LexiconError, loadLexicon, parseLexicon } from "./lexicon.js";
export {
  argmax,
  deserializeModel,
  loadModelFile,
  ModelFileError,
  type RouterModel,
  serializeModel,
} from "./model.js";
export { normalizeMessage } from "./normalize.js";
export { dataPath, packageRoot } from "./package-files.js";
export {
  ASK_REMEMBERED_MS,
  ASKED_ENTRY,
  type AskMemory,
  askOnce,
  historyAskMemory,
} from "./replies/ask-once.js";
export { localizeRoute, readTurn, type TurnReading } from "./replies/localize-route.js";
export {
  DEFAULT_REPLY_LANGUAGES,
  type LocalizedReply,
  type RenderedReply,
  renderPlain,
  renderReply,
} from "./replies/localized-reply.js";
export { type ResponderSettings, resolveResponderSettings } from "./responder-settings.js";
export {
  ROUTER_USAGE,
  runRouterCommand,
  type TenantCustomIntentsLookup,
  type TenantIntentsLookup,
} from "./router-cli.js";
export { createRouterMetrics, type RouterMetrics } from "./router-metrics.js";
export { extractSlots, type RouterSlots } from "./slots.js";
export {
  type ClassifierTierResult,
  classifierTier,
  type KnowledgeHint,
  MAX_CLASSIFIED_CHARS,
  normalizeForRules,
  type RouteResult,
  type RouteTier,
  replyIdTier,
  ruleTier,
} from "./tiers/index.js";
export { type TenantTiers, withTenantTiers } from "./tiers/tenant-tiers.js";
export { calibrateModel, chooseThreshold } from "./train/calibrate.js";
export { type Corpus, CorpusError, type LabelledExample, loadCorpus } from "./train/corpus.js";
export { splitCorpus } from "./train/split.js";
export { DEFAULT_TRAIN_OPTIONS, featurize, trainModel } from "./train/train.js";
