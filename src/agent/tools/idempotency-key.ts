import { createHash } from "node:crypto";
import { canonicalJson } from "./canonical-json.js";

/** What one side-effect call is: the same call in a retried turn gets the same key. */
export interface IdempotencyKeyInput {
  readonly tenantId: string;
  /** The turn's id (a hash of its journaled message set: the same in every run of the turn). */
  readonly turnId: string;
  readonly toolName: string;
  /** Which call of this tool in the turn: 0 for the first, 1 for the second, … */
  readonly callIndex: number;
}

// Bumped if the derivation ever changes, so old and new keys cannot meet.
const DERIVATION_VERSION = 3;

/**
 * The Idempotency-Key of a side-effect tool call: `ss-` and the first 32
 * lower-case hex digits (128 bits) of SHA-256 over the canonical JSON of
 * (tenant, turn id, tool, call index). A retried turn repeating the same call
 * sends the same key, so the tenant's API can drop the repeat, whatever
 * arguments the model writes the second time (they are never part of the
 * key); a different tenant, turn, tool or call of the tool gives a different key.
 */
export function idempotencyKeyFor(input: IdempotencyKeyInput): string {
  const canonical = canonicalJson({
    v: DERIVATION_VERSION,
    tenantId: input.tenantId,
    turnId: input.turnId,
    toolName: input.toolName,
    callIndex: input.callIndex,
  });
  return `ss-${createHash("sha256").update(canonical, "utf8").digest("hex").slice(0, 32)}`;
}
