import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import type { Registry } from "prom-client";
import type { CampaignCommands } from "../campaigns/index.js";
import type { AppConfig } from "../config/index.js";
import {
  type ConsoleEventBus,
  createConsoleActions,
  createDashboardSource,
  createSimulator,
  createTemplateCatalog,
  registerConsole,
} from "../console/index.js";
import { createRedisEventBus } from "../console/redis/index.js";
import type { ConversationStateStore, TurnJournal } from "../conversation/index.js";
import type { JobQueueSample, Logger } from "../observability/index.js";
import type { OutboundQueue } from "../outbound/index.js";
import type { RedisClient } from "../queue/redis/index.js";
import { packageRoot } from "../router/index.js";
import type { MessageStore } from "../store/index.js";

export interface ConsoleServerParts {
  /** The message log, publishing on `events`. */
  readonly store: MessageStore;
  readonly conversationState: ConversationStateStore;
  /** The recorded outbound queue: an operator's message is logged (with who wrote it) as it is queued. */
  readonly outboundQueue: OutboundQueue;
  readonly events: ConsoleEventBus;
  readonly logger: Logger;
  /** This process's metrics, when it runs the ingress or the sender. */
  readonly registry?: Registry | undefined;
  readonly sampleJobQueues?: (() => Promise<readonly JobQueueSample[]>) | undefined;
  /** The turn journal, for the turns set aside. */
  readonly turnJournal?: TurnJournal | undefined;
  /** Where the simulator posts webhooks: the public listener, once it listens. */
  readonly ingressUrl: () => string | undefined;
  /** Campaign commands; absent: the campaigns API answers that they need a database. */
  readonly campaigns?: CampaignCommands | undefined;
}

/** A Redis bus for announcing changes; a failed publish is logged at most once a minute (a console misses a live update, nothing else). */
export function consoleEventPublisher(redis: RedisClient, prefix: string, logger: Logger): ConsoleEventBus {
  let lastWarnedAt = 0;
  return createRedisEventBus({
    redis,
    prefix,
    onPublishError: (error) => {
      if (Date.now() - lastWarnedAt < 60_000) return;
      lastWarnedAt = Date.now();
      logger.warn(
        { err: error },
        "console events: a publish failed; live consoles miss updates until Redis answers",
      );
    },
  });
}

/** The package's version, for the OpenAPI document. */
function packageVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version: string })
    .version;
}

/** Registers the console (API and front end) on an admin app, with this mode's parts. */
export async function mountConsole(
  app: FastifyInstance,
  config: AppConfig,
  parts: ConsoleServerParts,
): Promise<void> {
  const now = Date.now;
  const deps = {
    tenants: config.tenants,
    store: parts.store,
    actions: createConsoleActions({
      store: parts.store,
      conversationState: parts.conversationState,
      outboundQueue: parts.outboundQueue,
      now,
    }),
    events: parts.events,
    session: {
      operators: parts.store.operators,
      servedTenantIds: config.tenants.map((tenant) => tenant.id),
      sessionMs: config.console.sessionMs,
      secureCookies: config.console.secureCookies,
      now,
    },
    simulator: createSimulator({
      tenants: config.tenants,
      graphBaseUrl: config.graph.baseUrl,
      ingressUrl: parts.ingressUrl,
      now,
    }),
    dashboard: createDashboardSource({
      store: parts.store,
      registry: parts.registry,
      sampleJobQueues: parts.sampleJobQueues,
      metaSilentMinutes: config.console.metaSilentMinutes,
      now,
    }),
    templates: createTemplateCatalog({ graph: config.graph, now }),
    turnJournal: parts.turnJournal,
    campaigns: parts.campaigns,
    maxStreams: config.console.maxStreams,
    now,
  };
  await registerConsole(app, {
    deps,
    logger: parts.logger,
    staticDir: join(packageRoot(), "dist", "console"),
    version: packageVersion(),
  });
}
