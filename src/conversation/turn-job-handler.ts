import type { TenantConfig } from "../config/index.js";
import type { Logger, Tracing } from "../observability/index.js";
import { maskConversationKey } from "../observability/index.js";
import type { OutboundQueue } from "../outbound/index.js";
import {
  type ConversationInbox,
  type JobOutcome,
  jobDone,
  type QueueJob,
  retryAt,
  type TurnJob,
} from "../queue/index.js";
import type {
  ConversationLock,
  ConversationStateStore,
  Responder,
  TurnJournal,
  TurnMediaReader,
  TypingIndicator,
} from "./ports.js";
import { createTurnProcessor, type TurnOutcome } from "./process-turn.js";
import type { TurnMetrics } from "./turn-metrics.js";

/** What a turn job handler is given. */
export interface TurnHandlerDeps {
  readonly inbox: ConversationInbox;
  readonly outbound: OutboundQueue;
  readonly responder: Responder;
  readonly tenants: readonly TenantConfig[];
  readonly logger: Logger;
  readonly metrics?: TurnMetrics;
  /** Mark-as-read with the typing indicator at the start of each turn; optional. */
  readonly typing?: TypingIndicator;
  /** Conversation mode and recent history; optional. */
  readonly state?: ConversationStateStore;
  /** Guards against a second turn of the same conversation running at once; optional. */
  readonly lock?: ConversationLock;
  /** Each turn and its steps, written before they are acted on (see TurnJournal). */
  readonly journal?: TurnJournal;
  /** Reads voice notes, images and documents before the responder runs; optional. */
  readonly media?: TurnMediaReader;
  /** ms since the epoch. */
  readonly now: () => number;
  /** A span per turn (see createTurnProcessor); optional (off). */
  readonly tracing?: Tracing;
}

export interface TurnHandlerOptions {
  /** How long a turn that finds its conversation locked waits before trying again, ms; default 250. */
  readonly busyRetryMs?: number;
  /** Most messages handled as one turn; default 100. */
  readonly maxMessagesPerTurn?: number;
  /** Runs of one turn before it is set aside unanswered; default 5. */
  readonly maxTurnAttempts?: number;
}

/**
 * One run of a turn job, for either queue backend: drains the conversation's
 * inbox through the turn processor (see process-turn.ts); a burst still
 * arriving, or a busy conversation or agent, retries the job later (no
 * attempt spent).
 */
export function createTurnJobHandler(deps: TurnHandlerDeps, options: TurnHandlerOptions = {}) {
  const byId = new Map(deps.tenants.map((tenant) => [tenant.id, tenant]));
  const busyRetryMs = options.busyRetryMs ?? 250;
  const processTurn = createTurnProcessor(
    {
      inbox: deps.inbox,
      outbound: deps.outbound,
      responder: deps.responder,
      tenant: (id) => byId.get(id),
      ...(deps.lock === undefined ? {} : { lock: deps.lock }),
      ...(deps.typing === undefined ? {} : { typing: deps.typing }),
      ...(deps.state === undefined ? {} : { state: deps.state }),
      ...(deps.journal === undefined ? {} : { journal: deps.journal }),
      ...(deps.media === undefined ? {} : { media: deps.media }),
      ...(deps.tracing === undefined ? {} : { tracing: deps.tracing }),
      logger: deps.logger,
      now: deps.now,
    },
    {
      ...(options.maxMessagesPerTurn === undefined ? {} : { maxMessages: options.maxMessagesPerTurn }),
      ...(options.maxTurnAttempts === undefined ? {} : { maxAttempts: options.maxTurnAttempts }),
    },
  );

  const record = (job: TurnJob, outcome: TurnOutcome, startedAt: number) => {
    deps.metrics?.runs.inc({ tenant: job.tenantId, outcome: outcome.kind });
    if (outcome.kind !== "handled") return;
    for (const turn of outcome.turns) {
      if (turn.resumed === true) deps.metrics?.resumed.inc({ tenant: job.tenantId });
      if (turn.setAside === true) {
        deps.metrics?.setAside.inc({ tenant: job.tenantId });
        continue;
      }
      deps.metrics?.messagesPerTurn.observe({ tenant: job.tenantId }, turn.messages);
      if (turn.stale > 0) deps.metrics?.staleMessages.inc({ tenant: job.tenantId }, turn.stale);
      const latencyMs = Math.max(0, turn.queuedAt - turn.receivedAt);
      deps.metrics?.latencySeconds.observe({ tenant: job.tenantId }, latencyMs / 1000);
    }
    deps.metrics?.turnSeconds.observe({ tenant: job.tenantId }, (deps.now() - startedAt) / 1000);
  };

  return async function runTurnJob(job: QueueJob<TurnJob>): Promise<JobOutcome> {
    const startedAt = deps.now();
    const outcome = await processTurn(job.data);
    record(job.data, outcome, startedAt);
    const log = deps.logger.child({
      tenant: job.data.tenantId,
      conversation: maskConversationKey(job.data.conversationKey),
    });
    if (outcome.kind === "postpone" || outcome.kind === "busy") {
      const until =
        outcome.kind === "postpone" ? outcome.until : deps.now() + (outcome.retryAfterMs ?? busyRetryMs);
      log.debug({ outcome: outcome.kind, delayMs: until - deps.now() }, "turn postponed");
      return retryAt(until);
    }
    if (outcome.kind === "handled") {
      for (const turn of outcome.turns) log.info({ ...turn }, "turn handled");
    }
    return jobDone(outcome.kind);
  };
}
