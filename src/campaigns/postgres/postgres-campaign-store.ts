import type { Pool } from "pg";
import { migrateMessageStore, tableNames } from "../../store/postgres/index.js";
import { newCampaignId } from "../campaign-id.js";
import type { CampaignStore, NumberStandings, SuppressionList } from "../ports.js";
import { createPostgresCampaignLifecycle } from "./campaign-lifecycle.js";
import { createPostgresCampaignReport } from "./campaign-report-query.js";
import { createPostgresClaim } from "./claim-recipients.js";
import { createPostgresNumberStandings } from "./number-standings.js";
import { createPostgresRecipientFeedback } from "./recipient-feedback.js";
import { createPostgresSettleAndRecover } from "./settle-and-recover.js";
import { createPostgresSuppressionList } from "./suppression-list.js";

export interface PostgresCampaignStoreOptions {
  /** A node-postgres pool the caller owns (and ends at shutdown). */
  readonly pool: Pool;
  /** The message store's schema, which holds the campaign tables; default `public`. */
  readonly schema?: string;
  /** A new campaign's id; default newCampaignId (16 random base64url characters, the first a letter or a digit). */
  readonly newId?: () => string;
}

/** The distributed campaign store: the three ports on one object. */
export type PostgresCampaignStore = CampaignStore & {
  readonly suppressions: SuppressionList;
  readonly standings: NumberStandings;
};

/**
 * The PostgreSQL adapter of `CampaignStore`, `SuppressionList` and `NumberStandings`. Its tables are
 * the message store's migration 5: expects a migrated schema (see `openPostgresCampaignStore`).
 */
export function createPostgresCampaignStore(options: PostgresCampaignStoreOptions): PostgresCampaignStore {
  const { pool } = options;
  const tables = tableNames(options.schema ?? "public");
  const newId = options.newId ?? newCampaignId;
  return {
    ...createPostgresCampaignLifecycle(pool, tables, newId),
    claim: createPostgresClaim(pool, tables),
    ...createPostgresSettleAndRecover(pool, tables),
    ...createPostgresRecipientFeedback(pool, tables),
    report: createPostgresCampaignReport(pool, tables),
    suppressions: createPostgresSuppressionList(pool, tables),
    standings: createPostgresNumberStandings(pool, tables),
  };
}

/** Startup: migrates the schema (the message store's migrations), then returns the store on it. */
export async function openPostgresCampaignStore(
  options: PostgresCampaignStoreOptions,
): Promise<PostgresCampaignStore> {
  await migrateMessageStore(options.pool, options.schema === undefined ? {} : { schema: options.schema });
  return createPostgresCampaignStore(options);
}
