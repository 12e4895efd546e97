import type { AgentStores } from "../../agent/index.js";
import type { ConversationLock, ConversationStateStore, TurnJournal } from "../../conversation/index.js";
import type { DeliveryStatusStore } from "../../delivery/index.js";
import type { JobQueueSample } from "../../observability/index.js";
import type { OutboundQueue, SenderPorts, SendRateLimiter } from "../../outbound/index.js";
import type {
  ConversationInbox,
  EventJob,
  InboundQueue,
  JobHandler,
  OutboundJob,
  QueueStatus,
  TurnJob,
} from "../../queue/index.js";
import type { MessageStore } from "../../store/index.js";
import type { CampaignStores } from "../campaigns.js";
import type { Closable } from "../process-lifecycle.js";

/**
 * One backend as the pipeline sees it: the same typed set of ports in every
 * mode (Redis and BullMQ, or one process on SQLite), so the two modes differ
 * only in the bundle they pass. An adapter for a port is picked in
 * `backends/<mode>.ts` (the message store apart, in message-log.ts).
 */
export interface Backend {
  /** Where the queues live, for startup lines and the health app ("redis 127.0.0.1:6379", "sqlite /data/sharpsharp.db"). */
  readonly description: string;
  /** What the webhook ingress needs. */
  readonly ingress: IngressPorts;
  /** The turn, send and status sides, opened on first call (an ingress-only process never opens them). */
  worker(): WorkerPorts;
  /** Closes what the backend opened; call it after the job runners have stopped. */
  close(): Promise<void>;
}

export interface IngressPorts {
  readonly inbound: InboundQueue;
  readonly status: QueueStatus;
}

export interface WorkerPorts {
  readonly inbox: ConversationInbox;
  readonly conversationState: ConversationStateStore;
  readonly conversationLock: ConversationLock;
  /** Each turn and its steps, written before they are acted on. */
  readonly turnJournal: TurnJournal;
  readonly agentStores: AgentStores;
  readonly outboundQueue: OutboundQueue;
  /** The send order gate, the send rate limiter (Meta's limits) and the tenant send pause. */
  readonly sender: SenderPorts;
  readonly deliveryStatuses: DeliveryStatusStore;
  /**
   * The message log in this process's own file, for when DATABASE_URL is unset (embedded only: several
   * Redis-mode processes cannot share a file). Opened (and migrated) on call.
   */
  readonly localMessageStore: (() => LocalMessageStore) | undefined;
  /** The campaigns' share of each number's rate (campaignThroughputOf), paced across processes like replies. */
  readonly campaignPace: SendRateLimiter;
  /** Campaigns in this process's own file when DATABASE_URL is unset (embedded only); opened on call. */
  readonly localCampaignStores: (() => CampaignStores) | undefined;
  /** Runs the three job queues with these handlers; returns the runners, started. */
  runJobs(handlers: JobHandlers, options: JobRunOptions): readonly Closable[];
  /** Depth and oldest waiting job per queue, for the queue metrics. */
  sampleJobQueues(): Promise<readonly JobQueueSample[]>;
}

/** What runs each queue's jobs. */
export interface JobHandlers {
  readonly turns: JobHandler<TurnJob>;
  readonly outbound: JobHandler<OutboundJob>;
  readonly events: JobHandler<EventJob>;
}

/** Jobs of each queue in flight in this process. */
export interface JobRunOptions {
  readonly turnConcurrency: number;
  readonly outboundConcurrency: number;
  readonly eventsConcurrency: number;
}

/** A message store and where it lives, for the startup line. */
export interface LocalMessageStore {
  readonly store: MessageStore;
  readonly description: string;
}
