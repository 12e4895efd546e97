import { collectDefaultMetrics, Registry } from "prom-client";
import { createCampaignCommands } from "../campaigns/index.js";
import { type AppConfig, secretValuesOf } from "../config/index.js";
import { createLogger, type Logger } from "../observability/index.js";
import { startAdminListener } from "./admin-listener.js";
import { createRedisBackend } from "./backends/redis.js";
import { openCampaignStores } from "./campaigns.js";
import { consoleEventPublisher, mountConsole } from "./console-server.js";
import { StartupError } from "./errors.js";
import { openMessageLog } from "./message-log.js";
import { createCloseStack } from "./process-lifecycle.js";

export interface RunningConsole {
  /** The admin listener: the console at `/`, its API at `/api/v1`, /metrics. */
  readonly adminUrl: string;
  close(): Promise<void>;
}

/**
 * `sharpsharp console` in Redis mode: the operator console in a process of
 * its own, reading the message log in PostgreSQL and acting through the
 * same Redis ports as the workers (an operator's reply is queued for them to
 * send), hearing their changes over Redis pub/sub. Runs no jobs.
 */
export async function startConsole(
  config: AppConfig,
  options: { readonly logger?: Logger } = {},
): Promise<RunningConsole> {
  const logger = options.logger ?? createLogger({ level: config.logLevel, secrets: secretValuesOf(config) });
  if (config.redis.server === undefined) {
    throw new StartupError(
      "sharpsharp console runs beside Redis-mode workers (REDIS_URL); in embedded mode `sharpsharp start` serves the console itself",
    );
  }
  if (config.databaseUrl === undefined) {
    throw new StartupError(
      "sharpsharp console reads the message log: set DATABASE_URL (the PostgreSQL the workers write to)",
    );
  }
  const backend = createRedisBackend(config, { logger, role: "console" });
  const opened = createCloseStack(logger);
  opened.push(() => backend.close());
  try {
    const ports = backend.worker();
    const events = consoleEventPublisher(backend.redis, config.redis.keyPrefix, logger);
    opened.push(() => events.close());
    const log = await openMessageLog(config, logger, undefined, events);
    if (log === undefined) throw new StartupError("the message log did not open");
    opened.push(() => log.close());
    const campaignStores = await openCampaignStores(config, undefined);
    if (campaignStores !== undefined) opened.push(() => campaignStores.close());
    const campaigns =
      campaignStores === undefined
        ? undefined
        : createCampaignCommands({
            store: campaignStores.stores,
            suppressions: campaignStores.stores.suppressions,
            tenants: config.tenants,
            now: Date.now,
          });
    const registry = new Registry();
    collectDefaultMetrics({ register: registry, prefix: "ss_process_" });
    const ingressUrl = config.console.ingressUrl ?? `http://127.0.0.1:${config.server.port}`;
    const admin = await startAdminListener(
      config,
      { registry, ready: () => backend.ingress.status.ping(1000), description: backend.description },
      opened,
      (app) =>
        mountConsole(app, config, {
          store: log.store,
          conversationState: ports.conversationState,
          outboundQueue: log.recorders.outboundQueue(ports.outboundQueue),
          events,
          logger,
          sampleJobQueues: () => ports.sampleJobQueues(),
          turnJournal: ports.turnJournal,
          ingressUrl: () => ingressUrl,
          campaigns,
        }),
    );
    logger.info(
      { adminUrl: admin.url, backend: backend.description, messageLog: log.description },
      `sharpsharp console on ${admin.url}/ (queue: ${backend.description}; message log: ${log.description})`,
    );
    return { adminUrl: admin.url, close: () => opened.close() };
  } catch (error) {
    await opened.close();
    throw error;
  }
}
