import type { Pool } from "pg";
import type { MessageStore } from "../ports.js";
import { createPostgresConsole } from "./console.js";
import { createConsoleQueries } from "./console-queries.js";
import { migrateMessageStore } from "./migrate-message-store.js";
import { createPostgresOperatorStore } from "./operator-store.js";
import { createPurge } from "./purge.js";
import { createRecordWrites } from "./record-writes.js";
import { tableNames } from "./sql-names.js";

export interface PostgresMessageStoreOptions {
  /** A node-postgres pool the caller owns (and ends at shutdown). */
  readonly pool: Pool;
  /** Schema holding the tables; default `public`. Tests use a unique one each. */
  readonly schema?: string;
  /** Clock for the end of the dashboard's activity, ms since the epoch; default `Date.now`. */
  readonly now?: () => number;
}

/** The PostgreSQL adapter of `MessageStore`. Expects a migrated schema: see `openPostgresMessageStore`. */
export function createPostgresMessageStore(options: PostgresMessageStoreOptions): MessageStore {
  const tables = tableNames(options.schema ?? "public");
  return {
    ...createRecordWrites(options.pool, tables),
    ...createConsoleQueries(options.pool, tables),
    purgeOlderThan: createPurge(options.pool, tables),
    console: createPostgresConsole(options.pool, tables, options.now ?? Date.now),
    operators: createPostgresOperatorStore(options.pool, tables),
  };
}

/** Startup: migrates the schema (see `migrateMessageStore`), then returns the store on it. */
export async function openPostgresMessageStore(options: PostgresMessageStoreOptions): Promise<MessageStore> {
  await migrateMessageStore(options.pool, options.schema === undefined ? {} : { schema: options.schema });
  return createPostgresMessageStore(options);
}
