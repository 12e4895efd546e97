import { customerKey } from "./validate-send.js";

/**
 * Meta's messaging limit (the "tier"): how many unique customers template
 * sends may reach in a moving window. Meta counts it per business portfolio,
 * shared by all its numbers (`scope: "portfolio"`, the default: the whole
 * fake is one portfolio); `scope: "phone-number"` counts each number apart,
 * as Meta did before October 2025.
 */
export interface MessagingLimitOptions {
  readonly uniqueRecipients: number;
  /** Default 24 h. */
  readonly windowMs?: number;
  readonly scope?: "portfolio" | "phone-number";
}

/** Per business number: customers it last reached inside the window, and template sends refused by the limit. */
export interface MessagingLimitNumberCount {
  readonly used: number;
  readonly refused: number;
}

/** What `GET /_fake/messaging-limit` answers; `enabled: false` (and no limit fields) when off. */
export interface MessagingLimitSnapshot {
  readonly enabled: boolean;
  readonly uniqueRecipients?: number;
  readonly windowMs?: number;
  readonly scope?: "portfolio" | "phone-number";
  /** Unique customers inside the window, over every counting scope. */
  readonly used: number;
  /** Template sends refused by the limit since the start (or the last reset). */
  readonly refused: number;
  readonly numbers: Readonly<Record<string, MessagingLimitNumberCount>>;
}

/** A template send the limit admits; counted only once `commit` is called (the send was accepted). */
export interface MessagingLimitAdmission {
  commit(): void;
}

export interface MessagingLimit {
  /** Admits a template send to `address`, or counts it refused and answers undefined. */
  admit(phoneNumberId: string, address: string): MessagingLimitAdmission | undefined;
  snapshot(): MessagingLimitSnapshot;
  /** Changes the limit (undefined: off); customers already counted stay counted. */
  configure(options: MessagingLimitOptions | undefined): void;
  clear(): void;
}

export const DEFAULT_MESSAGING_LIMIT_WINDOW_MS = 24 * 60 * 60 * 1000;

interface Reached {
  readonly at: number;
  readonly phoneNumberId: string;
}

/** The messaging limit on an injected clock; off (admits everything, counts nothing) without options. */
export function createMessagingLimit(
  initial: MessagingLimitOptions | undefined,
  now: () => number,
): MessagingLimit {
  let options = initial;
  // Per counting scope, customers in the order they were last reached: the oldest are expired from the front.
  const scopes = new Map<string, Map<string, Reached>>();
  const refusedBy = new Map<string, number>();

  const windowMs = () => options?.windowMs ?? DEFAULT_MESSAGING_LIMIT_WINDOW_MS;
  const scopeOf = (phoneNumberId: string) => (options?.scope === "phone-number" ? phoneNumberId : "");
  const live = (scope: string): Map<string, Reached> => {
    let reached = scopes.get(scope);
    if (reached === undefined) {
      reached = new Map();
      scopes.set(scope, reached);
    }
    const since = now() - windowMs();
    for (const [key, entry] of reached) {
      if (entry.at > since) break;
      reached.delete(key);
    }
    return reached;
  };

  return {
    admit(phoneNumberId, address) {
      if (options === undefined) return { commit: () => undefined };
      const reached = live(scopeOf(phoneNumberId));
      const key = customerKey(address);
      if (!reached.has(key) && reached.size >= options.uniqueRecipients) {
        refusedBy.set(phoneNumberId, (refusedBy.get(phoneNumberId) ?? 0) + 1);
        return undefined;
      }
      return {
        commit() {
          // Reaching a customer again keeps them inside the moving window from now on.
          reached.delete(key);
          reached.set(key, { at: now(), phoneNumberId });
        },
      };
    },
    snapshot() {
      const numbers: Record<string, { used: number; refused: number }> = {};
      const of = (id: string) => {
        numbers[id] ??= { used: 0, refused: 0 };
        return numbers[id];
      };
      let used = 0;
      for (const scope of [...scopes.keys()]) {
        for (const entry of live(scope).values()) {
          of(entry.phoneNumberId).used += 1;
          used += 1;
        }
      }
      let refused = 0;
      for (const [id, count] of refusedBy) {
        of(id).refused = count;
        refused += count;
      }
      const limit =
        options === undefined
          ? {}
          : {
              uniqueRecipients: options.uniqueRecipients,
              windowMs: windowMs(),
              scope: options.scope ?? "portfolio",
            };
      return { enabled: options !== undefined, ...limit, used, refused, numbers };
    },
    configure(next) {
      // Counts are kept per scope; switching scope would mix them up, so it starts afresh.
      if ((next?.scope ?? "portfolio") !== (options?.scope ?? "portfolio")) scopes.clear();
      options = next;
    },
    clear() {
      scopes.clear();
      refusedBy.clear();
    },
  };
}
