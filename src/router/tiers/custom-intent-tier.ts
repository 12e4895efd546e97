import { abstainReason } from "../abstain.js";
import type { RouterDecision } from "../intent-router.js";
import { normalizeMessage } from "../normalize.js";
import type { ResponderSettings } from "../responder-settings.js";
import type { RouteResult } from "./route-result.js";
import type { CustomIntentTier } from "./tenant-tier-types.js";

/**
 * The tenant's own intents, after reply ids and rules and beside the base
 * classifier (`base`, its decision on the same text). A custom intent answers
 * when its classifier is at or above its cross-validated threshold, and the
 * base classifier does not put needs_agent first, and does not resolve a
 * router intent that the custom intent does not overlap (a menu may take over
 * product_inquiry; "my transfer never enter" stays failed_transaction),
 * and the abstain layer lets it (several requests, a complaint about the
 * last answer… go to the agent whichever tier would answer).
 */
export function customIntentTier(
  settings: ResponderSettings,
  tier: CustomIntentTier,
  turnText: string,
  base: RouterDecision | undefined,
): RouteResult | undefined {
  const score = tier.classifier.score(normalizeMessage(turnText, tier.lexicon));
  if (!score.confident) return undefined;
  if (base !== undefined) {
    if (base.needsAgentFirst === true) return undefined;
    const overlaps = tier.classifier.model.overlaps[score.intent] ?? [];
    if (base.resolved && !overlaps.includes(base.intent)) return undefined;
  }
  const reply = settings.replies[score.intent];
  if (reply === undefined || abstainReason(turnText, score.intent) !== undefined) return undefined;
  return {
    intent: score.intent,
    reply,
    tier: "custom",
    ...(base === undefined ? {} : { decision: base }),
    custom: { intent: score.intent, confidence: score.confidence },
  };
}
