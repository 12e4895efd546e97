import pg from "pg";
import type { AppConfig, TenantConfig } from "../config/index.js";
import { type ConsoleEventBus, publishingMessageStore } from "../console/index.js";
import type { Logger } from "../observability/index.js";
import type { MessageStore } from "../store/index.js";
import { openPostgresMessageStore } from "../store/postgres/index.js";
import { createStoreRecorders, type StoreRecorders } from "../store/recording/index.js";
import type { LocalMessageStore } from "./backends/backend.js";

/** Days a tenant's message log is kept when its settings do not say (`retentionDays`). */
export const DEFAULT_RETENTION_DAYS = 90;
const PURGE_EVERY_MS = 3_600_000;

export interface MessageLog {
  readonly store: MessageStore;
  readonly recorders: StoreRecorders;
  /** Where the log lives, for the startup line. */
  readonly description: string;
  /** Deletes each tenant's rows older than its retention, now; answers the rows deleted. */
  purge(): Promise<number>;
  close(): Promise<void>;
}

/** A tenant's retention in days: settings `retentionDays` (a whole number ≥ 1), else 90. */
export function retentionDaysOf(tenant: TenantConfig): number {
  const days = tenant.settings.retentionDays;
  if (days === undefined) return DEFAULT_RETENTION_DAYS;
  if (typeof days !== "number" || !Number.isInteger(days) || days < 1) {
    throw new TypeError(`tenant "${tenant.id}": retentionDays must be a whole number of days ≥ 1`);
  }
  return days;
}

/**
 * The message log the configuration asks for: PostgreSQL when DATABASE_URL
 * is set (migrated at start), else the backend's own store (the embedded
 * SQLite file this process owns), else none (several Redis-mode processes cannot share a
 * SQLite file: set DATABASE_URL). Runs the retention purge hourly.
 */
export async function openMessageLog(
  config: AppConfig,
  logger: Logger,
  local: (() => LocalMessageStore) | undefined,
  /** Where each change to the log is announced for live consoles; none: nobody listens. */
  events?: ConsoleEventBus,
): Promise<MessageLog | undefined> {
  for (const tenant of config.tenants) retentionDaysOf(tenant);
  let store: MessageStore;
  let description: string;
  let end = async () => {};
  if (config.databaseUrl !== undefined) {
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 10 });
    pool.on("error", (error) =>
      logger.warn({ err: error }, "message log: idle PostgreSQL connection failed"),
    );
    try {
      store = await openPostgresMessageStore({ pool, schema: config.databaseSchema });
    } catch (error) {
      await pool.end();
      throw error;
    }
    const url = new URL(config.databaseUrl);
    description = `postgres ${url.hostname}:${url.port || "5432"}${url.pathname}${config.databaseSchema === "public" ? "" : ` (schema ${config.databaseSchema})`}`;
    end = () => pool.end();
  } else if (local !== undefined) {
    ({ store, description } = local());
  } else {
    logger.warn(
      "message log off: DATABASE_URL is not set, and worker processes on Redis cannot share a SQLite file; set DATABASE_URL to keep conversations",
    );
    return undefined;
  }
  const purge = async () => {
    let deleted = 0;
    const now = Date.now();
    for (const tenant of config.tenants) {
      const counts = await store.purgeOlderThan(tenant.id, now - retentionDaysOf(tenant) * 86_400_000);
      deleted += counts.messages + counts.deliveries + counts.turns + counts.conversations;
    }
    return deleted;
  };
  const runPurge = () => {
    purge().then(
      (deleted) => {
        if (deleted > 0) logger.info({ deleted }, "message log: rows past their tenant's retention deleted");
      },
      (error: unknown) => logger.warn({ err: error }, "message log: retention purge failed"),
    );
  };
  if (events !== undefined) store = publishingMessageStore(store, events);
  const timer = setInterval(runPurge, PURGE_EVERY_MS);
  timer.unref();
  runPurge();
  return {
    store,
    recorders: createStoreRecorders(store, logger),
    description,
    purge,
    async close() {
      clearInterval(timer);
      await end();
    },
  };
}
