import type { TurnReply } from "../../conversation/index.js";
import type { RouterDecision } from "../intent-router.js";

/** Which tier of the router decided a turn. */
export type RouteTier = "reply_id" | "rule" | "classifier" | "fallback";

/** How a turn was routed: the intent, or `undefined` for the fallback. */
export interface RouteResult {
  readonly intent: string | undefined;
  readonly reply: TurnReply;
  readonly tier: RouteTier;
  /** The classifier's view of the turn's text, when it was consulted (hints for the agent). */
  readonly decision?: RouterDecision;
}
