import type { Logger } from "../observability/index.js";
import type { CampaignMetrics } from "./campaign-metrics.js";
import type { CampaignSender } from "./campaign-sender.js";
import type { Campaign, CampaignRecipient } from "./campaign-types.js";
import type { CampaignStore, NumberStandings } from "./ports.js";
import { quietTimezones } from "./quiet-hours.js";

export interface CampaignRunnerDeps {
  readonly store: CampaignStore;
  readonly standings: NumberStandings;
  readonly send: CampaignSender;
  /** Told of each message Meta accepted (the conversation's history, the delivery store); must not reject. */
  readonly onSent?: (campaign: Campaign, recipient: CampaignRecipient, wamid: string) => Promise<void>;
  readonly logger: Logger;
  readonly metrics?: CampaignMetrics;
  readonly now: () => number;
  /** This runner's name in claims (process and a random part), so only it settles them. */
  readonly owner: string;
  /** Messages/s the campaigns of this number may take: its share of the number's rate. */
  readonly campaignMpsOf: (phoneNumberId: string) => number;
  /** The number's messaging limit as configured, when Meta has not told us one. */
  readonly configuredLimitOf: (phoneNumberId: string) => number | undefined;
}

export interface CampaignRunnerOptions {
  /** How often it claims, ms; default 200. */
  readonly tickMs?: number;
  /** A claim not settled within this means its sender died, ms; default 60,000. */
  readonly leaseMs?: number;
  /**
   * An unknown send no status has confirmed is sent again after this, and only once this runner has
   * been up this long too, ms; default 900,000 (15 min).
   */
  readonly unknownGraceMs?: number;
  /** How often abandoned claims are looked for, ms; default 5,000. */
  readonly recoverEveryMs?: number;
  /** Sends in flight in this process at most; default 64. */
  readonly maxInFlight?: number;
  /** The messaging limit's moving window, ms; default 24 h. */
  readonly windowMs?: number;
  /** Time zones whose quiet hours are checked; default every zone this Node.js knows. */
  readonly timezones?: readonly string[];
}

export interface CampaignRunner {
  /** Stops claiming and waits for the sends in flight to settle. */
  close(): Promise<void>;
}

/**
 * Runs every running campaign in this process, beside any number of other runners (every worker
 * runs one): each tick it claims each campaign's next recipients from the store (an exclusive,
 * leased claim, so no two runners send to one recipient), sends them, and settles each outcome.
 * A claim is sized to the campaign's rate for one tick, so pausing or cancelling stops sends
 * within a tick or two. A number at its messaging limit is not asked again until a place frees up.
 */
export function startCampaignRunner(
  deps: CampaignRunnerDeps,
  options: CampaignRunnerOptions = {},
): CampaignRunner {
  const tickMs = options.tickMs ?? 200;
  const leaseMs = options.leaseMs ?? 60_000;
  const unknownGraceMs = options.unknownGraceMs ?? 900_000;
  const recoverEveryMs = options.recoverEveryMs ?? 5_000;
  const maxInFlight = options.maxInFlight ?? 64;
  const windowMs = options.windowMs ?? 86_400_000;
  const timezones = options.timezones ?? Intl.supportedValuesOf("timeZone");
  const log = deps.logger.child({ component: "campaigns" });

  const startedAt = deps.now();
  const inFlight = new Map<string, Set<Promise<void>>>();
  const heldUntil = new Map<string, number>();
  let lastRecovery = 0;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<void> = Promise.resolve();

  const inFlightCount = () => [...inFlight.values()].reduce((sum, set) => sum + set.size, 0);

  const settle = async (campaign: Campaign, recipient: CampaignRecipient) => {
    const outcome = await deps.send(campaign, recipient);
    const settled = await deps.store.settle(campaign.id, recipient.seq, deps.owner, outcome, deps.now());
    if (!settled) {
      log.warn({ campaign: campaign.id, seq: recipient.seq }, "campaign claim lost before it was settled");
    }
    if (outcome.kind === "sent") await deps.onSent?.(campaign, recipient, outcome.wamid);
  };

  const launch = (campaign: Campaign, recipient: CampaignRecipient) => {
    let set = inFlight.get(campaign.id);
    if (set === undefined) {
      set = new Set();
      inFlight.set(campaign.id, set);
    }
    const running: Promise<void> = settle(campaign, recipient)
      .catch((error: unknown) => {
        // The claim's lease runs out and recovery takes it: unknown, never sent twice blindly.
        log.error(
          { err: error, campaign: campaign.id, seq: recipient.seq },
          "campaign send could not be settled",
        );
      })
      .finally(() => set.delete(running));
    set.add(running);
  };

  const runCampaign = async (campaign: Campaign, now: number) => {
    if ((heldUntil.get(campaign.id) ?? 0) > now) return;
    const room = maxInFlight - inFlightCount();
    if (room <= 0) return;
    const mps = campaign.sendRateMps ?? deps.campaignMpsOf(campaign.phoneNumberId);
    const limit = Math.min(room, Math.max(1, Math.ceil((mps * tickMs) / 1000)));
    const standing = await deps.standings.get(campaign.phoneNumberId);
    if (standing?.quality === "RED") {
      // Started or resumed while Meta still rates the number RED: sending now would only lower it further.
      const paused = await deps.store.transition(
        campaign.tenantId,
        campaign.id,
        ["running"],
        "paused",
        now,
        "quality_red",
      );
      if (paused !== undefined) {
        deps.metrics?.autoPaused.inc({ tenant: campaign.tenantId, reason: "quality_red" });
        log.error(
          {
            alert: "campaign_paused",
            tenant: campaign.tenantId,
            campaign: campaign.id,
            reason: "quality_red",
          },
          "campaign paused: its number's quality is RED; resume it once Meta lifts the flag",
        );
      }
      return;
    }
    const messagingLimit = standing?.messagingLimit ?? deps.configuredLimitOf(campaign.phoneNumberId);
    const claimed = await deps.store.claim({
      campaignId: campaign.id,
      owner: deps.owner,
      limit,
      now,
      leaseMs,
      quietTimezones: quietTimezones(campaign.quietHours, timezones, now),
      ...(messagingLimit === undefined ? {} : { messagingLimit }),
      windowMs,
    });
    if (claimed.limitedUntil !== undefined && claimed.recipients.length < limit) {
      // Asked again when a place frees up, or in a minute, whichever is first (a tier upgrade).
      heldUntil.set(campaign.id, Math.min(claimed.limitedUntil, now + 60_000));
      log.info(
        { campaign: campaign.id, messagingLimit, until: new Date(claimed.limitedUntil).toISOString() },
        "campaign held at the number's messaging limit",
      );
    }
    for (const recipient of claimed.recipients) launch(campaign, recipient);
    if (claimed.recipients.length === 0 && (inFlight.get(campaign.id)?.size ?? 0) === 0) {
      if (await deps.store.completeIfDone(campaign.id, now)) {
        inFlight.delete(campaign.id);
        heldUntil.delete(campaign.id);
        log.info({ campaign: campaign.id, tenant: campaign.tenantId }, "campaign completed");
      }
    }
  };

  const tick = async () => {
    const now = deps.now();
    if (now - lastRecovery >= recoverEveryMs) {
      lastRecovery = now;
      // The grace is time in which a status could have come. While no process ran (a crash, a crash
      // loop, an outage) none could: Meta holds it in its retries, or the events queue has it but
      // not yet handled. So a runner resends only once it has itself been up for the grace;
      // before that it passes a grace reaching back to the epoch (nothing is resent).
      const upForGrace = now - startedAt >= unknownGraceMs;
      const recovered = await deps.store.recover(now, upForGrace ? unknownGraceMs : now);
      if (recovered.unknown > 0) deps.metrics?.recovered.inc({ outcome: "unknown" }, recovered.unknown);
      if (recovered.resent > 0) deps.metrics?.recovered.inc({ outcome: "resent" }, recovered.resent);
      if (recovered.unknown + recovered.resent > 0) log.warn(recovered, "abandoned campaign sends recovered");
    }
    const campaigns = await deps.store.runnable(now);
    // A different campaign first each tick, so one big campaign never starves the others.
    const offset = campaigns.length === 0 ? 0 : Math.floor(now / tickMs) % campaigns.length;
    for (let i = 0; i < campaigns.length; i++) {
      await runCampaign(campaigns[(i + offset) % campaigns.length] as Campaign, now);
    }
  };

  const schedule = () => {
    if (closed) return;
    timer = setTimeout(() => {
      ticking = tick()
        .catch((error: unknown) => log.error({ err: error }, "campaign tick failed"))
        .finally(schedule);
    }, tickMs);
  };
  schedule();

  return {
    async close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      await ticking;
      await Promise.allSettled([...inFlight.values()].flatMap((set) => [...set]));
    },
  };
}
