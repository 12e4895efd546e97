import { createHash } from "node:crypto";
import { canonicalJson } from "./canonical-json.js";

/** What one side-effect call is: the same call in a retried turn gets the same key. */
export interface IdempotencyKeyInput {
  readonly tenantId: string;
  readonly conversationKey: string;
  /** The wamids of the customer messages that triggered the turn; their order does not matter. */
  readonly messageIds: readonly string[];
  readonly toolName: string;
  /** Which call of this tool in the turn: 0 for the first, 1 for the second, … */
  readonly callIndex: number;
}

// Bumped if the derivation ever changes, so old and new keys cannot meet.
const DERIVATION_VERSION = 2;

/**
 * The Idempotency-Key of a side-effect tool call: `ss-` and the first 32
 * lower-case hex digits (128 bits) of SHA-256 over the canonical JSON of the
 * input. A retried turn (same messages) repeating the same call sends the same
 * key, so the tenant's API can drop the repeat, whatever arguments the model
 * writes the second time (they are never part of the key); a different
 * tenant, conversation, turn, tool or call of the tool gives a different key.
 */
export function idempotencyKeyFor(input: IdempotencyKeyInput): string {
  const canonical = canonicalJson({
    v: DERIVATION_VERSION,
    tenantId: input.tenantId,
    conversationKey: input.conversationKey,
    // A turn is a set of messages; sorting keeps the key independent of how the turn was assembled.
    messageIds: [...input.messageIds].sort(),
    toolName: input.toolName,
    callIndex: input.callIndex,
  });
  return `ss-${createHash("sha256").update(canonical, "utf8").digest("hex").slice(0, 32)}`;
}
