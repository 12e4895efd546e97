import type { InboundMessage } from "../../whatsapp/index.js";
import { foldDiacritics } from "../normalize.js";
import type { ResponderSettings } from "../responder-settings.js";
import type { RouteResult } from "./route-result.js";

/** Lower case, single spaces, no edge punctuation or emoji: what rules are matched against. */
export function normalizeForRules(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\s\u00a0]+/gu, " ")
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "")
    .trim();
}

/**
 * Tier 1b, the tenant's rules: the first whose pattern matches the message's
 * text, as written or with tone marks and hooked letters folded ("ẹ káàárọ̀"
 * and "e kaaro" both match a rule written "e kaaro"), if its intent has a reply.
 */
export function ruleTier(settings: ResponderSettings, message: InboundMessage): RouteResult | undefined {
  if (message.text === undefined) return undefined;
  const text = normalizeForRules(message.text);
  const folded = foldDiacritics(text);
  const rule = settings.rules.find(
    (candidate) => candidate.pattern.test(text) || (folded !== text && candidate.pattern.test(folded)),
  );
  const reply = rule === undefined ? undefined : settings.replies[rule.intent];
  return rule === undefined || reply === undefined ? undefined : { intent: rule.intent, reply, tier: "rule" };
}
