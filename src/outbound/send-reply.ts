import { setTimeout as sleep } from "node:timers/promises";
import type { ActiveSpan, Logger, Tracing } from "../observability/index.js";
import { fingerprint, maskConversationKey } from "../observability/index.js";
import {
  giveUp as giveUpJob,
  type JobOutcome,
  jobDone,
  type OutboundJob,
  type QueueJob,
  retryAt,
} from "../queue/index.js";
import { type GraphApiClient, GraphApiError } from "../whatsapp/index.js";
import { classifySendError, type SendRetryPolicy } from "./classify-send-error.js";
import { customerOf } from "./customer-of.js";
import { OutboundGivenUpError } from "./errors.js";
import type { OutboundMetrics, SendOutcome } from "./outbound-metrics.js";
import type { SendRateLimiter, SentMessageRecorder, TenantSendPause } from "./ports.js";
import type { Reengage } from "./reengagement.js";
import type { GiveUpReason } from "./send-error-codes.js";
import type { SendOrderGate } from "./send-order-gate.js";
import { numberPauseScope } from "./send-pause-scope.js";

/** Jobs whose wamid a sender remembers after sending them (about 100 bytes each). */
const SENT_REMEMBERED = 10_000;

/** What sending one reply needs. */
export interface SendReplyDeps {
  readonly limiter: SendRateLimiter;
  readonly pause: TenantSendPause;
  readonly graphClientFor: (tenantId: string) => GraphApiClient;
  readonly logger: Logger;
  readonly metrics: OutboundMetrics | undefined;
  readonly now: () => number;
  readonly random: () => number;
  /** How long a rejected token (190) pauses the tenant's sends, and a blocked number (368) its own, ms. */
  readonly pauseMs: number;
  readonly retryPolicy: Omit<SendRetryPolicy, "random">;
  /** Records each accepted message's wamid (ties its statuses to the reply); none: not recorded. */
  readonly sent?: SentMessageRecorder;
  /** Called for a reply given up with 131047 (outside the 24 h window); none: only recorded. */
  readonly reengage?: Reengage;
  /** Keeps a conversation's sends in queue order; none: sent as they come. */
  readonly order?: SendOrderGate;
  /** A reply held back for an earlier one is checked again after this long (or woken sooner), ms. */
  readonly orderPollMs: number;
  /** A reply held back this long is sent anyway (counted in ss_outbound_order_overdue_total), ms. */
  readonly orderMaxWaitMs: number;
  /** A span per run of a send job under its turn's, and one for the Graph API call; optional (off). */
  readonly tracing?: Tracing;
}

type State = Pick<OutboundJob, "failedAttempts" | "unknownOutcomeRetried" | "sending" | "orderHeldSince">;

/** Work the caller wants done once Meta took the reply and it is marked sent, alongside its delivery record. */
export type AlongsideSent = () => Promise<void>;

/**
 * The outbound processor: one BullMQ job is one reply part. Paused tenant →
 * delayed until the pause ends. A reply with an earlier one of its
 * conversation still to send is delayed (see createSendOrderGate). Then a slot from the shared rate limiters
 * (slept for when near, else the job is delayed), the send, and on failure
 * what `classifySendError` decides: retried later for a retry or a wait (own
 * attempt counter in the job data, the queue's attempts untouched), or given
 * up with an OutboundGivenUpError, whose message is the reason and Meta's
 * code. Done with the wamid Meta answered.
 */
export function createSendReply(deps: SendReplyDeps) {
  const count = (tenant: string, outcome: SendOutcome, code?: number) =>
    deps.metrics?.sends.inc({ tenant, outcome, code: code === undefined ? "" : String(code) });
  // The wamids Meta answered for the newest jobs this process sent (insertion-ordered, bounded): when the
  // queue lost the "sent" mark (Redis cut off or a failed commit right after the send), the job comes back
  // marked "sending", and without this the worker that sent it would send it again as an unknown outcome.
  const sentHere = new Map<string, string>();
  const rememberSent = (jobId: string | undefined, wamid: string) => {
    if (jobId === undefined) return;
    sentHere.set(jobId, wamid);
    if (sentHere.size > SENT_REMEMBERED) sentHere.delete(sentHere.keys().next().value as string);
  };

  const tracing = deps.tracing;
  return function sendReply(job: QueueJob<OutboundJob>, alongsideSent?: AlongsideSent): Promise<JobOutcome> {
    if (tracing === undefined || !tracing.enabled) return send(job, undefined, alongsideSent);
    const { tenantId, turnId, part } = job.data;
    return tracing.inSpan(
      "outbound.send",
      {
        kind: "consumer",
        parent: job.data.traceparent,
        attributes: { "ss.tenant": tenantId, "ss.turn.id": turnId, "ss.reply.part": part },
      },
      (span) => send(job, span, alongsideSent),
    );
  };

  async function send(
    job: QueueJob<OutboundJob>,
    span: ActiveSpan | undefined,
    alongsideSent: AlongsideSent | undefined,
  ): Promise<JobOutcome> {
    let data = job.data;
    const tenant = data.tenantId;
    const counted = (outcome: SendOutcome, code?: number) => {
      span?.setAttributes({ "ss.send.outcome": outcome, "ss.graph.code": code });
      count(tenant, outcome, code);
    };
    const log = deps.logger.child({
      tenant,
      conversation: maskConversationKey(data.conversationKey),
      job: job.id,
      part: data.part,
    });
    const delay = async (ms: number, state?: State): Promise<JobOutcome> => {
      if (state !== undefined) await job.updateData({ ...data, ...state });
      return retryAt(deps.now() + ms);
    };
    const giveUp = async (
      reason: GiveUpReason,
      code: number | undefined,
      cause?: unknown,
    ): Promise<JobOutcome> => {
      counted("given_up", code);
      deps.metrics?.givenUp.inc({ tenant, reason });
      span?.fail(reason);
      const error = new OutboundGivenUpError(reason, code, cause);
      log.warn({ reason, graphCode: code }, "outbound reply given up");
      return giveUpJob(error);
    };

    // Neither may throw: the send is over, and a thrown error would have the job send again.
    const recordSent = async (wamid: string, traceparent?: string) => {
      if (deps.sent === undefined) return;
      const { tenantId, phoneNumberId, conversationKey, to, recipient, turnId, part, reengagement } = data;
      try {
        await deps.sent.recordSent({
          tenantId,
          wamid,
          phoneNumberId,
          conversationKey,
          turnId,
          part,
          sentAt: deps.now(),
          ...(to === undefined ? {} : { to }),
          ...(recipient === undefined ? {} : { recipient }),
          ...(reengagement === true ? { reengagement } : {}),
          ...(traceparent === undefined ? {} : { traceparent }),
        });
      } catch (error) {
        log.warn({ err: error }, "could not record the sent message; its statuses will not find it");
      }
    };
    const reengage = async () => {
      try {
        await deps.reengage?.(data);
      } catch (error) {
        log.error({ err: error }, "could not queue the re-engagement template");
      }
    };

    const sentWamid = data.sentWamid ?? (job.id === undefined ? undefined : sentHere.get(job.id));
    if (sentWamid !== undefined) {
      // Sent before the process died or lost the job, or before its mark was lost; recording it again is harmless.
      if (data.sentWamid === undefined) counted("already_sent");
      await recordSent(sentWamid);
      return jobDone(sentWamid);
    }

    const numberScope = numberPauseScope(tenant, data.phoneNumberId);
    const pausedMs = await deps.pause.remainingMs(tenant, numberScope);
    if (pausedMs > 0) {
      counted("deferred_paused");
      return delay(pausedMs);
    }

    if (deps.order !== undefined && (await deps.order.check(data, job.id)) === "hold") {
      const heldSince = data.orderHeldSince ?? deps.now();
      if (deps.now() - heldSince < deps.orderMaxWaitMs) {
        counted("deferred_order");
        return delay(deps.orderPollMs, { orderHeldSince: heldSince });
      }
      deps.metrics?.orderOverdue.inc({ tenant });
      log.warn({ seq: data.seq, heldMs: deps.now() - heldSince }, "reply sent ahead of an earlier one");
    }
    if (data.orderHeldSince !== undefined) {
      // No longer held: a later delay (rate limit, retry) must not be cut short by a wake-up.
      const { orderHeldSince: _held, ...rest } = data;
      data = rest;
      await job.updateData(data);
    }

    // A `to` that is not a number would reach whoever Meta's prefixing makes of it: never send it.
    if (data.to !== undefined && !isWaId(data.to)) {
      log.warn({ reason: "invalid_recipient" }, "reply addressed to something that is not a wa_id; dropped");
      return giveUp("invalid_recipient", undefined);
    }

    let unknownOutcomeRetried = data.unknownOutcomeRetried === true;
    if (data.sending === true) {
      // The last send started and its worker never recorded how it ended (it died or lost the job).
      if (unknownOutcomeRetried) return giveUp("outcome_unknown", undefined);
      unknownOutcomeRetried = true;
      counted("retry_unknown");
    }

    const slot = await deps.limiter.reserve(data.phoneNumberId, customerOf(data));
    if (!slot.granted) {
      deps.metrics?.limiterWaits.observe({ kind: "delayed" }, slot.waitMs / 1000);
      return delay(slot.waitMs, { unknownOutcomeRetried });
    }
    if (slot.waitMs > 0) {
      deps.metrics?.limiterWaits.observe({ kind: "slot" }, slot.waitMs / 1000);
      await sleep(slot.waitMs);
    }

    const failedAttempts = data.failedAttempts ?? 0;
    // A job taken over while this worker was cut off from Redis is the new owner's to send (it throws).
    await job.ensureOwned?.();
    try {
      await job.updateData({ ...data, unknownOutcomeRetried, sending: true });
    } catch (error) {
      // The mark was not kept (a failed commit: a full disk, Redis cut off), so nothing was sent. A queue
      // that runs the job again with what this run left (the embedded runner) must not read it as a send
      // whose outcome is unknown: after two such runs the reply would be given up unsent. Only while the
      // job is still this run's, so a worker that took it over meanwhile keeps its own mark.
      await (job.ensureOwned?.() ?? Promise.resolve()).then(() => job.updateData(data)).catch(() => {});
      throw error;
    }
    try {
      // Meta prepends the business number's country code to a `to` without "+", which can reach the
      // wrong person (docs/whatsapp-cloud-api.md §6); a wa_id is the full international number.
      const customer =
        data.to !== undefined ? { to: internationalNumber(data.to) } : { recipient: data.recipient };
      const body = {
        recipient_type: "individual",
        ...customer,
        ...data.message,
        type: String(data.message.type),
      };
      const client = deps.graphClientFor(tenant);
      let sentTraceparent: string | undefined;
      const result =
        span === undefined || tracing === undefined
          ? await client.sendMessage(data.phoneNumberId, body)
          : await tracing.inSpan(
              "graph.send_message",
              {
                kind: "client",
                parent: span.traceparent,
                attributes: { "ss.tenant": tenant, "ss.message.type": String(data.message.type) },
              },
              async (call) => {
                const answered = await client.sendMessage(data.phoneNumberId, body);
                call.setAttributes({ "ss.wamid.hash": fingerprint(answered.wamid) });
                sentTraceparent = call.traceparent;
                return answered;
              },
            );
      // First thing after Meta's answer, so a crash from here on cannot send the reply again.
      rememberSent(job.id, result.wamid);
      await job
        .updateData({ ...data, unknownOutcomeRetried, sending: false, sentWamid: result.wamid })
        .catch((error: unknown) => log.warn({ err: error }, "could not mark the reply sent"));
      counted("sent");
      if (data.receivedAt !== undefined) {
        const elapsedMs = Math.max(0, deps.now() - data.receivedAt);
        deps.metrics?.endToEndSeconds.observe({ tenant }, elapsedMs / 1000);
      }
      span?.setAttributes({ "ss.wamid.hash": fingerprint(result.wamid) });
      // Once marked (a later reply may go only after this one can no longer be sent again), the delivery
      // record and what the caller does once the reply is sent (its send order) depend on neither each
      // other nor anything else: one wait for both, not two.
      await Promise.all([
        recordSent(result.wamid, sentTraceparent),
        alongsideSent?.().catch((error: unknown) => log.warn({ err: error }, "after the send")),
      ]);
      return jobDone(result.wamid);
    } catch (error) {
      const attempt = failedAttempts + 1;
      const code = error instanceof GraphApiError ? error.graphCode : undefined;
      const decision = classifySendError(
        error,
        { attempt, unknownOutcomeRetried },
        { ...deps.retryPolicy, random: deps.random },
      );
      if (decision.action === "give_up") {
        if (decision.pauseTenant === true) {
          await deps.pause.pause(tenant, deps.pauseMs);
          log.error(
            { alert: "graph_token_rejected", graphCode: code, pausedForMs: deps.pauseMs },
            "Meta rejected the tenant's Graph API token: its sends are paused; replace the token",
          );
        }
        if (decision.pauseNumber === true) {
          await deps.pause.pause(numberScope, deps.pauseMs);
          log.error(
            { alert: "graph_number_blocked", graphCode: code, pausedForMs: deps.pauseMs },
            "Meta blocked the business number for a while: its sends are paused",
          );
        }
        if (decision.reengage === true) await reengage();
        return giveUp(decision.reason, code, error);
      }
      const outcome: SendOutcome =
        decision.action === "retry_once_unknown" ? "retry_unknown" : decision.action;
      counted(outcome, code);
      log.info(
        { graphCode: code, attempt, delayMs: decision.delayMs, outcome },
        "outbound send failed; later",
      );
      return delay(decision.delayMs, {
        failedAttempts: attempt,
        unknownOutcomeRetried: unknownOutcomeRetried || decision.action === "retry_once_unknown",
        sending: false,
      });
    }
  }
}

/** Digits, with Meta's "+" or without: a wa_id as the inbound side keeps it (customer-identity.ts). */
function isWaId(to: string): boolean {
  return /^\+?\d{1,15}$/.test(to);
}

/** A wa_id ("2348012345678") as Meta wants `to`: with its "+". */
export function internationalNumber(waId: string): string {
  return waId.startsWith("+") ? waId : `+${waId}`;
}
