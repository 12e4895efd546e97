import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type AudienceMember,
  type CampaignRunner,
  type CampaignRunnerOptions,
  createCampaignEvents,
  createCampaignSender,
  startCampaignRunner,
} from "../../src/campaigns/index.js";
import { createSqliteCampaignStore, type SqliteCampaignStore } from "../../src/campaigns/sqlite/index.js";
import type { FakeGraphApiOptions } from "../../src/dev/index.js";
import { createLogger } from "../../src/observability/index.js";
import {
  createLocalSendRateLimiter,
  createSqliteTenantSendPause,
} from "../../src/outbound/embedded/index.js";
import type { SendRateLimiter } from "../../src/outbound/index.js";
import { openSqliteDatabase, type SqliteDatabase } from "../../src/sqlite/index.js";
import { createGraphApiClient, type GraphApiClient } from "../../src/whatsapp/index.js";
import { GRAPH_TOKEN, PHONE_NUMBER_ID, type RunningFake, startFake } from "../support/fake-graph.js";

export const TENANT = "acme";
export const NUMBER = PHONE_NUMBER_ID;

/** `n` customers with two parameters each: 2348000000001, … */
export function members(n: number, from = 1): AudienceMember[] {
  return Array.from({ length: n }, (_, i) => ({
    customerId: `234800${String(from + i).padStart(7, "0")}`,
    kind: "to" as const,
    params: [`Customer ${from + i}`, "20%"],
  }));
}

export interface RunnerHarness {
  readonly fake: RunningFake;
  readonly store: SqliteCampaignStore;
  readonly numberLimiter: SendRateLimiter;
  readonly events: ReturnType<typeof createCampaignEvents>;
  /** Creates a campaign of `audience` and starts it; answers its id. */
  launch(audience: readonly AudienceMember[], clientKey?: string): Promise<string>;
  /** Starts a runner (another one may run beside it, as another worker would). */
  run(options?: CampaignRunnerOptions & { owner?: string; messagingLimit?: number }): CampaignRunner;
  /** Meta's phone_number_quality_update for the number, as the events worker hands it over. */
  qualityUpdate(event: "FLAGGED" | "UNFLAGGED" | "DOWNGRADE", currentLimit?: string): Promise<void>;
  /** Template sends the fake accepted, by customer. */
  sendsByCustomer(): Map<string, number>;
  close(): Promise<void>;
}

/**
 * The campaign runner on real parts: a SQLite campaign store in a temp directory, the fake Graph API
 * on loopback with the real client, the embedded limiter and send pause.
 */
export async function startRunnerHarness(
  options: {
    fake?: Partial<FakeGraphApiOptions>;
    numberMps?: number;
    campaignMps?: number;
    timeoutMs?: number;
  } = {},
): Promise<RunnerHarness> {
  const dir = mkdtempSync(join(tmpdir(), "ss-campaign-runner-"));
  const db: SqliteDatabase = openSqliteDatabase({ dataDir: dir });
  const store = createSqliteCampaignStore(db);
  const fake = await startFake({ phoneNumberIds: [NUMBER], ...options.fake });
  const graph: GraphApiClient = createGraphApiClient(
    {},
    { baseUrl: fake.url, version: "v25.0", token: GRAPH_TOKEN, timeoutMs: options.timeoutMs ?? 5_000 },
  );
  const numberMps = options.numberMps ?? 2_000;
  const campaignMps = options.campaignMps ?? numberMps * 0.8;
  const numberLimiter = createLocalSendRateLimiter({ throughputMps: numberMps });
  const campaignPace = createLocalSendRateLimiter({ throughputMps: campaignMps });
  const pause = createSqliteTenantSendPause({ db });
  const logger = createLogger({ level: "silent" });
  const send = createCampaignSender({
    suppressions: store.suppressions,
    graphClientFor: () => graph,
    numberLimiter,
    campaignPace,
    pause,
    logger,
    now: Date.now,
    random: Math.random,
    pauseMs: 60_000,
    retryPolicy: { baseDelayMs: 50, maxDelayMs: 200 },
  });
  const events = createCampaignEvents({
    store,
    standings: store.standings,
    suppressions: store.suppressions,
    numbersOf: () => [NUMBER],
    logger,
    now: Date.now,
  });
  const runners: CampaignRunner[] = [];
  let keys = 0;
  return {
    fake,
    store,
    numberLimiter,
    events,
    async launch(audience, clientKey = `key-${++keys}`) {
      const { campaign } = await store.create(
        {
          tenantId: TENANT,
          phoneNumberId: NUMBER,
          name: "Flash sale",
          clientKey,
          template: {
            name: "december_sale",
            language: "en",
            category: "marketing",
            bodyText: "Hi {{1}}, {{2}} off today",
          },
          timezone: "Africa/Lagos",
        },
        audience,
        Date.now(),
      );
      await store.transition(TENANT, campaign.id, ["draft"], "running", Date.now());
      return campaign.id;
    },
    run(runOptions = {}) {
      const { owner, messagingLimit, ...rest } = runOptions;
      const runner = startCampaignRunner(
        {
          store,
          standings: store.standings,
          send,
          logger,
          now: Date.now,
          owner: owner ?? `runner-${runners.length + 1}`,
          campaignMpsOf: () => campaignMps,
          configuredLimitOf: () => messagingLimit,
        },
        { tickMs: 20, recoverEveryMs: 100, timezones: ["Africa/Lagos", "Europe/London"], ...rest },
      );
      runners.push(runner);
      return runner;
    },
    qualityUpdate(event, currentLimit = "TIER_2K") {
      return events.onChange({
        kind: "change",
        dedupeId: `quality-${++keys}`,
        tenantId: TENANT,
        wabaId: "waba",
        field: "phone_number_quality_update",
        receivedAt: Date.now(),
        value: { display_phone_number: "15550001111", event, current_limit: currentLimit },
      });
    },
    sendsByCustomer() {
      const counts = new Map<string, number>();
      for (const message of fake.fake.messages()) {
        if (message.type !== "template") continue;
        const customer = (message.to ?? message.recipient ?? "").replace(/^\+/, "");
        counts.set(customer, (counts.get(customer) ?? 0) + 1);
      }
      return counts;
    },
    async close() {
      await Promise.all(runners.map((runner) => runner.close()));
      await graph.close();
      await fake.fake.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
