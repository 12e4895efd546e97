import type { SqliteDatabase } from "../../sqlite/index.js";
import { migrateSqliteMessageStore } from "../../store/sqlite/index.js";
import { newCampaignId } from "../campaign-id.js";
import type { CampaignStore, NumberStandings, SuppressionList } from "../ports.js";
import { createSqliteCampaignLifecycle } from "./campaign-lifecycle.js";
import { createSqliteCampaignReport } from "./campaign-report-query.js";
import { createSqliteNumberStandings } from "./number-standings.js";
import { createSqliteRecipientClaims } from "./recipient-claims.js";
import { createSqliteRecipientFeedback } from "./recipient-feedback.js";
import { createSqliteSuppressionList } from "./suppression-list.js";

export interface SqliteCampaignStoreOptions {
  /** A new campaign's id; default newCampaignId (16 random base64url characters, the first a letter or a digit). */
  readonly newId?: () => string;
  /** Clock for the migration bookkeeping, ms since the epoch; default `Date.now`. */
  readonly now?: () => number;
  /**
   * Resolves once the writes so far are committed. Given where writes are batched per turn of the
   * event loop (the embedded gateway): a claim is answered only then, because its sender acts on it
   * outside the process at once; a claim lost to a kill -9 after its send would be sent again.
   */
  readonly claimCommitted?: () => Promise<void>;
}

/** The embedded campaign store: the three ports on one object. */
export type SqliteCampaignStore = CampaignStore & {
  readonly suppressions: SuppressionList;
  readonly standings: NumberStandings;
};

/**
 * The SQLite adapter of `CampaignStore`, `SuppressionList` and `NumberStandings`, on the process's
 * one connection (the caller owns and closes it). Its tables are the message store's migration 5,
 * run here too (a no-op once done), so it throws `StoreSchemaTooNewError` on a newer file.
 * Statements run inside async functions: a failure is a rejection, never a throw at the call site.
 */
export function createSqliteCampaignStore(
  db: SqliteDatabase,
  options: SqliteCampaignStoreOptions = {},
): SqliteCampaignStore {
  migrateSqliteMessageStore(db, options.now === undefined ? {} : { now: options.now });
  const newId = options.newId ?? newCampaignId;
  const suppressions = createSqliteSuppressionList(db);
  const standings = createSqliteNumberStandings(db);
  return {
    ...createSqliteCampaignLifecycle(db, newId),
    ...createSqliteRecipientClaims(db, options.claimCommitted),
    ...createSqliteRecipientFeedback(db),
    report: createSqliteCampaignReport(db),
    suppressions,
    standings,
  };
}
