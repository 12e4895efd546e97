import { createKnowledgeBase, type KnowledgeBase } from "../../knowledge/knowledge-base.js";
import { abstainReason } from "../abstain.js";
import type { FaqSettings } from "../faq-settings.js";
import type { RouterDecision } from "../intent-router.js";
import type { KnowledgeHint, RouteResult } from "./route-result.js";

/** Entries handed to the agent as hints when the FAQ tier does not answer. */
export const FAQ_HINTS = 3;

/** A tenant's knowledge entries, indexed (the same MiniSearch index the agent's lookup_knowledge uses). */
export interface FaqIndex {
  readonly settings: FaqSettings;
  readonly knowledge: KnowledgeBase;
}

export function createFaqIndex(settings: FaqSettings): FaqIndex | undefined {
  return settings.entries.length === 0
    ? undefined
    : { settings, knowledge: createKnowledgeBase(settings.entries) };
}

/** Local answers need the best hit's score and its relative lead over the second (see FaqSettings). */
export function isConfidentHit(hits: readonly KnowledgeHint[], settings: FaqSettings): boolean {
  const [best, second] = hits;
  if (best === undefined || best.score < settings.minScore) return false;
  return (best.score - (second?.score ?? 0)) / best.score >= settings.minMargin;
}

/**
 * The FAQ tier, after the classifiers have not answered: the tenant's
 * knowledge entries searched with the turn's text. With
 * `router.faq.answerLocally`, a confident best entry (isConfidentHit) answers
 * with its text, unless the base classifier put needs_agent first or the
 * abstain layer holds the message back (abstain.ts). Otherwise
 * the best entries go with the fallback to the agent as hints.
 */
export function faqTier(
  faq: FaqIndex,
  turnText: string,
  base: RouterDecision | undefined,
): { readonly answer?: RouteResult; readonly hints: readonly KnowledgeHint[] } {
  const hits = faq.knowledge.search(turnText, FAQ_HINTS).map(({ id, q, a, score }) => ({ id, q, a, score }));
  const local =
    faq.settings.answerLocally &&
    base?.needsAgentFirst !== true &&
    isConfidentHit(hits, faq.settings) &&
    abstainReason(turnText) === undefined;
  const best = hits[0];
  if (!local || best === undefined) return { hints: hits };
  return {
    hints: hits,
    answer: {
      intent: `faq:${best.id}`,
      reply: { text: best.a },
      tier: "faq",
      ...(base === undefined ? {} : { decision: base }),
      knowledgeHints: [best],
    },
  };
}
