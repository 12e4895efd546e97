import type { Logger, Tracing } from "../observability/index.js";
import type { GraphApiClient } from "../whatsapp/index.js";
import type { SendRetryPolicy } from "./classify-send-error.js";
import type { OutboundMetrics } from "./outbound-metrics.js";
import type { SendRateLimiter, SentMessageRecorder, TenantSendPause } from "./ports.js";
import type { Reengage } from "./reengagement.js";
import type { SendOrderGate } from "./send-order-gate.js";
import type { SendReplyDeps } from "./send-reply.js";

/** What the sender is given, whichever backend runs it. */
export interface SenderDeps {
  /** The Graph API client of a tenant (its token); owned and closed by the caller. */
  readonly graphClientFor: (tenantId: string) => GraphApiClient;
  readonly logger: Logger;
  readonly metrics?: OutboundMetrics;
  /** ms since the epoch; when delayed jobs are due. */
  readonly now: () => number;
  /** [0, 1); jitters retry delays. */
  readonly random: () => number;
  /** Where accepted messages' wamids are recorded (the delivery status store); none: not recorded. */
  readonly sent?: SentMessageRecorder;
  /** What a 131047 give-up triggers (see createReengagement); none: only recorded. */
  readonly reengage?: Reengage;
  /** Spans for each send (see createSendReply); none: off. */
  readonly tracing?: Tracing;
}

/** How the sender behaves; every field has a default. */
export interface SenderOptions {
  /** How long a rejected token (190) pauses the tenant's sends, ms; default 900,000 (15 min). */
  readonly pauseMs?: number;
  /** Backoff and attempt limits (see classifySendError). */
  readonly retryPolicy?: Omit<SendRetryPolicy, "random">;
  /** A reply held back for an earlier one of its conversation is checked again after this long, ms; default 250. */
  readonly orderPollMs?: number;
  /** A reply held back this long for an earlier one is sent anyway, ms; default 60,000. */
  readonly orderMaxWaitMs?: number;
}

/** The sender's ports, whichever backend provides them. */
export interface SenderPorts {
  readonly order: SendOrderGate;
  readonly limiter: SendRateLimiter;
  readonly pause: TenantSendPause;
}

/** Everything one send needs, from the worker's dependencies and options with their defaults. */
export function sendReplyDepsFrom(
  deps: SenderDeps,
  options: SenderOptions,
  ports: SenderPorts,
): SendReplyDeps & { readonly order: SendOrderGate } {
  return {
    ...ports,
    orderPollMs: options.orderPollMs ?? 250,
    orderMaxWaitMs: options.orderMaxWaitMs ?? 60_000,
    graphClientFor: deps.graphClientFor,
    logger: deps.logger,
    metrics: deps.metrics,
    now: deps.now,
    random: deps.random,
    pauseMs: options.pauseMs ?? 900_000,
    retryPolicy: options.retryPolicy ?? {},
    ...(deps.sent === undefined ? {} : { sent: deps.sent }),
    ...(deps.reengage === undefined ? {} : { reengage: deps.reengage }),
    ...(deps.tracing === undefined ? {} : { tracing: deps.tracing }),
  };
}
