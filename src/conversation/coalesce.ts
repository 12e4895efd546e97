import type { CoalesceConfig } from "../config/index.js";
import type { InboundMessage } from "../whatsapp/index.js";

/** Whether burst coalescing is on for these settings (either bound 0 turns it off). */
export function coalescingOn(coalesce: CoalesceConfig): boolean {
  return coalesce.windowMs > 0 && coalesce.maxMs > 0;
}

/**
 * When a burst's turn may run: `undefined` now, or the time (ms since the
 * epoch) the coalescing window closes — `windowMs` after the newest arrival,
 * but never later than `maxMs` after the oldest. Arrival is the ingress's
 * `receivedAt`, not Meta's timestamp, so a replayed backlog is not held back.
 */
export function coalesceUntil(
  messages: readonly InboundMessage[],
  coalesce: CoalesceConfig,
  now: number,
): number | undefined {
  if (!coalescingOn(coalesce) || messages.length === 0) return undefined;
  let oldest = Number.POSITIVE_INFINITY;
  let newest = Number.NEGATIVE_INFINITY;
  for (const message of messages) {
    oldest = Math.min(oldest, message.receivedAt);
    newest = Math.max(newest, message.receivedAt);
  }
  const until = Math.min(newest + coalesce.windowMs, oldest + coalesce.maxMs);
  return until > now ? until : undefined;
}

/** A message Meta wrote more than `staleAfterMs` before it reached us (a replay after an outage). */
export function isStale(message: InboundMessage, staleAfterMs: number): boolean {
  return message.timestamp * 1000 < message.receivedAt - staleAfterMs;
}
