import type { CampaignReportView } from "./campaign-api.js";
import type { CampaignTally } from "./campaign-tally.js";

/** One mode's run of the campaign benchmark. */
export interface CampaignRunResult {
  readonly mode: "embedded" | "redis";
  readonly recipients: number;
  readonly mps: number;
  /** The campaign's share of the number: mps × (100 − reserve) / 100. */
  readonly campaignMps: number;
  readonly inboundRate: number;
  /** Creating the draft with its audience through the API, ms. */
  readonly createMs: number;
  /** Start → the first inbound message: until the campaign reached enough customers to write at the rate. */
  readonly warmupSeconds: number;
  readonly completed: boolean;
  /** Start → completed, as the gateway stamped both; undefined when it did not complete in time. */
  readonly durationSeconds: number | undefined;
  readonly expectedSeconds: number;
  readonly inboundSeconds: number;
  readonly inboundNon200: number;
  readonly inboundFirstFailure?: string;
  readonly inboundUnoffered: number;
  readonly report: CampaignReportView;
  readonly tally: CampaignTally;
  readonly peakRssMiB: Record<string, number>;
  readonly cpuSeconds: Record<string, number>;
}

/** The three codes the benchmark is about: throughput, pair limit, messaging limit. */
const CODES = ["130429", "131056", "131048"] as const;

const refused = (counts: Record<string, number>) => CODES.map((code) => counts[code] ?? 0).join(" / ");
const others = (counts: Record<string, number>) =>
  Object.entries(counts)
    .filter(([code]) => !(CODES as readonly string[]).includes(code))
    .map(([code, n]) => `${code}: ${n}`)
    .join(", ");
const rss = (r: CampaignRunResult) =>
  Object.entries(r.peakRssMiB)
    .filter(([name]) => name !== "bench")
    .map(([name, mib]) => `${name} ${mib}`)
    .join(", ");

/** A paragraph a person reads, per run. */
export function formatResult(r: CampaignRunResult): string {
  const t = r.tally;
  const rep = r.report;
  return [
    `${r.mode}: ${r.recipients} recipients at ${r.mps}/s (campaign share ${r.campaignMps}/s), inbound ${r.inboundRate}/s offered`,
    `  campaign ${r.completed ? `completed in ${r.durationSeconds?.toFixed(1)} s` : "DID NOT COMPLETE"} (expected ${r.expectedSeconds.toFixed(1)} s); audience upload ${r.createMs} ms`,
    `  at the fake: sent ${t.sent}, sent twice ${t.sentTwice} (${t.customersSentTwice} customers), not sent ${t.notSent}; ` +
      `templates/s while inbound ran ${t.campaignMpsDuringInbound}, after ${t.campaignMpsAfterInbound ?? "-"}`,
    `  refused 130429 / 131056 / 131048: templates ${refused(t.refusedTemplates)}, replies ${refused(t.refusedReplies)}` +
      `${others(t.refusedTemplates) || others(t.refusedReplies) ? `; other codes: templates {${others(t.refusedTemplates)}} replies {${others(t.refusedReplies)}}` : ""}`,
    `  inbound ${t.inbound} in ${r.inboundSeconds.toFixed(1)} s from ${r.warmupSeconds.toFixed(1)} s after the start (${(t.inbound / Math.max(0.001, r.inboundSeconds)).toFixed(1)}/s; ` +
      `${r.inboundUnoffered} due while no reached customer was free), non-200 ${r.inboundNon200}` +
      `${r.inboundFirstFailure === undefined ? "" : ` (first: ${r.inboundFirstFailure})`}`,
    `  replies ${t.replies}: missing ${t.missing}, doubled ${t.doubled}; latency p50 ${t.p50} ms, p99 ${t.p99} ms, max ${t.max} ms`,
    `  gateway report: state ${rep.campaign.state}, sent ${rep.sent} (delivered ${rep.delivered}), pending ${rep.pending} (held ${rep.heldForLimit}), ` +
      `sending ${rep.sending}, unknown ${rep.unknown}, skipped ${JSON.stringify(rep.skipped)}, failed ${JSON.stringify(rep.failed)}, replied ${rep.replied}`,
    `  peak RSS MiB: ${rss(r)}; CPU s: ${JSON.stringify(r.cpuSeconds)}`,
  ].join("\n");
}

/** The markdown table RESULTS.md keeps, one row per run. */
export function formatTable(results: readonly CampaignRunResult[]): string {
  const header =
    "| mode | recipients | mps (campaign) | inbound/s offered (sent) | duration s (expected) | sent | sent twice | not sent | refused 130429 / 131056 / 131048 | reply p50 / p99 / max ms | replies missing / doubled | peak RSS MiB |\n" +
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | --- |";
  const rows = results.map((r) => {
    const t = r.tally;
    const all: Record<string, number> = { ...t.refusedReplies };
    for (const [code, n] of Object.entries(t.refusedTemplates)) all[code] = (all[code] ?? 0) + n;
    const duration = r.durationSeconds === undefined ? "not done" : r.durationSeconds.toFixed(1);
    const achieved = (t.inbound / Math.max(0.001, r.inboundSeconds)).toFixed(1);
    return (
      `| ${r.mode} | ${r.recipients} | ${r.mps} (${r.campaignMps}) | ${r.inboundRate} (${achieved}) | ` +
      `${duration} (${r.expectedSeconds.toFixed(1)}) | ${t.sent} | ${t.sentTwice} | ${t.notSent} | ${refused(all)} | ` +
      `${t.p50} / ${t.p99} / ${t.max} | ${t.missing} / ${t.doubled} | ${rss(r)} |`
    );
  });
  return [header, ...rows].join("\n");
}
