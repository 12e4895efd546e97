import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "../observability/index.js";
import {
  classifySendError,
  internationalNumber,
  numberPauseScope,
  type SendRateLimiter,
  type SendRetryPolicy,
  type TenantSendPause,
} from "../outbound/index.js";
import { type GraphApiClient, GraphApiError } from "../whatsapp/index.js";
import { campaignTemplateBody } from "./campaign-message.js";
import type { CampaignMetrics, CampaignSendOutcome } from "./campaign-metrics.js";
import type { Campaign, CampaignRecipient, RecipientOutcome } from "./campaign-types.js";
import type { SuppressionList } from "./ports.js";

/** Meta's code for a customer who stopped marketing messages: they are put on the suppression list. */
const MARKETING_STOPPED = 131050;
/** A slot the number's limiter refused is asked for again no sooner than this, ms. */
const MIN_RELEASE_MS = 20;

export interface CampaignSenderDeps {
  readonly suppressions: SuppressionList;
  readonly graphClientFor: (tenantId: string) => GraphApiClient;
  /** The number's limiter every reply also takes its slots from (throughput and pair limit). */
  readonly numberLimiter: SendRateLimiter;
  /** The campaigns' share of each number (see campaignPaceKey): replies keep the rest. */
  readonly campaignPace: SendRateLimiter;
  readonly pause: TenantSendPause;
  readonly logger: Logger;
  readonly metrics?: CampaignMetrics;
  readonly now: () => number;
  readonly random: () => number;
  readonly retryPolicy?: Omit<SendRetryPolicy, "random">;
  /** How long a rejected token (190) pauses the tenant's sends, and a blocked number (368) its own, ms. */
  readonly pauseMs: number;
}

/** The key a number's campaign share is paced under in the campaign limiter. */
export function campaignPaceKey(phoneNumberId: string): string {
  return `campaign:${phoneNumberId}`;
}

/**
 * Sends a campaign's template to one claimed recipient and says how it ended. Replies come first:
 * the campaign first takes a slot from its own share of the number (by default 80% of its rate),
 * then asks the number's shared limiter for a slot free *now* only, so a slot a reply has reserved
 * is never taken; without one the recipient is released, not failed. Errors follow the replies'
 * classifier, with one difference: an outcome Meta may have sent (a timeout, a 5xx) is `unknown`
 * and never sent again at once, because a customer who gets the same promotion twice blocks the
 * number. Never throws.
 */
export function createCampaignSender(deps: CampaignSenderDeps) {
  const count = (tenant: string, outcome: CampaignSendOutcome, code?: number) =>
    deps.metrics?.sends.inc({ tenant, outcome, code: code === undefined ? "" : String(code) });

  return async function sendToRecipient(
    campaign: Campaign,
    recipient: CampaignRecipient,
  ): Promise<RecipientOutcome> {
    const tenant = campaign.tenantId;
    const number = campaign.phoneNumberId;
    const release = (waitMs: number): RecipientOutcome => {
      count(tenant, "deferred");
      return { kind: "release", notBefore: deps.now() + Math.max(MIN_RELEASE_MS, waitMs) };
    };
    try {
      const pausedMs = await deps.pause.remainingMs(tenant, numberPauseScope(tenant, number));
      if (pausedMs > 0) return release(pausedMs);
      if (await deps.suppressions.isSuppressed(tenant, recipient.customerId)) {
        count(tenant, "skipped");
        return { kind: "skipped", reason: "opted_out" };
      }
      const pace = await deps.campaignPace.reserve(campaignPaceKey(number), recipient.customerId);
      if (!pace.granted) return release(pace.waitMs);
      if (pace.waitMs > 0) await sleep(pace.waitMs);
      const slot = await deps.numberLimiter.reserve(number, recipient.customerId, 0);
      if (!slot.granted) return release(slot.waitMs);
    } catch (error) {
      // Redis or the database hiccuped before anything was sent: try this recipient again shortly.
      deps.logger.warn({ err: error, tenant, campaign: campaign.id }, "campaign send not attempted");
      return release(1000);
    }

    const customer =
      recipient.kind === "to"
        ? { to: internationalNumber(recipient.customerId) }
        : { recipient: recipient.customerId };
    const body = { recipient_type: "individual", ...customer, ...campaignTemplateBody(campaign, recipient) };
    try {
      const result = await deps.graphClientFor(tenant).sendMessage(number, body);
      count(tenant, "sent");
      return { kind: "sent", wamid: result.wamid };
    } catch (error) {
      const code = error instanceof GraphApiError ? error.graphCode : undefined;
      const decision = classifySendError(
        error,
        // Never "retry once" an unknown outcome: for a campaign it stays unknown (see above).
        { attempt: recipient.attempts + 1, unknownOutcomeRetried: true },
        { ...deps.retryPolicy, random: deps.random },
      );
      if (decision.action === "retry" || decision.action === "wait") {
        count(tenant, "retry", code);
        return {
          kind: "retry",
          notBefore: deps.now() + decision.delayMs,
          ...(code === undefined ? {} : { code }),
        };
      }
      if (decision.action === "retry_once_unknown" || decision.reason === "outcome_unknown") {
        count(tenant, "unknown", code);
        deps.logger.warn(
          { tenant, campaign: campaign.id, seq: recipient.seq },
          "campaign send outcome unknown",
        );
        return { kind: "unknown" };
      }
      if (decision.pauseTenant === true) await deps.pause.pause(tenant, deps.pauseMs).catch(() => {});
      if (decision.pauseNumber === true) {
        await deps.pause.pause(numberPauseScope(tenant, number), deps.pauseMs).catch(() => {});
      }
      if (code === MARKETING_STOPPED) {
        await deps.suppressions.optOut(tenant, recipient.customerId, "meta", deps.now()).catch(() => {});
      }
      count(tenant, "failed", code);
      return { kind: "failed", reason: decision.reason, ...(code === undefined ? {} : { code }) };
    }
  };
}

export type CampaignSender = ReturnType<typeof createCampaignSender>;
