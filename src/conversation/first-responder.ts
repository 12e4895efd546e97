import type { TenantConfig } from "../config/index.js";
import type { InboundMessage } from "../whatsapp/index.js";
import type { Responder, TurnReply } from "./ports.js";
import { type ResponderSettings, resolveResponderSettings } from "./responder-settings.js";

/** How a turn was routed: the intent, or `undefined` for the fallback. */
export interface RouteResult {
  readonly intent: string | undefined;
  readonly reply: TurnReply;
}

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
 * Routes one turn. The turn's LAST message that carries a button/list reply
 * id or text decides (an earlier "hello" must not win over a later "my money
 * never drop"): its reply id maps to an intent (`router.replyIds[id]`, or the
 * id itself when it names a reply); else the first rule whose pattern matches
 * its text. An intent with a reply answers with it; anything else gets the
 * fallback.
 */
export function routeTurn(settings: ResponderSettings, messages: readonly InboundMessage[]): RouteResult {
  const fallback = { intent: undefined, reply: settings.fallback };
  const last = [...messages].reverse().find((m) => m.replyId !== undefined || m.text !== undefined);
  if (last === undefined) return fallback;
  if (last.replyId !== undefined) {
    const intent = settings.replyIds[last.replyId] ?? last.replyId;
    const reply = settings.replies[intent];
    if (reply !== undefined) return { intent, reply };
  }
  if (last.text === undefined) return fallback;
  const text = normalizeForRules(last.text);
  const rule = settings.rules.find((candidate) => candidate.pattern.test(text));
  const reply = rule === undefined ? undefined : settings.replies[rule.intent];
  return rule === undefined || reply === undefined ? fallback : { intent: rule.intent, reply };
}

/**
 * The first responder (router tier 1): buttons, list replies and per-tenant
 * rules to canned replies, the tenant's fallback for the rest, and the
 * tenant's `stale` reply for replayed turns. Each tenant's settings are
 * checked when the responder is created (ResponderSettingsError), so a bad
 * rule stops the worker at start rather than at the first message.
 */
export function createFirstResponder(tenants: readonly TenantConfig[]): Responder {
  const settings = new Map(tenants.map((tenant) => [tenant.id, resolveResponderSettings(tenant)]));
  const of = (tenant: TenantConfig) => settings.get(tenant.id) ?? resolveResponderSettings(tenant);
  return {
    async respond(turn) {
      return [routeTurn(of(turn.tenant), turn.messages).reply];
    },
    async respondToStale(turn) {
      return [of(turn.tenant).stale];
    },
  };
}
