import { build } from "hdr-histogram-js";
import type { FakeMessageRecord, FakeRequestRecord } from "../../src/dev/index.js";
import type { InboundSent } from "./inbound-load.js";

/** What the fake Graph API saw of one run, counted against what should have happened. */
export interface CampaignTally {
  /** Audience members the template reached at least once. */
  readonly sent: number;
  /** Template copies beyond the first, summed over customers; and how many customers got more than one. */
  readonly sentTwice: number;
  readonly customersSentTwice: number;
  /** Audience members who should have been sent the template (within the messaging limit) but were not. */
  readonly notSent: number;
  /** Sends the fake refused, by Meta's code, for the campaign's templates and for replies. */
  readonly refusedTemplates: Record<string, number>;
  readonly refusedReplies: Record<string, number>;
  readonly inbound: number;
  readonly replies: number;
  readonly missing: number;
  readonly doubled: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  /** Templates the fake accepted per second while the inbound load ran, and after it until the last. */
  readonly campaignMpsDuringInbound: number;
  readonly campaignMpsAfterInbound: number | undefined;
  readonly firstTemplateAt: number | undefined;
  readonly lastTemplateAt: number | undefined;
}

export interface TallyInput {
  readonly audience: readonly string[];
  /** How many of the audience the messaging limit lets through in one window. */
  readonly expectedSent: number;
  readonly messages: readonly FakeMessageRecord[];
  readonly requests: readonly FakeRequestRecord[];
  readonly inbound: readonly InboundSent[];
  readonly inboundStartedAt: number;
  readonly inboundStoppedAt: number;
}

const customerOf = (record: { to?: string; recipient?: string }) =>
  (record.to ?? record.recipient ?? "").replace(/^\+/, "");

function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = map.get(k);
    if (list === undefined) map.set(k, [item]);
    else list.push(item);
  }
  return map;
}

/**
 * Counts a run from the fake's records: template copies per audience member (sent, sent twice,
 * not sent), refusals by code, and each inbound message matched to its reply in order per
 * customer (coalescing is off and a customer writes at most once per gap, so the k-th reply
 * answers the k-th message): latency from the webhook leaving to the fake accepting the reply.
 */
export function tallyCampaignRun(input: TallyInput): CampaignTally {
  const templates = input.messages.filter((m) => m.type === "template");
  const byCustomer = countBy(templates, customerOf);
  let sent = 0;
  let sentTwice = 0;
  let customersSentTwice = 0;
  for (const customer of input.audience) {
    const copies = byCustomer.get(customer)?.length ?? 0;
    if (copies > 0) sent += 1;
    if (copies > 1) {
      sentTwice += copies - 1;
      customersSentTwice += 1;
    }
  }
  const refusedTemplates: Record<string, number> = {};
  const refusedReplies: Record<string, number> = {};
  for (const request of input.requests) {
    if (request.kind !== "send" || request.outcome !== "rejected") continue;
    const into = request.type === "template" ? refusedTemplates : refusedReplies;
    const code = String(request.errorCode ?? request.status ?? "?");
    into[code] = (into[code] ?? 0) + 1;
  }

  const histogram = build({
    useWebAssembly: false,
    lowestDiscernibleValue: 1,
    highestTrackableValue: 3_600_000,
  });
  const replies = input.messages.filter((m) => m.type !== "template");
  const repliesBy = countBy(replies, customerOf);
  let missing = 0;
  let doubled = 0;
  for (const [customer, sentList] of countBy(input.inbound, (m) => m.customer)) {
    const answers = (repliesBy.get(customer) ?? []).map((r) => r.receivedAt).sort((a, b) => a - b);
    missing += Math.max(0, sentList.length - answers.length);
    doubled += Math.max(0, answers.length - sentList.length);
    sentList.forEach((message, k) => {
      const at = answers[k];
      if (at !== undefined) histogram.recordValue(Math.max(1, at - message.sentAt));
    });
  }
  // Replies to customers who never wrote would be doubled too.
  const writers = new Set(input.inbound.map((m) => m.customer));
  for (const [customer, list] of repliesBy) if (!writers.has(customer)) doubled += list.length;

  const times = templates.map((t) => t.receivedAt).sort((a, b) => a - b);
  const first = times[0];
  const last = times[times.length - 1];
  const during = times.filter((t) => t >= input.inboundStartedAt && t <= input.inboundStoppedAt).length;
  const after = times.filter((t) => t > input.inboundStoppedAt).length;
  const inboundSeconds = Math.max(0.001, (input.inboundStoppedAt - input.inboundStartedAt) / 1000);
  const afterSeconds = last === undefined ? 0 : (last - input.inboundStoppedAt) / 1000;
  return {
    sent,
    sentTwice,
    customersSentTwice,
    notSent: Math.max(0, input.expectedSent - sent),
    refusedTemplates,
    refusedReplies,
    inbound: input.inbound.length,
    replies: replies.length,
    missing,
    doubled,
    p50: histogram.getValueAtPercentile(50),
    p99: histogram.getValueAtPercentile(99),
    max: histogram.maxValue,
    campaignMpsDuringInbound: Math.round((during / inboundSeconds) * 10) / 10,
    campaignMpsAfterInbound:
      after > 0 && afterSeconds > 0 ? Math.round((after / afterSeconds) * 10) / 10 : undefined,
    firstTemplateAt: first,
    lastTemplateAt: last,
  };
}
