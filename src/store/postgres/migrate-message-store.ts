import type { Pool, PoolClient } from "pg";
import { StoreSchemaTooNewError } from "../errors.js";
import type { MigrateResult, Migration } from "../migration.js";
import { MIGRATIONS } from "./migrations.js";
import { quoteIdentifier, tableNames } from "./sql-names.js";
import { withTransaction } from "./with-transaction.js";

export interface MigrateOptions {
  /** Schema holding the store's tables; created when missing. Default `public`. */
  readonly schema?: string;
  /** Default: the store's own migrations. Tests pass others. */
  readonly migrations?: readonly Migration[];
}

export type { MigrateResult } from "../migration.js";

/**
 * Brings the store's schema up to date; run at startup. Each migration runs in
 * its own transaction under a transaction-scoped advisory lock keyed by the
 * schema, so processes starting together apply each migration once: the
 * second waits, then finds it applied. Refuses (`StoreSchemaTooNewError`) a
 * schema migrated by a newer sharpsharp.
 */
export async function migrateMessageStore(pool: Pool, options: MigrateOptions = {}): Promise<MigrateResult> {
  const schema = options.schema ?? "public";
  const migrations = [...(options.migrations ?? MIGRATIONS)].sort((a, b) => a.version - b.version);
  const known = migrations.at(-1)?.version ?? 0;
  const applied: number[] = [];
  let version = await withTransaction(pool, async (client) => {
    await lockSchema(client, schema);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(schema)}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${tableNames(schema).migrations} (
         version integer PRIMARY KEY,
         name text NOT NULL,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    return currentVersion(client, schema);
  });
  if (version > known) throw new StoreSchemaTooNewError(schema, version, known);
  for (const migration of migrations) {
    if (migration.version <= version) continue;
    const ran = await withTransaction(pool, async (client) => {
      await lockSchema(client, schema);
      // Another process may have applied it while this one waited for the lock.
      if ((await currentVersion(client, schema)) >= migration.version) return false;
      await client.query(`SET LOCAL search_path TO ${quoteIdentifier(schema)}`);
      await client.query(migration.sql);
      await client.query(`INSERT INTO ${tableNames(schema).migrations} (version, name) VALUES ($1, $2)`, [
        migration.version,
        migration.name,
      ]);
      return true;
    });
    if (ran) applied.push(migration.version);
    version = migration.version;
  }
  return { applied, version };
}

async function lockSchema(client: PoolClient, schema: string): Promise<void> {
  await client.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [
    `sharpsharp:migrate:${schema}`,
  ]);
}

async function currentVersion(client: PoolClient, schema: string): Promise<number> {
  const result = await client.query<{ version: number | null }>(
    `SELECT max(version) AS version FROM ${tableNames(schema).migrations}`,
  );
  return result.rows[0]?.version ?? 0;
}
