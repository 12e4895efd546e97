import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import pg from "pg";
import type { Registry } from "prom-client";
import {
  type CampaignCommands,
  type CampaignEvents,
  type CampaignRunner,
  type CampaignStore,
  campaignSettingsOf,
  countCampaignCheckouts,
  createCampaignCommands,
  createCampaignEvents,
  createCampaignMetrics,
  createCampaignSender,
  createNumberStandingRefresh,
  type NumberStandings,
  renderedTemplateText,
  type SuppressionList,
  startCampaignRunner,
  withCampaigns,
} from "../campaigns/index.js";
import { openPostgresCampaignStore } from "../campaigns/postgres/index.js";
import type { AppConfig } from "../config/index.js";
import type { ConversationStateStore, Responder, TurnDecisionHook } from "../conversation/index.js";
import type { Logger } from "../observability/index.js";
import type { SendRateLimiter, SentMessageRecorder, TenantSendPause } from "../outbound/index.js";
import { conversationKeyOf, type GraphApiClient } from "../whatsapp/index.js";

/** The three campaign ports of one database. */
export type CampaignStores = CampaignStore & {
  readonly suppressions: SuppressionList;
  readonly standings: NumberStandings;
};

/** Campaign stores and where they live. */
export interface OpenedCampaignStores {
  readonly stores: CampaignStores;
  readonly description: string;
  close(): Promise<void>;
}

/**
 * Where campaigns live: PostgreSQL with DATABASE_URL (every worker shares the audience), else the
 * backend's own SQLite file (embedded), else nowhere (Redis mode without DATABASE_URL: campaigns
 * are off, and the API says why).
 */
export async function openCampaignStores(
  config: AppConfig,
  local: (() => CampaignStores) | undefined,
): Promise<OpenedCampaignStores | undefined> {
  if (config.databaseUrl !== undefined) {
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 5 });
    pool.on("error", () => {});
    try {
      const stores = await openPostgresCampaignStore({ pool, schema: config.databaseSchema });
      return { stores, description: "postgres", close: () => pool.end() };
    } catch (error) {
      await pool.end();
      throw error;
    }
  }
  if (local === undefined) return undefined;
  return { stores: local(), description: "sqlite", close: async () => {} };
}

export interface CampaignWiringDeps {
  readonly stores: CampaignStores;
  readonly graphClientFor: (tenantId: string) => GraphApiClient;
  readonly numberLimiter: SendRateLimiter;
  readonly campaignPace: SendRateLimiter;
  readonly pause: TenantSendPause;
  /** Where each accepted campaign message is recorded as ours, so its statuses reach the message log. */
  readonly sent: SentMessageRecorder;
  readonly state: ConversationStateStore;
  readonly logger: Logger;
  readonly registry: Registry;
  readonly now: () => number;
}

/** What the pipeline and the console use of campaigns. */
export interface CampaignWiring {
  readonly commands: CampaignCommands;
  readonly events: CampaignEvents;
  wrap(responder: Responder): Responder;
  /** Counts checkouts for the campaign that reached the customer (beside the message log's hook). */
  readonly countCheckouts: TurnDecisionHook;
  /** Starts sending running campaigns in this process. */
  run(): CampaignRunner;
}

/** The campaigns of a worker: commands, Meta's events, the responder in front, and the runner. */
export function wireCampaigns(config: AppConfig, deps: CampaignWiringDeps): CampaignWiring {
  const { stores, logger, now } = deps;
  const metrics = createCampaignMetrics(deps.registry);
  const settings = new Map(config.tenants.map((tenant) => [tenant.id, campaignSettingsOf(tenant)]));
  const tenantOfNumber = new Map(
    config.tenants.flatMap((tenant) => tenant.phoneNumberIds.map((id) => [id, tenant])),
  );
  const commands = createCampaignCommands({
    store: stores,
    suppressions: stores.suppressions,
    tenants: config.tenants,
    now,
  });
  const events = createCampaignEvents({
    store: stores,
    standings: stores.standings,
    suppressions: stores.suppressions,
    numbersOf: (tenantId) => config.tenants.find((tenant) => tenant.id === tenantId)?.phoneNumberIds ?? [],
    logger,
    metrics,
    now,
  });
  const send = createCampaignSender({
    suppressions: stores.suppressions,
    graphClientFor: deps.graphClientFor,
    numberLimiter: deps.numberLimiter,
    campaignPace: deps.campaignPace,
    pause: deps.pause,
    logger,
    metrics,
    now,
    random: Math.random,
    pauseMs: 900_000,
  });
  return {
    commands,
    events,
    countCheckouts: countCampaignCheckouts({
      store: stores,
      suppressions: stores.suppressions,
      logger,
      metrics,
      now,
    }),
    wrap: (responder) =>
      withCampaigns(responder, { store: stores, suppressions: stores.suppressions, logger, metrics, now }),
    run: () => {
      // What Meta says of each number before its first webhook: read now, then hourly.
      const refreshStandings = createNumberStandingRefresh({
        standings: stores.standings,
        numbers: config.tenants
          .filter((tenant) => tenant.graphToken !== undefined)
          .flatMap((tenant) =>
            tenant.phoneNumberIds.map((phoneNumberId) => ({
              phoneNumberId,
              read: () => deps.graphClientFor(tenant.id).getPhoneNumberStanding(phoneNumberId),
            })),
          ),
        logger,
        now,
      });
      void refreshStandings();
      const timer = setInterval(() => void refreshStandings(), 3_600_000);
      timer.unref();
      const runner = startCampaignRunner(
        {
          store: stores,
          standings: stores.standings,
          send,
          logger,
          metrics,
          now,
          owner: `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`,
          campaignMpsOf: (phoneNumberId) => {
            const tenant = tenantOfNumber.get(phoneNumberId);
            if (tenant === undefined) return 1;
            const reserve = settings.get(tenant.id)?.replyReservePercent ?? 20;
            return (tenant.throughputMps * (100 - reserve)) / 100;
          },
          configuredLimitOf: (phoneNumberId) => {
            const tenant = tenantOfNumber.get(phoneNumberId);
            return tenant === undefined ? undefined : settings.get(tenant.id)?.messagingLimit;
          },
          onSent: async (campaign, recipient, wamid) => {
            const conversationKey = conversationKeyOf(
              campaign.tenantId,
              campaign.phoneNumberId,
              recipient.customerId,
            );
            const at = now();
            // The bot answers a reply knowing what the customer was sent, and so does an operator.
            const text =
              renderedTemplateText(campaign, recipient.params) ?? `[template ${campaign.template.name}]`;
            try {
              await deps.sent.recordSent({
                tenantId: campaign.tenantId,
                wamid,
                phoneNumberId: campaign.phoneNumberId,
                conversationKey,
                ...(recipient.kind === "to"
                  ? { to: recipient.customerId }
                  : { recipient: recipient.customerId }),
                turnId: `campaign:${campaign.id}`,
                part: recipient.seq,
                sentAt: at,
                content: { type: "template", text },
              });
              await deps.state.append(conversationKey, [{ at, from: "bot", type: "template", text, wamid }]);
            } catch (error) {
              logger.warn(
                { err: error, campaign: campaign.id },
                "campaign message sent but not recorded in the conversation",
              );
            }
          },
        },
        config.campaigns,
      );
      return {
        async close() {
          clearInterval(timer);
          await runner.close();
        },
      };
    },
  };
}
