import type { Registry } from "prom-client";
import { createGatewayResponder, type LlmClient, llmFromConfig } from "../agent/index.js";
import type { CampaignCommands, CampaignEvents } from "../campaigns/index.js";
import { type AppConfig, GRAPH_SEND_TIMEOUT_MS } from "../config/index.js";
import type { ConsoleEventBus } from "../console/index.js";
import {
  createGraphTypingIndicator,
  createTurnJobHandler,
  createTurnMetrics,
  createTypingIndicatorCounter,
  type Responder,
  type TurnDecisionHook,
  type TurnMediaReader,
} from "../conversation/index.js";
import { createDeliveryMetrics, createEventJobHandler } from "../delivery/index.js";
import { resolveMediaSettings } from "../media/index.js";
import { createQueueMetrics, type Logger, type Tracing, tracingOff } from "../observability/index.js";
import {
  createOutboundJobHandler,
  createOutboundMetrics,
  createReengagement,
  reengagementTemplates,
  sendReplyDepsFrom,
} from "../outbound/index.js";
import { type IntentRouter, loadIntentRouter } from "../router/index.js";
import type { GraphApiClient, InboundMessage } from "../whatsapp/index.js";
import type { JobHandlers, WorkerPorts } from "./backends/backend.js";
import { openCampaignStores, wireCampaigns } from "./campaigns.js";
import { createGraphClients } from "./graph-clients.js";
import { DOCUMENT_THREAD_HEAP_MB, startMediaThread } from "./media-exchange/client.js";
import { createMediaReading, purgeKeptMedia } from "./media-reading.js";
import { type MessageLog, openMessageLog, retentionDaysOf } from "./message-log.js";
import { closeWithinGrace, createCloseStack } from "./process-lifecycle.js";

/** How the pipeline runs in a process; every field has a default. Both composition roots take these. */
export interface PipelineRunOptions {
  readonly logger?: Logger;
  /** Turn jobs in flight; default 16 (64 with an LLM: agent turns mostly wait on it). */
  readonly turnConcurrency?: number;
  /** Send jobs in flight; default 16. */
  readonly outboundConcurrency?: number;
  /** Status and other webhook events in flight; default 16. */
  readonly eventsConcurrency?: number;
  /** How long shutdown waits for running jobs, ms; default config.shutdownGraceMs. */
  readonly graceMs?: number;
  /** Graph API call timeout, ms; default 10,000. */
  readonly graphTimeoutMs?: number;
  /** The intent classifier (default: the package's model file, loaded at start). */
  readonly router?: IntentRouter;
  /** Replaces the LLM client made from config.llm (tests). */
  readonly llm?: LlmClient;
  /**
   * The process's tracing, owned by the caller; default: made by the composition root from
   * config.tracing (tests give one with an in-memory exporter).
   */
  readonly tracing?: Tracing;
}

export interface PipelineOptions extends PipelineRunOptions {
  readonly logger: Logger;
  /** Where every metric of the pipeline is registered. */
  readonly registry: Registry;
  /** What answers a turn; default: the gateway's (router, then the LLM agent). Tests give their own. */
  readonly responder?: Responder | undefined;
  /** Logged when running jobs outlive the grace period: what becomes of them in this mode. */
  readonly abandoned: string;
  /** Whether this process sends running campaigns; default true (every worker does, sharing the work). */
  readonly runCampaigns?: boolean;
  /** Where the message log announces its changes for live consoles. */
  readonly consoleEvents?: ConsoleEventBus | undefined;
}

export interface Pipeline {
  /** The message log, when there is one. */
  readonly messageLog: MessageLog | undefined;
  /** What the console acts through: the conversation state the bot obeys and the recorded outbound queue. */
  readonly consolePorts: {
    readonly conversationState: WorkerPorts["conversationState"];
    readonly outboundQueue: WorkerPorts["outboundQueue"];
  };
  /** Campaign commands for the console API; absent when campaigns have no database here. */
  readonly campaigns: CampaignCommands | undefined;
  /**
   * Stops taking jobs, lets the running ones finish within the grace period,
   * then closes the Graph API clients and the message log.
   */
  close(): Promise<void>;
}

/**
 * The gateway behind the ingress, the same in every mode: the message log
 * (recording what flows through the ports, when there is one), the
 * responder (router, then the LLM agent), the turn, send and events job
 * handlers, and the queue metrics, wired onto one backend's ports and run
 * by its job runners.
 */
export async function startPipeline(
  config: AppConfig,
  ports: WorkerPorts,
  options: PipelineOptions,
): Promise<Pipeline> {
  const { logger, registry } = options;
  const tracing = options.tracing ?? tracingOff;
  const now = Date.now;
  const opened = createCloseStack(logger);
  try {
    const log = await openMessageLog(config, logger, ports.localMessageStore, options.consoleEvents);
    opened.push(async () => log?.close());
    const recorders = log?.recorders;
    // Each port as the log sees it (recorded), when there is a log.
    const state = recorders?.conversationState(ports.conversationState) ?? ports.conversationState;
    const inbox = recorders?.inbox(ports.inbox) ?? ports.inbox;
    const outboundQueue = recorders?.outboundQueue(ports.outboundQueue) ?? ports.outboundQueue;
    const deliveryStatuses = recorders?.deliveryStatuses(ports.deliveryStatuses) ?? ports.deliveryStatuses;

    const graph = createGraphClients(config, options.graphTimeoutMs ?? GRAPH_SEND_TIMEOUT_MS);
    opened.push(() => graph.close());
    const campaignStores = await openCampaignStores(config, ports.localCampaignStores);
    if (campaignStores !== undefined) opened.push(() => campaignStores.close());
    else
      logger.warn("campaigns off: they need DATABASE_URL in Redis mode (every worker shares the audience)");
    const campaigns =
      campaignStores === undefined
        ? undefined
        : wireCampaigns(config, {
            stores: campaignStores.stores,
            graphClientFor: graph.clientFor,
            numberLimiter: ports.sender.limiter,
            campaignPace: ports.campaignPace,
            pause: ports.sender.pause,
            sent: deliveryStatuses,
            state,
            logger,
            registry,
            now,
          });
    const gatewayResponder =
      options.responder ??
      createGatewayResponder(config, {
        stores: ports.agentStores,
        registry,
        logger,
        router: options.router ?? loadIntentRouter(),
        state,
        ...decisionHook(recorders?.onTurnDecision, campaigns?.countCheckouts),
        ...(options.llm === undefined ? {} : { llm: options.llm }),
        tracing,
      });
    const responder = campaigns === undefined ? gatewayResponder : campaigns.wrap(gatewayResponder);
    const mediaThread = startMediaThread(config, {
      graphTimeoutMs: options.graphTimeoutMs ?? GRAPH_SEND_TIMEOUT_MS,
      logger,
    });
    opened.push(() => mediaThread.close());
    // Up and prepared before the gateway takes traffic, not at the first voice note: loading the thread
    // takes a core for about half a second, which the text turns of the first seconds would otherwise
    // wait on (bench/RESULTS.md). A thread that fails to start does not stop the gateway.
    await mediaThread.start().then(
      (prepared) => logger.info(prepared, "media thread ready"),
      (error: unknown) => {
        logger.warn({ err: error }, "the media thread did not start; the next medium tries again");
      },
    );
    // PDFs on a thread of their own, started at the first one: a reading that will not end stops its
    // thread, which must not take voice notes' downloads and transcriptions down with it. Its heap is
    // capped, so a document that would take gigabytes stops that thread instead of the process.
    const documentThread = startMediaThread(config, {
      graphTimeoutMs: options.graphTimeoutMs ?? GRAPH_SEND_TIMEOUT_MS,
      logger,
      maxHeapMb: DOCUMENT_THREAD_HEAP_MB,
      documents: true,
    });
    opened.push(() => documentThread.close());
    const media = await createMediaReading(config, {
      llm: options.llm ?? llmFromConfig(config),
      graphClientFor: graph.clientFor,
      exchanges: {
        download: mediaThread.download,
        transcribe: mediaThread.transcribe,
        pdfText: documentThread.pdfText,
      },
      state,
      store: log?.store,
      registry,
      logger,
    });
    opened.push(keepPurgingKeptMedia(config, logger));
    const handlers = createJobHandlers(config, {
      media,
      ...ports,
      conversationState: state,
      inbox,
      outboundQueue,
      deliveryStatuses,
      responder,
      graphClientFor: graph.clientFor,
      ...(campaigns === undefined ? {} : { campaignEvents: campaigns.events }),
      ...(recorders === undefined ? {} : { recordMessage: recorders.recordMessage }),
      logger,
      registry,
      now,
      tracing,
    });
    createQueueMetrics(registry, { sample: () => ports.sampleJobQueues(), now });
    const runners = ports.runJobs(handlers, {
      turnConcurrency: options.turnConcurrency ?? (config.llm === undefined ? 16 : 64),
      outboundConcurrency: options.outboundConcurrency ?? 16,
      eventsConcurrency: options.eventsConcurrency ?? 16,
    });
    opened.push(() =>
      closeWithinGrace(runners, options.graceMs ?? config.shutdownGraceMs, logger, options.abandoned),
    );
    if (campaigns !== undefined && options.runCampaigns !== false) {
      const runner = campaigns.run();
      opened.push(() => runner.close());
    }
    return {
      messageLog: log,
      // The raw state: the console writes the mode and its assignee to the log itself.
      consolePorts: { conversationState: ports.conversationState, outboundQueue },
      campaigns: campaigns?.commands,
      close: () => opened.close(),
    };
  } catch (error) {
    await opened.close();
    throw error;
  }
}

/** Hourly, while any tenant keeps media bytes: what is past its tenant's retention goes. */
function keepPurgingKeptMedia(config: AppConfig, logger: Logger): () => Promise<void> {
  if (!config.tenants.some((tenant) => resolveMediaSettings(tenant).keep)) return async () => {};
  const purge = () => {
    purgeKeptMedia(config, retentionDaysOf).then(
      (days) => {
        if (days > 0) logger.info({ days }, "kept media past their tenant's retention deleted");
      },
      (error: unknown) => logger.warn({ err: error }, "kept media purge failed"),
    );
  };
  const timer = setInterval(purge, 3_600_000);
  timer.unref();
  purge();
  return async () => clearInterval(timer);
}

/** What the three job handlers run on: the (recorded) ports, the responder and the Graph API clients. */
interface HandlerDeps
  extends Pick<
    WorkerPorts,
    | "inbox"
    | "conversationState"
    | "conversationLock"
    | "turnJournal"
    | "outboundQueue"
    | "sender"
    | "deliveryStatuses"
  > {
  readonly responder: Responder;
  readonly media: TurnMediaReader;
  /** Campaign statuses, number quality and user preferences from Meta's webhooks; none: campaigns off. */
  readonly campaignEvents?: CampaignEvents;
  readonly graphClientFor: (tenantId: string) => GraphApiClient;
  /** The message log's recorder for messages that are recorded and never answered. */
  readonly recordMessage?: (message: InboundMessage) => Promise<unknown>;
  readonly logger: Logger;
  readonly registry: Registry;
  readonly now: () => number;
  readonly tracing: Tracing;
}

/** The turn, send and events handlers, with their metrics and the re-engagement after 131047. */
function createJobHandlers(config: AppConfig, deps: HandlerDeps): JobHandlers {
  const { logger, registry, now, graphClientFor, tracing } = deps;
  const outboundMetrics = createOutboundMetrics(registry);
  const templates = reengagementTemplates(config.tenants);
  const reengage = createReengagement({
    queue: deps.outboundQueue,
    templateFor: (tenantId) => templates.get(tenantId),
    logger,
    metrics: outboundMetrics,
  });
  const turns = createTurnJobHandler(
    {
      inbox: deps.inbox,
      outbound: deps.outboundQueue,
      responder: deps.responder,
      tenants: config.tenants,
      logger,
      metrics: createTurnMetrics(registry),
      state: deps.conversationState,
      lock: deps.conversationLock,
      journal: deps.turnJournal,
      media: deps.media,
      typing: createGraphTypingIndicator({
        graphClientFor,
        logger,
        counter: createTypingIndicatorCounter(registry),
      }),
      now,
      tracing,
    },
    { maxTurnAttempts: config.worker.maxTurnAttempts },
  );
  const outbound = createOutboundJobHandler(
    sendReplyDepsFrom(
      {
        graphClientFor,
        logger,
        metrics: outboundMetrics,
        now,
        random: Math.random,
        sent: deps.deliveryStatuses,
        reengage,
        tracing,
      },
      {},
      deps.sender,
    ),
  );
  const applyEvent = createEventJobHandler({
    store: deps.deliveryStatuses,
    logger,
    metrics: createDeliveryMetrics(registry),
    reengage,
    ...(deps.recordMessage === undefined ? {} : { recordMessage: deps.recordMessage }),
    tracing,
  });
  const campaignEvents = deps.campaignEvents;
  const events: JobHandlers["events"] =
    campaignEvents === undefined
      ? applyEvent
      : async (job) => {
          // Campaigns first: a failure retries the job, and applying a status twice is harmless.
          if (job.data.kind === "status") await campaignEvents.onStatus(job.data);
          else if (job.data.kind === "change") await campaignEvents.onChange(job.data);
          return applyEvent(job);
        };
  return { turns, outbound, events };
}

/** The message log's decision hook and the campaigns' checkout count, either, both or none. */
function decisionHook(...hooks: (TurnDecisionHook | undefined)[]): { onTurnDecision?: TurnDecisionHook } {
  const present = hooks.filter((hook): hook is TurnDecisionHook => hook !== undefined);
  if (present.length === 0) return {};
  if (present.length === 1) return { onTurnDecision: present[0] as TurnDecisionHook };
  return {
    onTurnDecision: async (decision) => {
      for (const hook of present) await hook(decision);
    },
  };
}
