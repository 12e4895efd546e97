import type { FakeGraphContext } from "./fake-graph-context.js";
import { type GraphErrorReply, graphError } from "./graph-error.js";
import type { TemplateCategory } from "./template-categories.js";
import type { MessageSend } from "./validate-send.js";

/**
 * Meta's current messaging-limits page names no error code for a template
 * to one customer too many. The code is 131048 because the facts we keep on
 * the Cloud API (error table, 131048) describe it as a restriction on how
 * many messages the number can send, and Meta's earlier messaging-limits
 * page gave exactly 131048's details for sends to new customers past the
 * limit. 131064 is the limit imposed for template classification violations,
 * and 130429/131056 are throughput and pair limits: none of them fits.
 */
export const MESSAGING_LIMIT_ERROR_CODE = 131048;

/** Meta's per-user marketing cap ("healthy ecosystem engagement"). */
export const MARKETING_CAP_ERROR_CODE = 131049;

/** What the template policies say about a send. */
export interface TemplateSendCheck {
  readonly refused?: GraphErrorReply;
  /** Set for template sends; priced with it in status webhooks. */
  readonly category?: TemplateCategory;
  /** Counts an accepted send against the messaging limit. */
  accept(): void;
}

const NOTHING: TemplateSendCheck = { accept: () => undefined };

function templateName(send: MessageSend): string {
  return (send.body.template as { name: string }).name;
}

/**
 * The messaging limit, then the marketing cap, for a template send (other
 * sends are service replies inside the customer's window: neither applies).
 * The limit comes first: it is the business's own, checked before Meta
 * looks at who the customer is.
 */
export function checkTemplateSend(
  ctx: FakeGraphContext,
  phoneNumberId: string,
  send: MessageSend,
): TemplateSendCheck {
  if (send.type !== "template") return NOTHING;
  const category = ctx.templateCategoryOf(templateName(send));
  const admission = ctx.messagingLimit.admit(phoneNumberId, send.address);
  if (admission === undefined) {
    return { refused: graphError(MESSAGING_LIMIT_ERROR_CODE, ctx.ids.traceId()), category, accept: () => {} };
  }
  if (category === "marketing" && ctx.marketingCap.roll()) {
    return { refused: graphError(MARKETING_CAP_ERROR_CODE, ctx.ids.traceId()), category, accept: () => {} };
  }
  return { category, accept: () => admission.commit() };
}
