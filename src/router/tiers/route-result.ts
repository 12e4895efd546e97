import type { TurnReply } from "../../conversation/index.js";
import type { DetectedLanguage } from "../detect-language.js";
import type { RouterDecision } from "../intent-router.js";
import type { RouterSlots } from "../slots.js";

/** Which tier of the router decided a turn (`follow_up`: the customer sent what the bot had asked for). */
export type RouteTier = "reply_id" | "rule" | "custom" | "classifier" | "faq" | "follow_up" | "fallback";

/** A knowledge entry the FAQ tier found for the turn: answered locally, or a hint for the agent. */
export interface KnowledgeHint {
  readonly id: string;
  readonly q: string;
  readonly a: string;
  readonly score: number;
}

/** How a turn was routed: the intent, or `undefined` for the fallback. */
export interface RouteResult {
  readonly intent: string | undefined;
  readonly reply: TurnReply;
  readonly tier: RouteTier;
  /** The classifier's view of the turn's text, when it was consulted (hints for the agent). */
  readonly decision?: RouterDecision;
  /**
   * Set when the reply asks the customer for essential slots it lacks: what
   * was missing, the slots it did have and the customer's language (the
   * responder asks only once per intent: see replies/ask-once.ts).
   */
  readonly asked?: {
    readonly missing: readonly string[];
    readonly slots: RouterSlots;
    readonly language: DetectedLanguage | undefined;
  };
  /** The custom-intent classifier's score, when a custom intent answered. */
  readonly custom?: { readonly intent: string; readonly confidence: number };
  /** The FAQ tier's best entries (best first): the one it answered with, or hints for the agent. */
  readonly knowledgeHints?: readonly KnowledgeHint[];
}
