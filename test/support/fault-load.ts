import { signatureFor } from "../../src/ingress/index.js";
import { APP_SECRET } from "./ingress-harness.js";
import { textWebhook } from "./webhook-builder.js";

/** One customer message of a fault run. Its text carries its id, so an echoed reply names it. */
export interface LoadMessage {
  /** `c<conversation>m<index>`. */
  readonly id: string;
  readonly wamid: string;
  readonly from: string;
  readonly conversation: number;
  readonly index: number;
  /** Meta's timestamp, seconds. */
  readonly timestamp: number;
  readonly text: string;
}

/** What one POST got: an HTTP status, or no answer at all. */
export type PostResult = number | "refused" | "timeout";

/** Messages for `conversations` customers, `perConversation` each, timestamps one second apart in order. */
export function loadMessages(options: {
  run: string;
  conversations: number;
  perConversation: number;
  /** Customer numbers differ per scenario, so two scenarios' replies never mix. */
  customerBase: number;
}): LoadMessage[] {
  const now = Math.floor(Date.now() / 1000);
  const messages: LoadMessage[] = [];
  for (let index = 0; index < options.perConversation; index += 1) {
    for (let conversation = 0; conversation < options.conversations; conversation += 1) {
      const id = `c${conversation}m${index}`;
      messages.push({
        id,
        wamid: `wamid.${options.run}.${id}`,
        from: String(options.customerBase + conversation),
        conversation,
        index,
        timestamp: now - options.perConversation + index,
        text: `probe ${id} abeg`,
      });
    }
  }
  return messages;
}

export function webhookOf(messages: readonly LoadMessage[]): Buffer {
  return textWebhook([
    messages.map((m) => ({ wamid: m.wamid, from: m.from, timestamp: m.timestamp, text: m.text })),
  ]);
}

/** POSTs a signed webhook as Meta would; a connection error or no answer within `timeoutMs` is recorded as such. */
export async function postWebhook(
  baseUrl: string,
  body: Buffer | string,
  timeoutMs = 5000,
): Promise<PostResult> {
  try {
    const response = await fetch(`${baseUrl}/webhook`, {
      method: "POST",
      body,
      headers: { "content-type": "application/json", "x-hub-signature-256": signatureFor(body, APP_SECRET) },
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.arrayBuffer();
    return response.status;
  } catch (error) {
    return (error as Error).name === "TimeoutError" ? "timeout" : "refused";
  }
}

interface Attempt {
  readonly at: number;
  readonly ms: number;
  readonly result: PostResult;
}

/**
 * Every POST of a run and what it got: what the gateway acknowledged (200)
 * is what the invariant holds it to.
 */
export class AckLedger {
  private readonly attempts = new Map<string, Attempt[]>();

  record(message: LoadMessage, attempt: Attempt): void {
    const list = this.attempts.get(message.id) ?? [];
    list.push(attempt);
    this.attempts.set(message.id, list);
  }

  /** Posts each message in its own webhook (Meta sends one message per webhook), recording the result. */
  async post(baseUrl: string, message: LoadMessage, timeoutMs?: number): Promise<PostResult> {
    const at = Date.now();
    const result = await postWebhook(baseUrl, webhookOf([message]), timeoutMs);
    this.record(message, { at, ms: Date.now() - at, result });
    return result;
  }

  acked(id: string): boolean {
    return (this.attempts.get(id) ?? []).some((attempt) => attempt.result === 200);
  }

  /** Time of the first 200 for `id`. */
  firstAck(id: string): number | undefined {
    return (this.attempts.get(id) ?? []).find((attempt) => attempt.result === 200)?.at;
  }

  all(): Attempt[] {
    return [...this.attempts.values()].flat();
  }

  /** Attempts by result: `{ "200": n, "503": n, refused: n, … }`. */
  results(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const attempt of this.all())
      counts[String(attempt.result)] = (counts[String(attempt.result)] ?? 0) + 1;
    return counts;
  }
}

/**
 * Open-loop load: message i is posted at start + i / ratePerSecond,
 * whatever earlier posts are still waiting for (as Meta does).
 * `baseUrl` is read at each post, so a restarted gateway on a new port is followed.
 */
export async function sendOpenLoop(options: {
  ledger: AckLedger;
  messages: readonly LoadMessage[];
  ratePerSecond: number;
  baseUrl: () => string;
  timeoutMs?: number;
}): Promise<void> {
  const start = Date.now();
  const pending: Promise<PostResult>[] = [];
  for (const [i, message] of options.messages.entries()) {
    const due = start + (i * 1000) / options.ratePerSecond;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(options.ledger.post(options.baseUrl(), message, options.timeoutMs));
  }
  await Promise.all(pending);
}

/**
 * Meta's redelivery: posts every message not yet acknowledged again, a
 * round each `everyMs`, until all are acknowledged or `timeoutMs` passes.
 * Returns how many were still unacknowledged.
 */
export async function redeliverUnacked(options: {
  ledger: AckLedger;
  messages: readonly LoadMessage[];
  baseUrl: () => string;
  timeoutMs?: number;
  everyMs?: number;
}): Promise<number> {
  const until = Date.now() + (options.timeoutMs ?? 30_000);
  for (;;) {
    const missing = options.messages.filter((m) => !options.ledger.acked(m.id));
    if (missing.length === 0 || Date.now() > until) return missing.length;
    for (let i = 0; i < missing.length; i += 20) {
      await Promise.all(missing.slice(i, i + 20).map((m) => options.ledger.post(options.baseUrl(), m)));
    }
    await new Promise((resolve) => setTimeout(resolve, options.everyMs ?? 500));
  }
}

/** The q-quantile of `values` (nearest rank), or undefined for none. */
export function quantile(values: readonly number[], q: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** What `driveLoadThroughFault` measured. */
export interface FaultRun {
  readonly ledger: AckLedger;
  readonly faultStartedAt: number;
  readonly faultEndedAt: number;
  /** Messages still unacknowledged after Meta's redelivery (should be 0). */
  readonly unacked: number;
  /** When the wait for answers ended (all answered, or timed out). */
  readonly answeredAt: number;
}

/**
 * The shape of every Redis-mode scenario: open-loop load; `fault` started
 * `faultAfterMs` into it (it resolves once the fault is over); then Meta's
 * redelivery of what was not acknowledged; then a wait until `answered()`
 * holds (or `answerTimeoutMs`), and `settleMs` more so late duplicates show.
 */
export async function driveLoadThroughFault(options: {
  messages: readonly LoadMessage[];
  ratePerSecond: number;
  baseUrl: () => string;
  faultAfterMs: number;
  fault: () => Promise<void>;
  answered: () => boolean;
  answerTimeoutMs?: number;
  settleMs?: number;
  postTimeoutMs?: number;
}): Promise<FaultRun> {
  const ledger = new AckLedger();
  const load = sendOpenLoop({
    ledger,
    messages: options.messages,
    ratePerSecond: options.ratePerSecond,
    baseUrl: options.baseUrl,
    ...(options.postTimeoutMs === undefined ? {} : { timeoutMs: options.postTimeoutMs }),
  });
  await new Promise((resolve) => setTimeout(resolve, options.faultAfterMs));
  const faultStartedAt = Date.now();
  await options.fault();
  const faultEndedAt = Date.now();
  await load;
  const unacked = await redeliverUnacked({ ledger, messages: options.messages, baseUrl: options.baseUrl });
  const until = Date.now() + (options.answerTimeoutMs ?? 60_000);
  while (!options.answered() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 200));
  const answeredAt = Date.now();
  await new Promise((resolve) => setTimeout(resolve, options.settleMs ?? 2000));
  return { ledger, faultStartedAt, faultEndedAt, unacked, answeredAt };
}

/**
 * The Redis scenarios' shape: 200 customers write two messages each at 20/s (20 s of load), and `fault`
 * starts 4 s in; a post may wait 8 s (a reconnect) before it counts as unanswered.
 */
export async function driveFourHundredThroughFault(options: {
  run: string;
  customerBase: number;
  baseUrl: () => string;
  fault: () => Promise<void>;
  /** The customers' echoed ids the fake Graph API accepted so far. */
  answeredIds: () => ReadonlySet<unknown>;
}): Promise<FaultRun & { readonly messages: readonly LoadMessage[] }> {
  const messages = loadMessages({
    run: options.run,
    conversations: 200,
    perConversation: 2,
    customerBase: options.customerBase,
  });
  const run = await driveLoadThroughFault({
    messages,
    ratePerSecond: 20,
    baseUrl: options.baseUrl,
    faultAfterMs: 4000,
    fault: options.fault,
    answered: () => options.answeredIds().size >= messages.length,
    postTimeoutMs: 8000,
  });
  return { ...run, messages };
}
