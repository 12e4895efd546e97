import type { Pool } from "pg";
import type { TableNames } from "../../store/postgres/index.js";
import type { SuppressionList } from "../ports.js";

export function createPostgresSuppressionList(pool: Pool, tables: TableNames): SuppressionList {
  const { suppressions } = tables;
  return {
    async optOut(tenantId, customerId, source, at) {
      await pool.query(
        `INSERT INTO ${suppressions} (tenant_id, customer_id, source, at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (tenant_id, customer_id) DO NOTHING`,
        [tenantId, customerId, source, new Date(at)],
      );
    },
    async optIn(tenantId, customerId) {
      const result = await pool.query(
        `DELETE FROM ${suppressions} WHERE tenant_id = $1 AND customer_id = $2`,
        [tenantId, customerId],
      );
      return result.rowCount === 1;
    },
    async isSuppressed(tenantId, customerId) {
      const result = await pool.query(
        `SELECT 1 FROM ${suppressions} WHERE tenant_id = $1 AND customer_id = $2`,
        [tenantId, customerId],
      );
      return result.rowCount === 1;
    },
    async count(tenantId) {
      const result = await pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${suppressions} WHERE tenant_id = $1`,
        [tenantId],
      );
      return result.rows[0]?.n ?? 0;
    },
  };
}
