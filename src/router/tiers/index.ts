export { type ClassifierTierResult, classifierTier, MAX_CLASSIFIED_CHARS } from "./classifier-tier.js";
export { replyIdTier } from "./reply-id-tier.js";
export type { KnowledgeHint, RouteResult, RouteTier } from "./route-result.js";
export { normalizeForRules, ruleTier } from "./rule-tier.js";
