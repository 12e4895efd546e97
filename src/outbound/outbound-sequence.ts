import type { OutboundReply } from "../queue/index.js";
import { OutboundReplyInvalidError } from "./errors.js";
import { outboundJobId } from "./outbound-job-id.js";
import type { SendOrder } from "./ports.js";

/** Refuses a reply no adapter may queue (OutboundReplyInvalidError). */
export function checkOutboundReply(reply: OutboundReply): void {
  if ((reply.to === undefined) === (reply.recipient === undefined)) {
    throw new OutboundReplyInvalidError("exactly one of `to` and `recipient` must name the customer");
  }
  if (typeof reply.message.type !== "string") throw new OutboundReplyInvalidError("message has no `type`");
  if (!Number.isInteger(reply.part) || reply.part < 0) {
    throw new OutboundReplyInvalidError("`part` must be a whole number ≥ 0");
  }
}

/**
 * Each reply's place in its conversation's send order, in the order given (turn order, then part order).
 * `ids` are the replies' job ids (outboundJobId), which the caller needs too: a hash each, made once.
 */
export async function assignSendOrder(
  order: SendOrder,
  replies: readonly OutboundReply[],
  ids: readonly string[] = replies.map(outboundJobId),
): Promise<number[]> {
  const seqs: number[] = new Array(replies.length);
  const groups = new Map<string, number[]>();
  replies.forEach((reply, i) => {
    const key = `${reply.tenantId}\u0000${reply.conversationKey}`;
    groups.set(key, [...(groups.get(key) ?? []), i]);
  });
  for (const indexes of groups.values()) {
    const first = replies[indexes[0] as number] as OutboundReply;
    const given = await order.assign(
      first.tenantId,
      first.conversationKey,
      indexes.map((i) => ids[i] as string),
    );
    indexes.forEach((i, n) => {
      seqs[i] = given[n] as number;
    });
  }
  return seqs;
}
