import type { Responder, TurnDecisionHook, TurnInput, TurnReply } from "../conversation/index.js";
import type { Logger } from "../observability/index.js";
import type { InboundMessage } from "../whatsapp/index.js";
import type { CampaignMetrics } from "./campaign-metrics.js";
import type { CampaignConversion } from "./campaign-types.js";
import { detectOptChange, type OptChange } from "./opt-out-keywords.js";
import { optChangeLine } from "./opt-out-lines.js";
import type { CampaignStore, SuppressionList } from "./ports.js";

/** An opt-out, a handoff or a checkout counts for the campaign that reached the customer within this, ms. */
const ATTRIBUTION_MS = 7 * 86_400_000;
/** The router's intent of a customer paying or checking out. */
const CHECKOUT_INTENT = "checkout_payment";

export interface CampaignResponderDeps {
  readonly store: CampaignStore;
  readonly suppressions: SuppressionList;
  readonly logger: Logger;
  readonly metrics?: CampaignMetrics;
  readonly now: () => number;
}

/** Every id a customer may be listed under in an audience: the number and the business-scoped user id. */
function customerIds(message: InboundMessage): string[] {
  return [message.customer.waId, message.customer.userId].filter((id): id is string => id !== undefined);
}

/**
 * Puts campaigns in front of a responder. A message that is only "STOP" (or its Pidgin, Yoruba,
 * Hausa or Igbo equivalent) puts the customer on the tenant's suppression list and gets one line
 * in their language; "START" from a suppressed customer takes them off it. A message quoting a
 * campaign message (its `context.id`) counts as a reply to that campaign; the conversation is then
 * answered as usual, with the template already in its history. Whatever else the turn holds goes
 * to the inner responder.
 */
export function withCampaigns(inner: Responder, deps: CampaignResponderDeps): Responder {
  const log = deps.logger.child({ component: "campaigns" });

  const countReplies = async (messages: readonly InboundMessage[]) => {
    for (const message of messages) {
      const quoted = message.context?.id;
      if (typeof quoted !== "string") continue;
      const target = await deps.store.findByWamid(message.tenantId, quoted);
      if (target === undefined) continue;
      await deps.store.recordReply(target.campaignId, target.seq, deps.now());
      deps.metrics?.replies.inc({ tenant: message.tenantId });
    }
  };

  /** Applies an opt change; answers the line to send, or undefined when nothing changed (START from someone never off). */
  const apply = async (message: InboundMessage, change: OptChange): Promise<TurnReply | undefined> => {
    const tenant = message.tenantId;
    const ids = customerIds(message);
    if (change.kind === "opt_out") {
      for (const id of ids) {
        await deps.suppressions.optOut(tenant, id, "keyword", deps.now());
        await deps.store.recordOptOut(tenant, id, deps.now(), ATTRIBUTION_MS);
      }
    } else {
      let wasOff = false;
      for (const id of ids) wasOff = (await deps.suppressions.optIn(tenant, id)) || wasOff;
      if (!wasOff) return undefined;
    }
    deps.metrics?.optChanges.inc({ tenant, kind: change.kind, source: "keyword" });
    log.info(
      { tenant, kind: change.kind, language: change.language },
      "customer changed their campaign preference",
    );
    return { text: optChangeLine(change) };
  };

  const countConversion = async (turn: TurnInput, kind: CampaignConversion) => {
    const first = turn.messages[0];
    if (first === undefined) return;
    for (const id of customerIds(first)) {
      await deps.store.recordConversion(first.tenantId, id, kind, deps.now(), ATTRIBUTION_MS);
    }
  };

  const split = async (turn: TurnInput) => {
    await countReplies(turn.messages);
    const lines: TurnReply[] = [];
    const rest: InboundMessage[] = [];
    for (const message of turn.messages) {
      const change = message.text === undefined ? undefined : detectOptChange(message.text);
      const line = change === undefined ? undefined : await apply(message, change);
      if (line === undefined) rest.push(message);
      // One line per turn is enough, however often the customer wrote STOP.
      else if (lines.length === 0) lines.push(line);
    }
    return { lines, rest };
  };

  return {
    async respond(turn) {
      const { lines, rest } = await split(turn);
      if (rest.length === 0) return lines;
      const replies = await inner.respond(
        rest.length === turn.messages.length ? turn : { ...turn, messages: rest },
      );
      if (replies.some((reply) => reply.handoff === true)) await countConversion(turn, "handoff");
      return [...lines, ...replies];
    },
    async respondToStale(turn) {
      // A late STOP still counts: it is what the customer asked for.
      const { lines, rest } = await split(turn);
      if (rest.length === 0) return lines;
      return [...lines, ...(await inner.respondToStale({ ...turn, messages: rest }))];
    },
  };
}

/**
 * Counts a turn the router sent to checkout (payment) for the campaign that reached the customer, as a
 * decision hook beside the message log's; never rejects (a failed count is logged).
 */
export function countCampaignCheckouts(deps: CampaignResponderDeps): TurnDecisionHook {
  return async (decision) => {
    if (decision.intent !== CHECKOUT_INTENT) return;
    const first = decision.turn.messages[0];
    if (first === undefined) return;
    try {
      for (const id of customerIds(first)) {
        await deps.store.recordConversion(first.tenantId, id, "checkout", deps.now(), ATTRIBUTION_MS);
      }
    } catch (error) {
      deps.logger.warn({ err: error, tenant: first.tenantId }, "could not count a checkout for its campaign");
    }
  };
}
