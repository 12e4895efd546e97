import type { InboundMessage } from "../../whatsapp/index.js";
import type { DetectedLanguage } from "../detect-language.js";
import type { IntentRouter } from "../intent-router.js";
import { foldDiacritics } from "../normalize.js";
import { withReceiptSlots } from "../receipt-slots.js";
import type { ResponderSettings } from "../responder-settings.js";
import { detectDate, extractSlots, type RouterSlots } from "../slots.js";
import type { RouteResult } from "../tiers/route-result.js";
import { renderPlain, renderReply } from "./localized-reply.js";

/** What a reply is fitted to: the customer's language and the slots of the turn. */
export interface TurnReading {
  readonly language: DetectedLanguage | undefined;
  readonly slots: RouterSlots;
}

/** The customer's own words: a tapped button's or list row's title is the bot's text, not theirs. */
function customerText(messages: readonly InboundMessage[]): string {
  return messages
    .flatMap((message) => (message.text === undefined || message.replyId !== undefined ? [] : [message.text]))
    .join("\n");
}

/**
 * The turn's language and slots when the classifier did not read it (rule
 * and reply-id tiers): the router's language hook, and the slot extractor on
 * the turn's text, with a transfer receipt's slots where the text has none. Without a router, or for a turn of taps only, the
 * tenant's language order decides.
 */
export function readTurn(messages: readonly InboundMessage[], router: IntentRouter | undefined): TurnReading {
  const text = customerText(messages);
  // A receipt picture alone still brings its slots (the answer to "please send the reference").
  if (text === "") return { language: undefined, slots: withReceiptSlots({}, messages) };
  const lower = text.normalize("NFKC").toLowerCase();
  const { slots } = extractSlots(lower);
  const date = detectDate(foldDiacritics(lower));
  return {
    language: router?.identifyLanguage?.(text),
    slots: withReceiptSlots(date === undefined ? slots : { ...slots, date }, messages),
  };
}

/**
 * A routed turn's reply fitted to the customer: their language (else the
 * tenant's order) and the slots they gave. A reply that needs slots the turn
 * lacks asks for those only (`asked` set), or, with no `ask`, is no local
 * answer: the turn gets the fallback (the agent).
 */
export function localizeRoute(
  settings: ResponderSettings,
  routed: RouteResult,
  reading: TurnReading,
): RouteResult {
  const order = settings.languages;
  const fallback = (): RouteResult => ({
    intent: undefined,
    reply: renderPlain(settings.fallbackTemplate, { language: reading.language, order }),
    tier: "fallback",
    ...(routed.decision === undefined ? {} : { decision: routed.decision }),
    ...(routed.knowledgeHints === undefined ? {} : { knowledgeHints: routed.knowledgeHints }),
  });
  // An FAQ answer is the tenant's knowledge entry as written: it has no template to fit.
  if (routed.tier === "faq") return routed;
  const template = routed.intent === undefined ? undefined : settings.templates[routed.intent];
  if (routed.tier === "fallback" || template === undefined) return fallback();
  const rendered = renderReply(template, { language: reading.language, slots: reading.slots, order });
  if (rendered === undefined) return fallback();
  const { asked: _earlier, ...rest } = routed;
  return rendered.missing.length === 0
    ? { ...rest, reply: rendered.reply }
    : {
        ...rest,
        reply: rendered.reply,
        asked: { missing: rendered.missing, slots: reading.slots, language: reading.language },
      };
}
