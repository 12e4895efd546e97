import { randomBytes } from "node:crypto";
import pg from "pg";

/** PostgreSQL the integration tests use (trust auth on loopback); CI starts it (see .ci/run). */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** Whether Postgres answers. Under CI=true the tests run regardless, so a missing Postgres fails them instead of skipping. */
export async function postgresAvailable(url = TEST_DATABASE_URL): Promise<boolean> {
  const probe = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  probe.on("error", () => {});
  try {
    await probe.connect();
    await probe.query("SELECT 1");
    return true;
  } catch {
    return false;
  } finally {
    await probe.end().catch(() => {});
  }
}

const available = await postgresAvailable();
if (!available && process.env.CI === "true") {
  // Under CI a missing Postgres is a failure, never a silent skip.
  throw new Error(
    `PostgreSQL does not answer at ${TEST_DATABASE_URL}, and CI=true requires it (start it: see .ci/run)`,
  );
}

/** Skip Postgres-backed suites on a laptop without Postgres, never in CI. */
export const skipWithoutPostgres = !available;

export function createTestPool(): pg.Pool {
  const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 8 });
  pool.on("error", () => {});
  return pool;
}

/** A schema name no other test file uses; drop it with `dropSchema` afterwards. */
export function uniqueSchema(label: string): string {
  return `sstest_${label}_${randomBytes(4).toString("hex")}`;
}

export async function dropSchema(pool: pg.Pool, schema: string): Promise<void> {
  await pool.query(`DROP SCHEMA IF EXISTS "${schema.replaceAll('"', '""')}" CASCADE`);
}
