import type { InboundMessage, RecordOnlyMessageEvent, UnanswerableReason } from "./inbound-types.js";

export type { UnanswerableReason } from "./inbound-types.js";

/** Every reason, in the order answerability.ts decides them (docs and metric labels). */
export const UNANSWERABLE_REASONS: readonly UnanswerableReason[] = [
  "reaction",
  "edit",
  "revoke",
  "system",
  "group",
  "unlisted_number",
  "no_reply_address",
  "own_number",
];

/** What the message's change says about the business side. */
export interface AnswerabilityScope {
  /** False when the tenant lists its numbers and this is not one of them. */
  readonly numberListed: boolean;
  /** The business number's ids (phone_number_id, display number digits): a `from` equal to one is us. */
  readonly businessIds: readonly string[];
}

/** Edits reach numbers without the Business app's features as `unsupported` with this subtype (§3.1). */
const UNSUPPORTED_SUBTYPES: Readonly<Record<string, UnanswerableReason>> = { edit: "edit", revoke: "revoke" };

function subtypeOf(content: unknown): string | undefined {
  const type =
    content !== null && typeof content === "object" ? (content as { type?: unknown }).type : undefined;
  return typeof type === "string" ? type : undefined;
}

/** The rule, in order: whose number, what kind of chat, what kind of message, who can be answered. */
export function unanswerableReasonOf(
  message: Omit<InboundMessage, "unanswerable">,
  scope: AnswerabilityScope,
): UnanswerableReason | undefined {
  if (!scope.numberListed) return "unlisted_number";
  if (message.groupId !== undefined) return "group";
  switch (message.type) {
    case "reaction":
    case "edit":
    case "revoke":
    case "system":
      return message.type;
    case "unsupported": {
      const subtype = subtypeOf(message.content);
      if (subtype !== undefined && Object.hasOwn(UNSUPPORTED_SUBTYPES, subtype)) {
        return UNSUPPORTED_SUBTYPES[subtype];
      }
      break;
    }
    default:
      break;
  }
  const { waId, userId } = message.customer;
  if (waId === undefined && userId === undefined) return "no_reply_address";
  if (waId !== undefined && userId === undefined && scope.businessIds.includes(waId)) return "own_number";
  return undefined;
}

/** Whether a turn may answer the message; messages queued before the rule existed carry no reason and are. */
export function isAnswerable(message: InboundMessage): boolean {
  return message.unanswerable === undefined;
}

/**
 * Splits a webhook's messages at the queue boundary: answerable ones go to
 * their conversation's inbox, the others to the events path as record-only
 * events, so no turn ever sees them (and none marks them read or types).
 */
export function splitByAnswerability(messages: readonly InboundMessage[]): {
  readonly answerable: InboundMessage[];
  readonly recordOnly: RecordOnlyMessageEvent[];
} {
  const answerable: InboundMessage[] = [];
  const recordOnly: RecordOnlyMessageEvent[] = [];
  for (const message of messages) {
    const reason = message.unanswerable;
    if (reason === undefined) {
      answerable.push(message);
      continue;
    }
    recordOnly.push({
      kind: "message",
      dedupeId: `${message.tenantId}:message:${message.wamid}`,
      tenantId: message.tenantId,
      phoneNumberId: message.phoneNumberId,
      receivedAt: message.receivedAt,
      message: { ...message, unanswerable: reason },
    });
  }
  return { answerable, recordOnly };
}
