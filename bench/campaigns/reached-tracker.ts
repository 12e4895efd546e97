import type { FakeGraphApi } from "../../src/dev/index.js";
import type { ReachedCustomer } from "./inbound-load.js";

/**
 * Follows the fake Graph API's accepted messages as they arrive: customers reached by a template
 * for the first time (for the inbound load), and how many templates and other messages (replies)
 * it accepted so far. Reads the new records at most every `everyMs`, since each read copies the
 * fake's list (which the bench sizes so that it never drops a record).
 */
export function createReachedTracker(fake: FakeGraphApi, everyMs: number) {
  let read = 0;
  let readAt = 0;
  let templates = 0;
  let replies = 0;
  const seen = new Set<string>();
  let pending: ReachedCustomer[] = [];

  const refresh = () => {
    const now = Date.now();
    if (now - readAt < everyMs) return;
    readAt = now;
    const all = fake.messages();
    for (let i = read; i < all.length; i += 1) {
      const message = all[i];
      if (message === undefined) continue;
      if (message.type !== "template") {
        replies += 1;
        continue;
      }
      templates += 1;
      const customer = (message.to ?? message.recipient ?? "").replace(/^\+/, "");
      if (seen.has(customer)) continue;
      seen.add(customer);
      pending.push({ customer, wamid: message.id, at: message.receivedAt });
    }
    read = all.length;
  };

  return {
    /** Customers reached since the last call. */
    newlyReached(): ReachedCustomer[] {
      refresh();
      const out = pending;
      pending = [];
      return out;
    },
    /** Templates and replies the fake accepted so far (as of the latest read). */
    counts(): { readonly templates: number; readonly replies: number; readonly reached: number } {
      refresh();
      return { templates, replies, reached: seen.size };
    },
  };
}
