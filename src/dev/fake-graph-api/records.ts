import type { JsonObject } from "./check.js";
import type { TemplateCategory } from "./template-categories.js";
import { customerKey } from "./validate-send.js";

/** A message the fake accepted. */
export interface FakeMessageRecord {
  /** The wamid it answered with. */
  readonly id: string;
  readonly phoneNumberId: string;
  readonly to?: string;
  readonly recipient?: string;
  readonly type: string;
  /** Template sends: the template's category (priced with it in status webhooks). */
  readonly templateCategory?: TemplateCategory;
  /** Echoed in every status webhook of the message, as Meta does. */
  readonly bizOpaqueCallbackData?: string;
  /** The request body as received. */
  readonly body: JsonObject;
  /** ms since the epoch, on the fake's clock. */
  readonly receivedAt: number;
}

export type FakeRequestKind = "send" | "read" | "media-url" | "media-download" | "media-upload";

/** One call of the Graph API endpoints and what the fake answered. */
export interface FakeRequestRecord {
  readonly seq: number;
  readonly kind: FakeRequestKind;
  readonly path: string;
  readonly phoneNumberId?: string;
  readonly to?: string;
  readonly recipient?: string;
  readonly type?: string;
  /** `hung`: the fake chose never to answer. */
  readonly outcome: "accepted" | "rejected" | "hung";
  readonly status?: number;
  /** Meta's `error.code` of a rejection. */
  readonly errorCode?: number;
  readonly wamid?: string;
  /** Mark-as-read: the message marked read, and whether the typing indicator was asked for. */
  readonly messageId?: string;
  readonly typing?: boolean;
  readonly receivedAt: number;
}

export interface MessageFilter {
  /** A phone number (any format) or BSUID; matches `to` or `recipient`. */
  readonly to?: string;
  readonly phoneNumberId?: string;
}

export interface Records {
  addMessage(record: FakeMessageRecord): void;
  addRequest(record: Omit<FakeRequestRecord, "seq">): FakeRequestRecord;
  messages(filter?: MessageFilter): FakeMessageRecord[];
  requests(): FakeRequestRecord[];
  findMessage(wamid: string): FakeMessageRecord | undefined;
  clear(): void;
}

/** Bounded logs of accepted messages and of every request; the oldest go first past `maxRecords`. */
export function createRecords(maxRecords: number): Records {
  let messages: FakeMessageRecord[] = [];
  let requests: FakeRequestRecord[] = [];
  const byWamid = new Map<string, FakeMessageRecord>();
  let seq = 0;

  // Trimming in steps keeps appends O(1) amortised under a load test.
  const trim = <T>(list: T[], onDrop?: (item: T) => void): T[] => {
    if (list.length <= maxRecords) return list;
    const drop = list.length - maxRecords + Math.ceil(maxRecords / 10);
    if (onDrop !== undefined) for (const item of list.slice(0, drop)) onDrop(item);
    return list.slice(drop);
  };

  return {
    addMessage(record) {
      messages.push(record);
      byWamid.set(record.id, record);
      messages = trim(messages, (dropped) => byWamid.delete(dropped.id));
    },
    addRequest(record) {
      seq += 1;
      const full = { seq, ...record };
      requests.push(full);
      requests = trim(requests);
      return full;
    },
    messages(filter = {}) {
      const wanted = filter.to === undefined ? undefined : customerKey(filter.to);
      return messages.filter(
        (message) =>
          (filter.phoneNumberId === undefined || message.phoneNumberId === filter.phoneNumberId) &&
          (wanted === undefined ||
            (message.to !== undefined && customerKey(message.to) === wanted) ||
            message.recipient === wanted),
      );
    },
    requests: () => [...requests],
    findMessage: (wamid) => byWamid.get(wamid),
    clear() {
      messages = [];
      requests = [];
      byWamid.clear();
    },
  };
}
