import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { TenantConfig } from "../config/index.js";
import {
  type ActiveSpan,
  fingerprint,
  type IngressMetrics,
  type Logger,
  maskConversationKey,
  type Tracing,
} from "../observability/index.js";
import { type InboundQueue, QueueUnavailableError } from "../queue/index.js";
import {
  type InboundEvent,
  type InboundMessage,
  type ParsedWebhook,
  type ParseWebhookOptions,
  parseWebhook,
  splitByAnswerability,
  WebhookShapeError,
} from "../whatsapp/index.js";
import { replyError } from "./reply-error.js";
import { isValidSignature } from "./signature.js";
import { createTenantCounters } from "./tenant-counters.js";
import type { TenantDirectory } from "./tenant-directory.js";

export interface WebhookRouteDeps {
  readonly tenants: TenantDirectory;
  readonly queue: InboundQueue;
  readonly metrics: IngressMetrics;
  readonly logger: Logger;
  readonly now: () => number;
  /** Each webhook in a span whose traceparent its messages and statuses carry; off: nothing is added. */
  readonly tracing: Tracing;
}

/** The outcome label of a request, read by the latency histogram in onResponse. */
export const OUTCOME = Symbol("outcome");
type WithOutcome = FastifyRequest & { [OUTCOME]?: string };

function createUnavailableLog(logger: Logger, now: () => number) {
  // In an outage every request fails the same way: log the first and then a count per 10 s.
  let windowStart = 0;
  let suppressed = 0;
  return (error: unknown) => {
    const at = now();
    if (at - windowStart < 10_000) {
      suppressed += 1;
      return;
    }
    logger.warn(
      { err: error, suppressedSinceLast: suppressed },
      "webhook answered 503: the queue could not record it (Meta will redeliver)",
    );
    windowStart = at;
    suppressed = 0;
  };
}

/** Counts what is not answered and what arrived from the future; logs the latter (a clock or a payload is off). */
function flagMessages(messages: readonly InboundMessage[], deps: WebhookRouteDeps, log: FastifyBaseLogger) {
  for (const message of messages) {
    if (message.unanswerable !== undefined) {
      deps.metrics.unanswered.cell(message.tenantId, message.unanswerable).inc();
    }
    if (message.futureTimestamp !== undefined) {
      deps.metrics.futureTimestamps.cell(message.tenantId).inc();
      log.warn(
        {
          tenant: message.tenantId,
          wamidHash: fingerprint(message.wamid),
          aheadSeconds: message.futureTimestamp - message.timestamp,
        },
        "message timestamp lies in the future; ordered by its arrival instead",
      );
    }
  }
}

function record(parsed: ParsedWebhook, tenantId: string, deps: WebhookRouteDeps, log: FastifyBaseLogger) {
  for (const { code, phoneNumberId } of parsed.webhookErrors) {
    // The label comes from the request body: keep it to Meta-shaped codes so it cannot grow without bound.
    const label =
      typeof code === "number" && Number.isInteger(code) && code >= 0 && code < 1e7 ? String(code) : "other";
    deps.metrics.webhookErrors.cell(tenantId, label).inc();
    log.warn({ tenant: tenantId, phoneNumberId, code }, "Meta reported an error in value.errors");
  }
  for (const dropped of parsed.dropped) {
    deps.metrics.dropped.cell(tenantId, dropped.reason).inc();
    log.warn(
      { tenant: tenantId, reason: dropped.reason, wamidHash: fingerprint(dropped.id) },
      "webhook item dropped",
    );
  }
}

function logRecorded(
  log: FastifyBaseLogger,
  tenantId: string,
  message: InboundMessage | undefined,
  result: string | undefined,
) {
  log.debug(
    {
      tenant: tenantId,
      conversation: maskConversationKey(message?.conversationKey ?? ""),
      wamidHash: fingerprint(message?.wamid),
      type: message?.type,
      result,
    },
    "message recorded",
  );
}

/**
 * POST /webhook[/:tenant]: signature over the raw bytes first, then JSON and
 * the envelope, then one durable enqueue; 200 only after it. Transport only:
 * nothing here calls a model or the Graph API.
 */
export function registerWebhookRoute(app: FastifyInstance, deps: WebhookRouteDeps) {
  const logUnavailable = createUnavailableLog(deps.logger, deps.now);
  const warnedNumbers = new Set<string>();
  // A number the tenant does not list is still recorded (the signature proves Meta sent it), never
  // answered (its token may not be the tenant's), and said once.
  const warnUnlisted = (tenantId: string, phoneNumberId: string) => {
    const key = `${tenantId}:${phoneNumberId}`;
    if (warnedNumbers.has(key) || warnedNumbers.size > 1000) return;
    warnedNumbers.add(key);
    deps.logger.warn(
      { tenant: tenantId, phoneNumberId },
      "webhook for a business number this tenant does not list in phoneNumberIds; recorded under the tenant, not answered",
    );
  };

  // What parseWebhook asks about business numbers, made once per tenant rather than as closures per request.
  const numberRules = new Map<string, Pick<ParseWebhookOptions, "tenantForPhoneNumber" | "isListedNumber">>();
  const numberRulesOf = (tenant: TenantConfig) => {
    let rules = numberRules.get(tenant.id);
    if (rules === undefined) {
      rules = {
        tenantForPhoneNumber: (phoneNumberId) => {
          const owner = deps.tenants.owner(phoneNumberId, tenant);
          if (deps.tenants.isForeign(phoneNumberId, owner)) warnUnlisted(owner.id, phoneNumberId);
          return owner.id;
        },
        isListedNumber: (phoneNumberId, ownerId) =>
          !deps.tenants.isForeign(phoneNumberId, deps.tenants.find(ownerId) ?? tenant),
      };
      numberRules.set(tenant.id, rules);
    }
    return rules;
  };
  const countersOf = createTenantCounters(deps.metrics);
  const debugEnabled = () => deps.logger.isLevelEnabled("debug");

  const handle = async (request: FastifyRequest, reply: FastifyReply, span: ActiveSpan | undefined) => {
    const req = request as WithOutcome;
    const receivedAt = deps.now();
    const tenant = deps.tenants.find((request.params as { tenant?: string }).tenant);
    if (tenant === undefined) {
      // Answered as a bad signature, so nobody can tell which tenant ids exist; the metric still says.
      req[OUTCOME] = "unknown_tenant";
      return replyError(reply, "badSignature", "invalid signature");
    }
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    if (!isValidSignature(raw, request.headers["x-hub-signature-256"], tenant.appSecret)) {
      req[OUTCOME] = "bad_signature";
      return replyError(reply, "badSignature", "invalid signature");
    }
    let parsed: ParsedWebhook;
    try {
      const rules = numberRulesOf(tenant);
      const text = raw.toString("utf8");
      parsed = parseWebhook(JSON.parse(text), {
        tenantId: tenant.id,
        receivedAt,
        sourceText: text,
        tenantForPhoneNumber: rules.tenantForPhoneNumber,
        isListedNumber: rules.isListedNumber,
      });
    } catch (error) {
      req[OUTCOME] = "malformed";
      if (error instanceof WebhookShapeError) return replyError(reply, "malformedJson", error.message);
      if (error instanceof SyntaxError) return replyError(reply, "malformedJson", "body is not JSON");
      throw error;
    }
    if (parsed.webhookErrors.length > 0 || parsed.dropped.length > 0) {
      record(parsed, tenant.id, deps, request.log);
    }
    flagMessages(parsed.messages, deps, request.log);
    const split = splitByAnswerability(parsed.messages);
    const { recordOnly } = split;
    let answerable = split.answerable;
    let events = recordOnly.length === 0 ? parsed.events : [...parsed.events, ...recordOnly];
    if (span !== undefined) {
      span.setAttributes({ "ss.tenant": tenant.id, "ss.webhook.messages": answerable.length });
      ({ answerable, events } = carryTrace(span, answerable, events));
    }

    let outcome: Awaited<ReturnType<InboundQueue["enqueue"]>>;
    try {
      outcome = await deps.queue.enqueue({ messages: answerable, events });
    } catch (error) {
      if (!(error instanceof QueueUnavailableError)) throw error;
      req[OUTCOME] = "unavailable";
      logUnavailable(error);
      return replyError(reply, "unavailable", "temporarily unavailable, retry later");
    }
    req[OUTCOME] = "accepted";
    const counters = countersOf(tenant.id);
    for (let index = 0; index < outcome.messages.length; index++) {
      const result = outcome.messages[index];
      (result === "duplicate" ? counters.messageDuplicate : counters.messageAccepted).inc();
      if (debugEnabled()) logRecorded(request.log, tenant.id, answerable[index], result);
    }
    for (let index = 0; index < outcome.events.length; index++) {
      counters.event(events[index]?.kind ?? "unknown", outcome.events[index] ?? "duplicate").inc();
    }
    return reply.code(200).send();
  };

  // Chosen once: with tracing off a webhook costs nothing more than it did without it.
  const traced =
    (route: string) =>
    (request: FastifyRequest, reply: FastifyReply): Promise<unknown> =>
      deps.tracing.inSpan(
        `POST ${route}`,
        { kind: "server", attributes: { [HTTP_METHOD]: "POST", [HTTP_ROUTE]: route } },
        async (span) => {
          const sent = await handle(request, reply, span);
          const outcome = (request as WithOutcome)[OUTCOME];
          span.setAttributes({ "ss.webhook.outcome": outcome, [HTTP_STATUS]: reply.statusCode });
          if (reply.statusCode >= 500) span.fail(outcome ?? String(reply.statusCode));
          return sent;
        },
      );
  const untraced = (request: FastifyRequest, reply: FastifyReply) => handle(request, reply, undefined);
  app.post("/webhook", deps.tracing.enabled ? traced("/webhook") : untraced);
  app.post("/webhook/:tenant", deps.tracing.enabled ? traced("/webhook/:tenant") : untraced);
}

// OpenTelemetry's stable HTTP attribute names.
const HTTP_METHOD = "http.request.method";
const HTTP_ROUTE = "http.route";
const HTTP_STATUS = "http.response.status_code";

/** The webhook's span, carried by what it records: its messages to their turn, its statuses to theirs. */
function carryTrace(
  span: ActiveSpan,
  messages: InboundMessage[],
  events: InboundEvent[],
): { answerable: InboundMessage[]; events: InboundEvent[] } {
  const traceparent = span.traceparent;
  if (traceparent === undefined) return { answerable: messages, events };
  return {
    answerable: messages.map((message) => ({ ...message, traceparent })),
    events: events.map((event) => (event.kind === "status" ? { ...event, traceparent } : event)),
  };
}
