import type { DeliveryStatus } from "./ports.js";

/**
 * Rank of each status in the order a message goes through. `failed` is 0: it
 * is not a step forward but an end, and the store's script treats it apart
 * (it replaces sent or delivered, never read or played, and nothing replaces it).
 */
export const STATUS_RANK: Readonly<Record<DeliveryStatus, number>> = {
  failed: 0,
  sent: 1,
  delivered: 2,
  read: 3,
  played: 4,
  deleted: 5,
};

/** A status at or above this rank means the customer saw the message: a `failed` cannot follow it. */
export const SEEN_RANK = STATUS_RANK.read;

export function isDeliveryStatus(value: string): value is DeliveryStatus {
  return Object.hasOwn(STATUS_RANK, value);
}
