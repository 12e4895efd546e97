import type { Logger } from "../observability/index.js";
import type { ChangeEvent, StatusEvent } from "../whatsapp/index.js";
import { parseCampaignCallbackData } from "./campaign-message.js";
import type { CampaignMetrics } from "./campaign-metrics.js";
import type { DeliveryStatus } from "./campaign-types.js";
import { messagingLimitOfTier } from "./messaging-tiers.js";
import type { CampaignStore, NumberQuality, NumberStandings, SuppressionList } from "./ports.js";

export interface CampaignEventsDeps {
  readonly store: CampaignStore;
  readonly standings: NumberStandings;
  readonly suppressions: SuppressionList;
  /** The business numbers of a tenant: a quality webhook names a display number, not an id. */
  readonly numbersOf: (tenantId: string) => readonly string[];
  readonly logger: Logger;
  readonly metrics?: CampaignMetrics;
  readonly now: () => number;
}

const statusOrder: readonly DeliveryStatus[] = ["sent", "delivered", "read", "failed"];

/**
 * What campaigns take from Meta's webhooks, on the events path: statuses of campaign messages (by
 * the callback data each carries) for the report; a number's quality and limit changes, which
 * pause its running campaigns when quality drops to RED (FLAGGED) or the limit is lowered; a
 * template Meta paused or disabled, which pauses the campaigns sending it; and customers who tap
 * "Stop promotions" (user_preferences), who go on the suppression list.
 */
export function createCampaignEvents(deps: CampaignEventsDeps) {
  const log = deps.logger.child({ component: "campaigns" });

  const pauseRunning = async (
    tenantId: string,
    phoneNumberIds: readonly string[],
    reason: string,
    filter?: (templateName: string) => boolean,
  ) => {
    let paused = 0;
    for (const phoneNumberId of phoneNumberIds) {
      for (const campaign of await deps.store.runningOnNumber(phoneNumberId)) {
        if (campaign.tenantId !== tenantId || (filter !== undefined && !filter(campaign.template.name)))
          continue;
        const after = await deps.store.transition(
          tenantId,
          campaign.id,
          ["running"],
          "paused",
          deps.now(),
          reason,
        );
        if (after === undefined) continue;
        paused++;
        deps.metrics?.autoPaused.inc({ tenant: tenantId, reason });
        log.error(
          { alert: "campaign_paused", tenant: tenantId, campaign: campaign.id, reason },
          "campaign paused by the gateway: check the number in WhatsApp Manager, then resume it",
        );
      }
    }
    return paused;
  };

  async function onStatus(event: StatusEvent): Promise<boolean> {
    const target = parseCampaignCallbackData(event.bizOpaqueCallbackData);
    if (target === undefined || !statusOrder.includes(event.status as DeliveryStatus)) return false;
    const error = (event.errors?.[0] ?? undefined) as { code?: unknown } | undefined;
    const pricing = event.pricing;
    const category = typeof pricing?.category === "string" ? pricing.category : undefined;
    const billable =
      pricing === undefined ? undefined : pricing.billable === true || pricing.type === "regular";
    return deps.store.applyStatus({
      campaignId: target.campaignId,
      seq: target.seq,
      wamid: event.wamid,
      status: event.status as DeliveryStatus,
      at: event.timestamp,
      ...(typeof error?.code === "number" ? { errorCode: error.code } : {}),
      ...(category === undefined ? {} : { pricingCategory: category }),
      ...(billable === undefined ? {} : { billable }),
    });
  }

  async function onChange(event: ChangeEvent): Promise<void> {
    const value = (typeof event.value === "object" && event.value !== null ? event.value : {}) as Record<
      string,
      unknown
    >;
    const numbers =
      event.phoneNumberId === undefined ? deps.numbersOf(event.tenantId) : [event.phoneNumberId];
    if (event.field === "phone_number_quality_update") {
      const kind = typeof value.event === "string" ? value.event : "";
      // Meta is moving current_limit to max_daily_conversations_per_business: read either.
      const limitName = value.max_daily_conversations_per_business ?? value.current_limit;
      const tier = typeof limitName === "string" ? messagingLimitOfTier(limitName) : null;
      for (const phoneNumberId of numbers) {
        const before = await deps.standings.get(phoneNumberId);
        const quality: NumberQuality =
          kind === "FLAGGED" ? "RED" : kind === "UNFLAGGED" ? "GREEN" : (before?.quality ?? "UNKNOWN");
        const messagingLimit = tier === null ? before?.messagingLimit : tier;
        await deps.standings.set({
          phoneNumberId,
          quality,
          updatedAt: deps.now(),
          ...(messagingLimit === undefined ? {} : { messagingLimit }),
        });
      }
      if (kind === "FLAGGED") await pauseRunning(event.tenantId, numbers, "quality_red");
      if (kind === "DOWNGRADE") await pauseRunning(event.tenantId, numbers, "limit_downgrade");
      log.warn(
        { tenant: event.tenantId, event: kind, limit: value.current_limit },
        "number quality or limit changed",
      );
      return;
    }
    if (event.field === "message_template_status_update") {
      const status = typeof value.event === "string" ? value.event : "";
      const name = typeof value.message_template_name === "string" ? value.message_template_name : undefined;
      if (name !== undefined && ["PAUSED", "DISABLED", "REJECTED"].includes(status)) {
        await pauseRunning(
          event.tenantId,
          deps.numbersOf(event.tenantId),
          `template_${status.toLowerCase()}`,
          (t) => t === name,
        );
      }
      return;
    }
    if (event.field === "user_preferences") {
      const preferences = Array.isArray(value.user_preferences) ? value.user_preferences : [];
      for (const raw of preferences) {
        const preference = (raw ?? {}) as Record<string, unknown>;
        if (preference.category !== "marketing_messages" || typeof preference.wa_id !== "string") continue;
        if (preference.value === "stop") {
          await deps.suppressions.optOut(event.tenantId, preference.wa_id, "button", deps.now());
          await deps.store.recordOptOut(event.tenantId, preference.wa_id, deps.now(), 7 * 86_400_000);
          deps.metrics?.optChanges.inc({ tenant: event.tenantId, kind: "opt_out", source: "button" });
        } else if (preference.value === "resume") {
          await deps.suppressions.optIn(event.tenantId, preference.wa_id);
          deps.metrics?.optChanges.inc({ tenant: event.tenantId, kind: "opt_in", source: "button" });
        }
      }
    }
  }

  return { onStatus, onChange };
}

export type CampaignEvents = ReturnType<typeof createCampaignEvents>;
