import type { TenantConfig } from "../config/index.js";
import type {
  ConversationStateStore,
  Responder,
  TurnDecision,
  TurnDecisionHook,
  TurnInput,
  TurnReply,
} from "../conversation/index.js";
import type { InboundMessage } from "../whatsapp/index.js";
import type { CustomIntentsContext } from "./custom/custom-intent-store.js";
import type { IntentRouter } from "./intent-router.js";
import { type Lexicon, loadLexicon } from "./lexicon.js";
import { withReceiptSlots } from "./receipt-slots.js";
import { answerToAsk, askOnce, historyAskMemory } from "./replies/ask-once.js";
import { localizeRoute, readTurn } from "./replies/localize-route.js";
import { renderPlain } from "./replies/localized-reply.js";
import { type ResponderSettings, resolveResponderSettings } from "./responder-settings.js";
import type { RouterMetrics } from "./router-metrics.js";
import { customIntentTier } from "./tiers/custom-intent-tier.js";
import { faqTier } from "./tiers/faq-tier.js";
import {
  classifierTier,
  MAX_CLASSIFIED_CHARS,
  type RouteResult,
  replyIdTier,
  ruleTier,
} from "./tiers/index.js";
import { withTenantTiers } from "./tiers/tenant-tiers.js";

/**
 * Routes one turn. The turn's LAST message that carries a button/list reply
 * id or text decides for tier 1 (an earlier "hello" must not win over a
 * later "my money never drop"): its reply id maps to an intent
 * (`router.replyIds[id]`, or the id itself when it names a reply); else the
 * first rule whose pattern matches its text. Then the classifier reads the
 * turn's texts together (a burst "hello" / "my money never drop" is one
 * request) and answers when it resolves an enabled intent that has a reply.
 * The tenant's own intents (settings.tiers.custom) are checked on the same
 * text just before the classifier answers, gated by its decision (see
 * customIntentTier); the FAQ tier (settings.tiers.faq) comes last, and when
 * it does not answer, its best entries ride with the fallback as hints for
 * the agent. Anything else gets the fallback.
 * The reply is then fitted to the customer
 * (replies/localize-route.ts): their language, and the slots they gave or
 * a transfer receipt they sent as a picture showed (receipt-slots.ts).
 */
export function routeTurn(
  settings: ResponderSettings,
  messages: readonly InboundMessage[],
  router?: IntentRouter,
): RouteResult {
  const picked = pickRoute(settings, messages, router);
  // A receipt read from a picture fills the slots the customer did not write, for the reply and the agent.
  const routed =
    picked.decision === undefined
      ? picked
      : {
          ...picked,
          decision: { ...picked.decision, slots: withReceiptSlots(picked.decision.slots, messages) },
        };
  const { decision } = routed;
  const reading =
    decision === undefined
      ? readTurn(messages, router)
      : {
          language: decision.languageUncertain === true ? undefined : decision.language,
          slots: decision.slots,
        };
  return localizeRoute(settings, routed, reading);
}

function pickRoute(
  settings: ResponderSettings,
  messages: readonly InboundMessage[],
  router: IntentRouter | undefined,
): RouteResult {
  const fallback: RouteResult = { intent: undefined, reply: settings.fallback, tier: "fallback" };
  const last = [...messages].reverse().find((m) => m.replyId !== undefined || m.text !== undefined);
  if (last === undefined) return fallback;
  const tier1 = replyIdTier(settings, last) ?? ruleTier(settings, last);
  if (tier1 !== undefined) return tier1;
  if (last.text === undefined) return fallback;
  const classified = router === undefined ? {} : classifierTier(settings, messages, router);
  const base = classified.answer === undefined ? classified.decision : classified.answer.decision;
  const tiers = settings.tiers;
  const text = tiers === undefined ? "" : turnTextOf(messages);
  if (tiers?.custom !== undefined && text.length <= MAX_CLASSIFIED_CHARS) {
    const custom = customIntentTier(settings, tiers.custom, text, base);
    if (custom !== undefined) return custom;
  }
  if (classified.answer !== undefined) return classified.answer;
  const faq = tiers?.faq === undefined ? undefined : faqTier(tiers.faq, text, base);
  if (faq?.answer !== undefined) return faq.answer;
  return {
    ...fallback,
    ...(base === undefined ? {} : { decision: base }),
    ...(faq === undefined || faq.hints.length === 0 ? {} : { knowledgeHints: faq.hints }),
  };
}

function turnTextOf(messages: readonly InboundMessage[]): string {
  return messages.flatMap((message) => (message.text === undefined ? [] : [message.text])).join("\n");
}

/** Routes a turn (routeTurn) and counts the classifier's decision in the router metrics. */
export function routeAndCount(
  settings: ResponderSettings,
  turn: TurnInput,
  router: IntentRouter | undefined,
  metrics: RouterMetrics | undefined,
): RouteResult {
  const routed = routeTurn(settings, turn.messages, router);
  countRouted(turn, routed, metrics);
  return routed;
}

/** Counts a routed turn's classifier decision in the router metrics (resolved: answered by the classifier). */
export function countRouted(turn: TurnInput, routed: RouteResult, metrics: RouterMetrics | undefined): void {
  const decision = routed.decision;
  if (decision !== undefined && metrics !== undefined) {
    metrics.decisions.inc({
      tenant: turn.tenant.id,
      intent: decision.intent,
      language: decision.language,
      resolved: String(routed.tier === "classifier"),
    });
    metrics.confidence.observe({ intent: decision.intent }, decision.confidence);
  }
}

/**
 * Routes a turn, asks for missing slots at most once per intent (the
 * conversation's history remembers the ask; see replies/ask-once.ts), then
 * counts it. Without a state store every turn may ask.
 */
export async function routeAskOnceAndCount(
  settings: ResponderSettings,
  turn: TurnInput,
  options: {
    readonly router?: IntentRouter | undefined;
    readonly metrics?: RouterMetrics | undefined;
    readonly state?: ConversationStateStore | undefined;
    readonly now?: number;
    readonly onError?: (error: unknown) => void;
  },
): Promise<RouteResult> {
  const first = routeTurn(settings, turn.messages, options.router);
  const { state } = options;
  const now = options.now ?? Date.now();
  const routed =
    state === undefined
      ? first
      : first.asked !== undefined
        ? await askOnce(settings, first, turn.conversationKey, historyAskMemory(state), now, options.onError)
        : await answerToAsk(
            settings,
            first,
            turn.messages,
            turn.conversationKey,
            historyAskMemory(state),
            now,
            options.onError,
          );
  countRouted(turn, routed, options.metrics);
  return routed;
}

/** The tenant's `stale` reply in the language of the turn's messages (else the tenant's first language). */
export function staleReply(settings: ResponderSettings, turn: TurnInput, router?: IntentRouter): TurnReply {
  const { language } = readTurn(turn.messages, router);
  return renderPlain(settings.staleTemplate, { language, order: settings.languages });
}

/** How a routed turn is reported to `onTurnDecision`: reply ids and rules are certain, the classifier is not. */
export function turnDecisionOf(turn: TurnInput, routed: RouteResult): TurnDecision {
  const intent = routed.intent ?? routed.decision?.intent;
  const certain = routed.tier === "reply_id" || routed.tier === "rule";
  return {
    turn,
    tier: routed.tier,
    ...(intent === undefined ? {} : { intent }),
    confidence: certain ? 1 : (routed.custom?.confidence ?? routed.decision?.confidence ?? 0),
    resolved: routed.tier !== "fallback",
  };
}

/** A stale turn's decision: the tenant's `stale` reply, no router. */
export function staleTurnDecision(turn: TurnInput): TurnDecision {
  return { turn, tier: "stale", intent: "stale", confidence: 1, resolved: true };
}

/** What the first responder may use beyond the tenants' settings. */
export interface FirstResponderOptions {
  /** The intent classifier (router tier 2); without it only reply ids and rules answer. */
  readonly router?: IntentRouter;
  /** For the tenants' custom intents (router.custom): trained files' folder, log; lexicon and router default. */
  readonly customIntents?: Omit<CustomIntentsContext, "router" | "lexicon"> & { readonly lexicon?: Lexicon };
  readonly metrics?: RouterMetrics;
  /** Told each turn's decision (the message log records it); optional. */
  readonly onTurnDecision?: TurnDecisionHook;
  /** Remembers which slots were asked for, so they are asked once (replies/ask-once.ts); optional. */
  readonly state?: ConversationStateStore;
}

/**
 * The first responder: buttons, list replies and per-tenant rules (tier 1),
 * then the intent classifier (tier 2) to canned replies; the tenant's
 * fallback for the rest, and the tenant's `stale` reply for replayed turns.
 * Each tenant's settings are checked when the responder is created
 * (ResponderSettingsError), so a bad rule or an unknown intent stops the
 * worker at start rather than at the first message.
 */
export function createFirstResponder(
  tenants: readonly TenantConfig[],
  options: FirstResponderOptions = {},
): Responder {
  const { router, metrics, onTurnDecision, state } = options;
  const context = customIntentsContext(router, options.customIntents);
  const settings = new Map(
    tenants.map((tenant) => [
      tenant.id,
      withTenantTiers(tenant.id, resolveResponderSettings(tenant), context),
    ]),
  );
  const of = (tenant: TenantConfig) => settings.get(tenant.id) ?? resolveResponderSettings(tenant);
  return {
    async respond(turn) {
      const routed = await routeAskOnceAndCount(of(turn.tenant), turn, { router, metrics, state });
      await onTurnDecision?.(turnDecisionOf(turn, routed));
      return [routed.reply];
    },
    async respondToStale(turn) {
      await onTurnDecision?.(staleTurnDecision(turn));
      return [staleReply(of(turn.tenant), turn, router)];
    },
  };
}

/** The custom intents' context from the base router and options; none without a router. */
export function customIntentsContext(
  router: IntentRouter | undefined,
  options: (Omit<CustomIntentsContext, "router" | "lexicon"> & { readonly lexicon?: Lexicon }) | undefined,
): CustomIntentsContext | undefined {
  if (router === undefined) return undefined;
  return { ...options, router, lexicon: options?.lexicon ?? loadLexicon() };
}
