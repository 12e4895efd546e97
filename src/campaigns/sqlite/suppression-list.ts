import type { SqliteDatabase } from "../../sqlite/index.js";
import type { SuppressionList } from "../ports.js";

export function createSqliteSuppressionList(db: SqliteDatabase): SuppressionList {
  const add =
    db.prepare(`INSERT INTO store_suppressions (tenant_id, customer_id, source, at) VALUES (?, ?, ?, ?)
    ON CONFLICT (tenant_id, customer_id) DO NOTHING`);
  const remove = db.prepare("DELETE FROM store_suppressions WHERE tenant_id = ? AND customer_id = ?");
  const has = db.prepare("SELECT 1 FROM store_suppressions WHERE tenant_id = ? AND customer_id = ?");
  const count = db.prepare<[string], { n: number }>(
    "SELECT count(*) AS n FROM store_suppressions WHERE tenant_id = ?",
  );
  return {
    optOut: async (tenantId, customerId, source, at) => {
      add.run(tenantId, customerId, source, at);
    },
    optIn: async (tenantId, customerId) => remove.run(tenantId, customerId).changes === 1,
    isSuppressed: async (tenantId, customerId) => has.get(tenantId, customerId) !== undefined,
    count: async (tenantId) => (count.get(tenantId) as { n: number }).n,
  };
}
