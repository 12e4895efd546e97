/**
 * Issue 15's campaign benchmark: one number, a campaign to `--recipients` customers (default
 * 10,000) at the tenant's `throughputMps` (`--mps`, default 80), against the fake Graph API with
 * Meta's throughput limit at the same rate, the pair limit on and the messaging limit at
 * `--tier` (default 10,000, also the tenant's `campaigns.messagingLimit`), while customers the
 * campaign already reached write in at `--inbound-rate` messages/s (default 100), each answered
 * by the router (no LLM, coalescing off). The campaign is created (audience as JSON rows) and
 * started through the console API with an operator's API token. Prints, per mode: campaign
 * duration (start → completed, as the gateway stamped them) against recipients / campaign share,
 * sent, sent twice, not sent, refusals by code, reply latency (webhook sent → reply accepted by
 * the fake) p50/p99/max, replies missing or doubled, peak RSS of each gateway process.
 *
 *   node dist/bench/campaigns/run.js [--mode embedded|redis|both] [--recipients 10000] [--mps 80]
 *     [--inbound-rate 100] [--tier 10000] [--reserve 20] [--customer-gap 10] [--warmup auto|0]
 *     [--max-inbound-seconds S] [--statuses off|on] [--coalesce 0] [--workers 2] [--port 3041]
 *
 * A customer writes at most once per --customer-gap seconds (so replies never meet the pair
 * limit), so the rate needs rate × gap reached customers: the inbound load starts once the
 * campaign has reached that many (`--warmup 0`: at once, ramping with the customers reached).
 * A number's rate is shared: inbound at R/s needs R replies/s besides the campaign's share, so the
 * defaults (100 + 64 > 80) overload the number on purpose (replies come first; the campaign waits).
 * The inbound load stops when the campaign completes or after --max-inbound-seconds from the start
 * (default twice the expected duration), whichever is first. Needs `npm run build`; Redis mode
 * needs Redis and PostgreSQL (its prefix and schema are removed after).
 */
import { parseArgs } from "node:util";
import { createFakeGraphApi } from "../../src/dev/index.js";
import { createLogger } from "../../src/observability/index.js";
import { type AudienceRow, createCampaignApi } from "./campaign-api.js";
import {
  BENCH_APP_SECRET,
  BENCH_GRAPH_TOKEN,
  BENCH_TENANT,
  startCampaignGateway,
} from "./campaign-gateway.js";
import { type CampaignRunResult, formatResult, formatTable } from "./campaign-result.js";
import { tallyCampaignRun } from "./campaign-tally.js";
import { startInboundLoad } from "./inbound-load.js";
import { createReachedTracker } from "./reached-tracker.js";

const { values } = parseArgs({
  options: {
    mode: { type: "string", default: "both" },
    recipients: { type: "string", default: "10000" },
    mps: { type: "string", default: "80" },
    "inbound-rate": { type: "string", default: "100" },
    tier: { type: "string", default: "10000" },
    reserve: { type: "string" },
    "customer-gap": { type: "string", default: "10" },
    warmup: { type: "string", default: "auto" },
    "max-inbound-seconds": { type: "string" },
    statuses: { type: "string", default: "off" },
    coalesce: { type: "string", default: "0" },
    workers: { type: "string", default: "2" },
    port: { type: "string", default: "3041" },
    redis: { type: "string", default: "redis://127.0.0.1:6379" },
    database: { type: "string", default: "postgres://postgres@127.0.0.1:5432/test" },
  },
});

const PHONE_NUMBER_ID = "106540352242922";
const DISPLAY_NUMBER = "2349012345678";
const WABA_ID = "114098765432109";
const recipients = Number(values.recipients);
const mps = Number(values.mps);
const inboundRate = Number(values["inbound-rate"]);
const tier = Number(values.tier);
const gapSeconds = Number(values["customer-gap"]);
const reserve = values.reserve === undefined ? undefined : Number(values.reserve);
const campaignMps = (mps * (100 - (reserve ?? 20))) / 100;
const expectedSent = Math.min(recipients, tier);
const expectedSeconds = expectedSent / campaignMps;
const maxInboundSeconds = Number(values["max-inbound-seconds"] ?? Math.ceil(expectedSeconds * 2));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const progress = (line: string) =>
  process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);

async function runOnce(mode: "embedded" | "redis"): Promise<CampaignRunResult> {
  const port = Number(values.port);
  // A tenant from a tenants file has its own webhook path.
  const webhookUrl = `http://127.0.0.1:${port}/webhook/${BENCH_TENANT}`;
  const fake = createFakeGraphApi(
    { logger: createLogger({ level: "silent" }) },
    {
      tokens: [BENCH_GRAPH_TOKEN],
      phoneNumberIds: [PHONE_NUMBER_ID],
      limits: { throughput: { mps }, pair: {} },
      messagingLimit: { uniqueRecipients: tier },
      maxRecords: 2_000_000,
      business: { wabaId: WABA_ID, displayPhoneNumber: DISPLAY_NUMBER, phoneNumberId: PHONE_NUMBER_ID },
      ...(values.statuses === "on"
        ? {
            autoStatuses: {
              webhookUrl,
              appSecret: BENCH_APP_SECRET,
              delayMs: 200,
              statuses: ["sent", "delivered"],
            },
          }
        : {}),
    },
  );
  const graphUrl = await fake.listen({ host: "127.0.0.1", port: 0 });
  const gateway = await startCampaignGateway({
    mode,
    phoneNumberId: PHONE_NUMBER_ID,
    mps,
    messagingLimit: tier,
    reservePercent: reserve,
    graphUrl,
    port,
    workers: Number(values.workers),
    coalesceMs: Number(values.coalesce),
    redisUrl: values.redis as string,
    databaseUrl: values.database as string,
  });
  try {
    const api = createCampaignApi(gateway.apiUrl, gateway.apiToken, BENCH_TENANT);
    const audience: AudienceRow[] = Array.from({ length: recipients }, (_, i) => ({
      wa_id: `23480${String(i).padStart(8, "0")}`,
      params: [`Customer ${i}`],
    }));
    const createdAt = Date.now();
    const draft = await api.create(
      {
        name: `bench ${recipients}`,
        clientKey: `bench-${createdAt}`,
        template: {
          name: "flash_sale",
          language: "en",
          category: "marketing",
          bodyText: "Hi {{1}}, our flash sale is on today: 30% off sneakers. Reply to order.",
        },
      },
      audience,
    );
    const createMs = Date.now() - createdAt;
    const reached = createReachedTracker(fake, 100);
    const started = await api.act(draft.id, "start");
    // Warm-up: the inbound rate needs rate × gap customers free to write (each writes once per gap).
    const warmupTarget =
      values.warmup === "0" ? 0 : Math.min(expectedSent, Math.ceil(inboundRate * gapSeconds));
    while (
      reached.counts().reached < warmupTarget &&
      Date.now() - started.updatedAt < maxInboundSeconds * 1000
    ) {
      await sleep(50);
    }
    const warmupSeconds = (Date.now() - started.updatedAt) / 1000;
    const inbound = startInboundLoad({
      webhookUrl,
      appSecret: BENCH_APP_SECRET,
      phoneNumberId: PHONE_NUMBER_ID,
      displayPhoneNumber: DISPLAY_NUMBER,
      wabaId: WABA_ID,
      rate: inboundRate,
      gapMs: gapSeconds * 1000,
      newlyReached: reached.newlyReached,
    });
    let inboundSummary: Awaited<ReturnType<typeof inbound.stop>> | undefined;
    let report = await api.report(draft.id);
    const deadline = started.updatedAt + (maxInboundSeconds + expectedSeconds * 2 + 120) * 1000;
    let lastProgress = 0;
    while (report.campaign.state !== "completed" && Date.now() < deadline) {
      await sleep(1000);
      if (inboundSummary === undefined && Date.now() - started.updatedAt >= maxInboundSeconds * 1000) {
        progress(`${mode}: inbound stopped at --max-inbound-seconds ${maxInboundSeconds}, campaign not done`);
        inboundSummary = await inbound.stop();
      }
      report = await api.report(draft.id);
      if (Date.now() - lastProgress >= 10_000) {
        lastProgress = Date.now();
        const elapsed = Math.round((Date.now() - started.updatedAt) / 1000);
        progress(
          `${mode} ${elapsed}s: ${report.campaign.state}, sent ${report.sent}/${report.targeted}, ` +
            `templates at the fake ${reached.counts().templates}, inbound ${inbound.sentCount()}, ` +
            `replies ${reached.counts().replies}`,
        );
      }
    }
    const completed = report.campaign.state === "completed";
    inboundSummary ??= await inbound.stop();
    // Replies still queued go out now; wait while they keep coming.
    let answered = reached.counts().replies;
    let quietSince = Date.now();
    while (answered < inboundSummary.sent.length && Date.now() - quietSince < 30_000) {
      await sleep(500);
      const now = reached.counts().replies;
      if (now > answered) quietSince = Date.now();
      answered = now;
    }
    await sleep(1000); // late duplicates would show here
    const finalReport = await api.report(draft.id);
    const tally = tallyCampaignRun({
      audience: audience.map((row) => row.wa_id),
      expectedSent,
      messages: fake.messages(),
      requests: fake.requests(),
      inbound: inboundSummary.sent,
      inboundStartedAt: inboundSummary.startedAt,
      inboundStoppedAt: inboundSummary.stoppedAt,
    });
    const peakRssMiB: Record<string, number> = {};
    const cpuSeconds: Record<string, number> = {};
    for (const p of gateway.processes) {
      peakRssMiB[p.name] = Math.round(p.peakRssMiB() ?? 0);
      cpuSeconds[p.name] = Math.round((p.cpuSeconds() ?? 0) * 10) / 10;
    }
    peakRssMiB.bench = Math.round(process.memoryUsage().rss / 1048576);
    return {
      mode,
      recipients,
      mps,
      campaignMps,
      inboundRate,
      createMs,
      warmupSeconds,
      completed,
      durationSeconds: completed ? (report.campaign.updatedAt - started.updatedAt) / 1000 : undefined,
      expectedSeconds,
      inboundSeconds: (inboundSummary.stoppedAt - inboundSummary.startedAt) / 1000,
      inboundNon200: inboundSummary.non200,
      ...(inboundSummary.firstFailure === undefined
        ? {}
        : { inboundFirstFailure: inboundSummary.firstFailure }),
      inboundUnoffered: inboundSummary.unoffered,
      report: finalReport,
      tally,
      peakRssMiB,
      cpuSeconds,
    };
  } finally {
    await gateway.stop();
    await fake.close();
  }
}

const modes: ("embedded" | "redis")[] =
  values.mode === "both" ? ["embedded", "redis"] : [values.mode === "redis" ? "redis" : "embedded"];
const results: CampaignRunResult[] = [];
for (const mode of modes) {
  const result = await runOnce(mode);
  results.push(result);
  process.stdout.write(`${formatResult(result)}\n${JSON.stringify(result)}\n`);
}
process.stdout.write(`\n${formatTable(results)}\n`);
