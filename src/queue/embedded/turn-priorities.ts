import { tenantOfConversation } from "../../whatsapp/index.js";

/** BullMQ's lowest priority (2^21 − 1); the embedded queue keeps the same scale. */
const MAX_TURN_PRIORITY = 2 ** 21 - 1;

export interface TurnPrioritiesOptions {
  /** Conversations in checkout/payment or waiting for a human (priority 1). */
  readonly isUrgent?: (conversationKey: string, nowMs: number) => boolean;
  /** Turns a tenant had scheduled in this window and the one before set its turns' priority, ms; default 10,000. */
  readonly fairnessWindowMs?: number;
}

/**
 * The Redis turn scheduler's priorities (turn-scheduler.ts), in memory: one
 * process schedules every turn in embedded mode. 1 for urgent conversations;
 * otherwise 2 + the turns the tenant had scheduled in the current and the
 * previous fairness window, so a flooding tenant queues behind a quiet one.
 */
export function createTurnPriorities(options: TurnPrioritiesOptions = {}) {
  const windowMs = options.fairnessWindowMs ?? 10_000;
  let window = -1;
  let current = new Map<string, number>();
  let previous = new Map<string, number>();
  return {
    next(conversationKey: string, nowMs: number): number {
      const at = Math.floor(nowMs / windowMs);
      if (at !== window) {
        previous = at === window + 1 ? current : new Map();
        current = new Map();
        window = at;
      }
      const tenant = tenantOfConversation(conversationKey);
      const load = (current.get(tenant) ?? 0) + 1;
      current.set(tenant, load);
      if (options.isUrgent?.(conversationKey, nowMs) === true) return 1;
      return Math.min(MAX_TURN_PRIORITY, 2 + load + (previous.get(tenant) ?? 0));
    },
  };
}
