export { argmax, calibrateModel, chooseThreshold } from "./calibrate.js";
export { type Corpus, CorpusError, type LabelledExample, loadCorpus } from "./corpus.js";
export { type DetectedLanguage, detectLanguage } from "./detect-language.js";
export { asEvalExamples, loadEvalFile, MIXED_TRAFFIC_SHARES, mixedTrafficSample } from "./eval-sets.js";
export { type EvalExample, type EvalReport, evaluateRouter } from "./evaluate.js";
export { extractFeatures } from "./features.js";
export { formatReport } from "./format-report.js";
export {
  createIntentRouter,
  DEFAULT_MODEL_PATH,
  type IntentRouter,
  loadIntentRouter,
  type RouterDecision,
} from "./intent-router.js";
export { isRouterIntent, NEEDS_AGENT, ROUTER_INTENTS, type RouterIntent } from "./intents.js";
export { keywordIntent } from "./keyword-router.js";
export { type Lexicon, LexiconError, loadLexicon, parseLexicon } from "./lexicon.js";
export {
  deserializeModel,
  loadModelFile,
  ModelFileError,
  type RouterModel,
  serializeModel,
} from "./model.js";
export { normalizeMessage } from "./normalize.js";
export { dataPath } from "./package-files.js";
export { ROUTER_USAGE, runRouterCommand, type TenantIntentsLookup } from "./router-cli.js";
export { createRouterMetrics, type RouterMetrics } from "./router-metrics.js";
export { extractSlots, type RouterSlots } from "./slots.js";
export { splitCorpus } from "./split.js";
export { DEFAULT_TRAIN_OPTIONS, featurize, trainModel } from "./train.js";
