import type { InboundMessage } from "../../whatsapp/index.js";
import type { IntentRouter, RouterDecision } from "../intent-router.js";
import type { ResponderSettings } from "../responder-settings.js";
import type { RouteResult } from "./route-result.js";

/**
 * Longer turns are not classified (they go to the agent): the longest
 * message in the router's corpus has 270 characters, so a longer one is
 * outside what the model knows, and classification time grows with length
 * (0.36 ms at 720 characters against 0.03 ms for a typical message).
 */
export const MAX_CLASSIFIED_CHARS = 500;

/** What the classifier tier found: an answer, or only its decision (a hint for the agent), or nothing. */
export type ClassifierTierResult =
  | { readonly answer: RouteResult }
  | { readonly answer?: undefined; readonly decision?: RouterDecision };

/**
 * Tier 2, the intent classifier: reads the turn's texts together (a burst
 * "hello" / "my money never drop" is one request) and answers when it
 * resolves an enabled intent that has a reply.
 */
export function classifierTier(
  settings: ResponderSettings,
  messages: readonly InboundMessage[],
  router: IntentRouter,
): ClassifierTierResult {
  const turnText = messages
    .flatMap((message) => (message.text === undefined ? [] : [message.text]))
    .join("\n");
  if (turnText.length > MAX_CLASSIFIED_CHARS) return {};
  const decision = router.classify(turnText, settings.enabledIntents);
  const reply = decision.resolved ? settings.replies[decision.intent] : undefined;
  return reply === undefined
    ? { decision }
    : { answer: { intent: decision.intent, reply, tier: "classifier", decision } };
}
