import type { InboundMessage } from "../../whatsapp/index.js";
import type { ResponderSettings } from "../responder-settings.js";
import type { RouteResult } from "./route-result.js";

/**
 * Tier 1a, a tapped button or list row: its reply id maps to an intent
 * (`router.replyIds[id]`, or the id itself when it names a reply). Answers
 * only when that intent has a reply.
 */
export function replyIdTier(settings: ResponderSettings, message: InboundMessage): RouteResult | undefined {
  if (message.replyId === undefined) return undefined;
  const intent = settings.replyIds[message.replyId] ?? message.replyId;
  const reply = settings.replies[intent];
  return reply === undefined ? undefined : { intent, reply, tier: "reply_id" };
}
