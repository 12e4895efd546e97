import type { SqliteDatabase } from "../../sqlite/index.js";
import { StoreSchemaTooNewError } from "../errors.js";
import type { MigrateResult, Migration } from "../migration.js";
import { SQLITE_MIGRATIONS } from "./migrations.js";

export interface SqliteMigrateOptions {
  /** Default: the store's own migrations. Tests pass others. */
  readonly migrations?: readonly Migration[];
  /** Clock for `applied_at`, ms since the epoch; default `Date.now`. */
  readonly now?: () => number;
}

/**
 * Brings the store's tables in the shared SQLite file up to date, all pending
 * migrations in one IMMEDIATE transaction: a failure leaves the file as it
 * was. The version lives in `store_migrations`, not in `PRAGMA user_version`,
 * which is one number for the whole file and other modules share the file.
 * Refuses (`StoreSchemaTooNewError`) a file migrated by a newer sharpsharp.
 */
export function migrateSqliteMessageStore(
  db: SqliteDatabase,
  options: SqliteMigrateOptions = {},
): MigrateResult {
  const migrations = [...(options.migrations ?? SQLITE_MIGRATIONS)].sort((a, b) => a.version - b.version);
  const known = migrations.at(-1)?.version ?? 0;
  const now = options.now ?? Date.now;
  const migrate = db.transaction((): MigrateResult => {
    db.exec(`CREATE TABLE IF NOT EXISTS store_migrations (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at INTEGER NOT NULL
    ) STRICT`);
    const row = db.prepare("SELECT max(version) AS version FROM store_migrations").get() as {
      version: number | null;
    };
    const version = row.version ?? 0;
    if (version > known) {
      throw new StoreSchemaTooNewError(
        "store_* (SQLite)",
        version,
        known,
        "upgrade sharpsharp or point SHARPSHARP_DATA_DIR at another directory",
      );
    }
    const record = db.prepare("INSERT INTO store_migrations (version, name, applied_at) VALUES (?, ?, ?)");
    const applied: number[] = [];
    for (const migration of migrations) {
      if (migration.version <= version) continue;
      db.exec(migration.sql);
      record.run(migration.version, migration.name, now());
      applied.push(migration.version);
    }
    return { applied, version: Math.max(version, known) };
  });
  return migrate.immediate();
}
