import type { FakeMessageRecord } from "../../src/dev/index.js";
import { type AckLedger, type LoadMessage, quantile } from "./fault-load.js";

/** The text of a sent message (a text body or an interactive one). */
export function replyText(message: Pick<FakeMessageRecord, "body">): string {
  return String(
    (message.body.text as { body: string } | undefined)?.body ??
      (message.body.interactive as { body: { text: string } } | undefined)?.body.text ??
      "",
  );
}

/** The load message an echoed reply answers: its id is in the reply's text (the fake LLM echoes the customer). */
export function echoedId(message: FakeMessageRecord): string | undefined {
  return /probe (c\d+m\d+)/.exec(replyText(message))?.[1];
}

/** For runs with one message per conversation: the reply's customer names the message. */
export function byCustomer(
  messages: readonly LoadMessage[],
): (reply: FakeMessageRecord) => string | undefined {
  const ids = new Map(messages.map((m) => [m.from, m.id]));
  return (reply) => ids.get(String(reply.to).replace(/\D/g, ""));
}

/** What the invariant looks at, per run. */
export interface DeliveryFigures {
  readonly sent: number;
  readonly acknowledged: number;
  /** Distinct messages with at least one reply. */
  readonly answered: number;
  /** Replies beyond the first, over all messages. */
  readonly duplicates: number;
  readonly duplicated: readonly string[];
  /** Acknowledged messages with no reply. */
  readonly lost: readonly string[];
  /** Answered though never acknowledged (the gateway stored it and then failed to say so: allowed). */
  readonly answeredUnacknowledged: number;
  /** Replies that name no message of the run. */
  readonly unmatched: number;
  /** Every POST by what it got. */
  readonly posts: Record<string, number>;
  readonly ackP50Ms: number | undefined;
  readonly ackP99Ms: number | undefined;
  /** From the first 200 to the first reply. */
  readonly answerP50Ms: number | undefined;
  readonly answerP99Ms: number | undefined;
}

export function deliveryFigures(options: {
  messages: readonly LoadMessage[];
  ledger: AckLedger;
  replies: readonly FakeMessageRecord[];
  replyOf: (reply: FakeMessageRecord) => string | undefined;
}): DeliveryFigures {
  const { messages, ledger } = options;
  const repliesOf = new Map<string, FakeMessageRecord[]>();
  let unmatched = 0;
  for (const reply of options.replies) {
    const id = options.replyOf(reply);
    if (id === undefined) {
      unmatched += 1;
      continue;
    }
    repliesOf.set(id, [...(repliesOf.get(id) ?? []), reply]);
  }
  const acked = messages.filter((m) => ledger.acked(m.id));
  const answerMs: number[] = [];
  for (const m of acked) {
    const first = repliesOf.get(m.id)?.[0];
    const ackAt = ledger.firstAck(m.id);
    if (first !== undefined && ackAt !== undefined) answerMs.push(Math.max(0, first.receivedAt - ackAt));
  }
  const ackMs = ledger
    .all()
    .filter((a) => a.result === 200)
    .map((a) => a.ms);
  const duplicated = [...repliesOf].filter(([, list]) => list.length > 1).map(([id]) => id);
  return {
    sent: messages.length,
    acknowledged: acked.length,
    answered: messages.filter((m) => repliesOf.has(m.id)).length,
    duplicates: [...repliesOf.values()].reduce((sum, list) => sum + list.length - 1, 0),
    duplicated,
    lost: acked.filter((m) => !repliesOf.has(m.id)).map((m) => m.id),
    answeredUnacknowledged: messages.filter((m) => !ledger.acked(m.id) && repliesOf.has(m.id)).length,
    unmatched,
    posts: ledger.results(),
    ackP50Ms: quantile(ackMs, 0.5),
    ackP99Ms: quantile(ackMs, 0.99),
    answerP50Ms: quantile(answerMs, 0.5),
    answerP99Ms: quantile(answerMs, 0.99),
  };
}

/** One line per scenario on stdout, `FAULT <scenario>: key=value …`, the figures bench/RESULTS.md quotes. */
export function printFigures(scenario: string, figures: Record<string, unknown>): void {
  const shown = Object.entries(figures)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => {
      if (Array.isArray(value)) return `${key}=${value.length === 0 ? "none" : value.slice(0, 10).join(",")}`;
      if (typeof value === "object" && value !== null) return `${key}=${JSON.stringify(value)}`;
      return `${key}=${String(value)}`;
    });
  process.stdout.write(`FAULT ${scenario}: ${shown.join(" ")}\n`);
}
