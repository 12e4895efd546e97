import { join, resolve } from "node:path";
import {
  createLocalTenantSlots,
  createSqlitePendingActions,
  createSqliteTokenBudget,
} from "../../agent/embedded/index.js";
import { createSqliteCampaignStore } from "../../campaigns/sqlite/index.js";
import type { AppConfig } from "../../config/index.js";
import {
  createLocalConversationLock,
  createSqliteConversationState,
  createSqliteTurnJournal,
} from "../../conversation/embedded/index.js";
import { createSqliteDeliveryStatusStore } from "../../delivery/embedded/index.js";
import { type JobQueueSample, type Logger, maskConversationKey } from "../../observability/index.js";
import {
  createEmbeddedOutboundQueue,
  createLocalSendRateLimiter,
  createSqliteSendOrder,
  createSqliteTenantSendPause,
  OUTBOUND_KEEP,
} from "../../outbound/embedded/index.js";
import { createSendOrderGate } from "../../outbound/index.js";
import {
  createEmbeddedQueues,
  createJobRunner,
  createJobTable,
  type EmbeddedQueues,
  type JobRunner,
  type JobTable,
} from "../../queue/embedded/index.js";
import { type OutboundJob, QUEUE_NAMES, QueueUnavailableError } from "../../queue/index.js";
import {
  batchWritesPerTick,
  createWalSyncer,
  openSqliteDatabase,
  type SqliteDatabase,
  type TickCommits,
  type WalSyncer,
} from "../../sqlite/index.js";
import { createSqliteMessageStore } from "../../store/sqlite/index.js";
import type { Backend, JobHandlers, JobRunOptions, WorkerPorts } from "./backend.js";
import { campaignThroughputOf, throughputOf } from "./throughput.js";

export interface EmbeddedBackendOptions {
  readonly logger: Logger;
  /** How often expired rows are deleted and stranded inboxes get a turn again, ms; default 30,000. */
  readonly housekeepingMs?: number;
  readonly now?: () => number;
}

/** The embedded bundle, plus where its file is. */
export interface EmbeddedBackend extends Backend {
  readonly databasePath: string;
}

/**
 * Every port on one SQLite file in SHARPSHARP_DATA_DIR, owned by this one
 * process (a second is refused by the file's owner lock), with the job
 * runners in this process. Opens the file at once; a failed open throws.
 */
export function createEmbeddedBackend(config: AppConfig, options: EmbeddedBackendOptions): EmbeddedBackend {
  const databasePath = join(resolve(config.dataDir), "sharpsharp.db");
  const db = openSqliteDatabase({ dataDir: config.dataDir });
  let syncer: WalSyncer | undefined;
  try {
    const commits = batchWritesPerTick(db, (error) =>
      options.logger.error(
        { err: error },
        "a batch of writes to the embedded database could not be committed",
      ),
    );
    syncer = createWalSyncer(`${db.name}-wal`);
    return onFile(config, options, db, commits, syncer, databasePath);
  } catch (error) {
    syncer?.close().catch(() => {});
    db.close();
    throw error;
  }
}

/** A flush to disk covers the writes of this turn of the event loop too: they are committed first. */
function committingFirst(commits: TickCommits, syncer: WalSyncer): WalSyncer {
  return {
    sync() {
      try {
        commits.commitNow();
      } catch (error) {
        return Promise.reject(error);
      }
      return syncer.sync();
    },
    close: () => syncer.close(),
  };
}

/** What the job runners of this process share with the stores that wake them. */
interface Runners {
  turns?: JobRunner;
  outbound?: JobRunner;
  events?: JobRunner;
}

function onFile(
  config: AppConfig,
  options: EmbeddedBackendOptions,
  db: SqliteDatabase,
  commits: TickCommits,
  syncer: WalSyncer,
  databasePath: string,
): EmbeddedBackend {
  const { logger } = options;
  const now = options.now ?? Date.now;
  const description = `sqlite ${databasePath}`;
  const jobs = createJobTable(db);
  const stateStore = createSqliteConversationState({ db });
  const queues = createEmbeddedQueues({
    db,
    // The ingress's flush commits the webhooks' writes at once, then flushes.
    syncer: committingFirst(commits, syncer),
    jobs,
    dedupeTtlSeconds: config.ingress.dedupeTtlSeconds,
    enqueueTimeoutMs: config.ingress.enqueueTimeoutMs,
    isUrgent: (key, at) => stateStore.isUrgent(key, at),
    description,
  });
  const sendOrder = createSqliteSendOrder({ db });
  const runners: Runners = {};
  const outboundQueue = createEmbeddedOutboundQueue({
    jobs,
    order: sendOrder,
    added: () => runners.outbound?.notify(),
  });
  const deliveryStatuses = createSqliteDeliveryStatusStore({ db });
  const pause = createSqliteTenantSendPause({ db });
  const pending = createSqlitePendingActions({ db });
  const budget = createSqliteTokenBudget({ db });
  // A recorded step (a tool's call) is committed before the turn goes on; a repeatable one (the replies)
  // with the turn's later writes, before anything is sent (a send waits for its commit).
  const journal = createSqliteTurnJournal({
    db,
    stepRecorded: () => commits.committed(),
    commitFailures: () => commits.failures(),
  });
  const order = createSendOrderGate({
    order: sendOrder,
    jobState: async (id) => jobs.state(QUEUE_NAMES.outbound, id),
    wake: async (id) => {
      // Only a reply held back for an earlier one is woken; a rate-limit wait is not cut short.
      const held = jobs.read(QUEUE_NAMES.outbound, id) as OutboundJob | undefined;
      if (held?.orderHeldSince !== undefined && jobs.promote(QUEUE_NAMES.outbound, id, now())) {
        runners.outbound?.notify();
      }
    },
  });
  const housekeepingTimer = startHousekeeping(
    queues,
    jobs,
    [stateStore, deliveryStatuses, pause, pending, budget, sendOrder, journal],
    { logger, now, everyMs: options.housekeepingMs ?? 30_000 },
  );

  const worker: WorkerPorts = {
    inbox: queues.inbox,
    conversationState: stateStore,
    conversationLock: createLocalConversationLock({ ttlMs: config.worker.lockMs }),
    turnJournal: journal,
    agentStores: { slots: createLocalTenantSlots(config.worker.lockMs), pending, budget },
    outboundQueue,
    sender: {
      order,
      limiter: createLocalSendRateLimiter({
        ...throughputOf(config),
      }),
      pause,
    },
    deliveryStatuses,
    localMessageStore: () => ({ store: createSqliteMessageStore(db), description: `sqlite ${db.name}` }),
    campaignPace: createLocalSendRateLimiter({ ...campaignThroughputOf(config) }),
    // A claim is committed before its send leaves the process (see TickCommits).
    localCampaignStores: () => createSqliteCampaignStore(db, { claimCommitted: () => commits.committed() }),
    runJobs: (handlers, run) => runJobs(jobs, queues, commits, syncer, runners, handlers, run, logger),
    sampleJobQueues: async () => sampleJobQueues(jobs, runners, now()),
  };
  return {
    description,
    databasePath,
    ingress: { inbound: queues.inbound, status: queues.status },
    worker: () => worker,
    async close() {
      clearInterval(housekeepingTimer);
      try {
        await syncer.close();
      } finally {
        db.close();
      }
    },
  };
}

/** One in-process runner per queue, started; the queues' signals wake them. */
function runJobs(
  jobs: JobTable,
  queues: EmbeddedQueues,
  commits: TickCommits,
  syncer: WalSyncer,
  runners: Runners,
  handlers: JobHandlers,
  run: JobRunOptions,
  logger: Logger,
): JobRunner[] {
  // A turn's job id is its conversation key, which holds the customer's number: masked.
  const failed = (queue: string) => (error: unknown, job?: { id: string; final: boolean }) =>
    logger.warn(
      {
        err: error,
        queue,
        job:
          job === undefined ? undefined : queue === QUEUE_NAMES.turns ? maskConversationKey(job.id) : job.id,
        final: job?.final,
      },
      job === undefined ? "queue error" : "job failed",
    );
  // Each job's end is committed with its turn of the event loop; a commit that fails holds the job back.
  const written = () => commits.committed();
  // A run that failed while a commit failed is held back too, without spending an attempt.
  const commitFailures = () => commits.failures();
  const turns = createJobRunner(jobs, QUEUE_NAMES.turns, handlers.turns, {
    concurrency: run.turnConcurrency,
    written,
    commitFailures,
    onError: failed(QUEUE_NAMES.turns),
  });
  const outbound = createJobRunner(jobs, QUEUE_NAMES.outbound, handlers.outbound, {
    concurrency: run.outboundConcurrency,
    keep: OUTBOUND_KEEP,
    // The sender marks a send started, and then sent, in the job's data: committed before it goes on.
    dataUpdated: () => commits.committed(),
    written,
    // A send that fails on its own advances its conversation's send order, so such a run must not run
    // again: held back only on what the handler itself reads as "runs again" (QueueUnavailableError).
    heldBackOn: (error) => error instanceof QueueUnavailableError,
    // A send recorded as done must stay done after a power cut, or it would be sent twice: its
    // completion is flushed at once, but the send slot does not wait for that flush (waiting
    // behind the ingress's flushes raised the end-to-end p99 at 200 messages/s from 173 to 934 ms). The
    // completion is committed (`written`) before this runs, with the rest of its turn of the event loop.
    afterComplete: async () => {
      syncer.sync().catch(() => {});
    },
    onError: failed(QUEUE_NAMES.outbound),
  });
  const events = createJobRunner(jobs, QUEUE_NAMES.events, handlers.events, {
    concurrency: run.eventsConcurrency,
    written,
    commitFailures,
    onError: failed(QUEUE_NAMES.events),
  });
  Object.assign(runners, { turns, outbound, events });
  queues.signals.turnsRunning = () => turns.active;
  queues.signals.turnsDue = () => turns.notify();
  queues.signals.eventsDue = () => events.notify();
  for (const runner of [turns, outbound, events]) runner.start();
  return [turns, outbound, events];
}

/** Each queue's depth by state (running jobs counted as active, not waiting) and its oldest due job. */
function sampleJobQueues(jobs: JobTable, runners: Runners, at: number): JobQueueSample[] {
  return (
    [
      [QUEUE_NAMES.turns, runners.turns],
      [QUEUE_NAMES.outbound, runners.outbound],
      [QUEUE_NAMES.events, runners.events],
    ] as const
  ).map(([queue, runner]) => {
    const counts = jobs.counts(queue, at);
    const active = runner?.running() ?? 0;
    return {
      queue,
      counts: { ...counts, waiting: Math.max(0, (counts.waiting ?? 0) - active), active },
      oldestWaitingAt: jobs.oldestDueAt(queue, at, runner?.active ?? new Set()),
    };
  });
}

/** Deletes expired rows and gives stranded inboxes a turn again, every `everyMs`; never throws. */
function startHousekeeping(
  queues: EmbeddedQueues,
  jobs: JobTable,
  sweepers: readonly { sweepExpired(): number }[],
  options: { readonly logger: Logger; readonly now: () => number; readonly everyMs: number },
): NodeJS.Timeout {
  const { logger } = options;
  const housekeeping = () => {
    try {
      const revived = queues.sweepWaitingInboxes();
      if (revived > 0)
        logger.warn({ conversations: revived }, "messages waited too long without a turn; scheduled again");
      queues.sweepExpiredMarks();
      jobs.sweep(options.now());
      for (const store of sweepers) store.sweepExpired();
    } catch (error) {
      logger.warn({ err: error }, "embedded housekeeping failed");
    }
  };
  const timer = setInterval(housekeeping, options.everyMs);
  timer.unref();
  return timer;
}
