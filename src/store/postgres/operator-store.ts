import type { Pool } from "pg";
import {
  API_TOKEN_COLUMNS,
  type ApiTokenRow,
  distinctGrants,
  type GrantRow,
  normalEmail,
  OPERATOR_COLUMNS,
  type OperatorRow,
  SESSION_COLUMNS,
  type SessionRow,
  toApiTokenRecord,
  toOperatorRecords,
  toSessionRecord,
} from "../operator-rows.js";
import type { OperatorGrant, OperatorRecord, OperatorStore } from "../ports.js";
import type { TableNames } from "./sql-names.js";
import { withTransaction } from "./with-transaction.js";

/** Grants as two parallel arrays, for `unnest($n::text[], $m::text[])`. */
function grantArrays(grants: readonly OperatorGrant[]): [string[], string[]] {
  const distinct = distinctGrants(grants);
  return [distinct.map((grant) => grant.tenantId), distinct.map((grant) => grant.role)];
}

const dateOrNull = (ms: number | undefined) => (ms === undefined ? null : new Date(ms));

/**
 * Operator accounts, sessions and API tokens, the same rules as the SQLite
 * adapter's. An operator and its grants are written by one statement (CTEs),
 * so the pair is atomic without a transaction; replacing grants takes one.
 */
export function createPostgresOperatorStore(pool: Pool, tables: TableNames): OperatorStore {
  const grantsSelect = `SELECT operator_id, tenant_id, role FROM ${tables.operatorGrants}`;
  const withGrants = async (operators: OperatorRow[]): Promise<OperatorRecord | undefined> => {
    const row = operators[0];
    if (row === undefined) return undefined;
    const grants = await pool.query<GrantRow>(`${grantsSelect} WHERE operator_id = $1`, [row.id]);
    return toOperatorRecords([row], grants.rows)[0];
  };

  return {
    async createOperator(operator) {
      const result = await pool.query(
        `WITH created AS (
           INSERT INTO ${tables.operators} (${OPERATOR_COLUMNS}) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT DO NOTHING RETURNING id
         ), granted AS (
           INSERT INTO ${tables.operatorGrants} (operator_id, tenant_id, role)
           SELECT created.id, grant_of.tenant_id, grant_of.role
           FROM created, unnest($6::text[], $7::text[]) AS grant_of(tenant_id, role)
         )
         SELECT id FROM created`,
        [
          operator.id,
          normalEmail(operator.email),
          operator.name,
          operator.passwordHash,
          new Date(operator.createdAt),
          ...grantArrays(operator.grants),
        ],
      );
      return result.rowCount === 1 ? "created" : "exists";
    },

    async operatorByEmail(email) {
      const result = await pool.query<OperatorRow>(
        `SELECT ${OPERATOR_COLUMNS} FROM ${tables.operators} WHERE email = $1`,
        [normalEmail(email)],
      );
      return withGrants(result.rows);
    },

    async operatorById(id) {
      const result = await pool.query<OperatorRow>(
        `SELECT ${OPERATOR_COLUMNS} FROM ${tables.operators} WHERE id = $1`,
        [id],
      );
      return withGrants(result.rows);
    },

    async listOperators() {
      // Byte order, as SQLite's BINARY collation sorts.
      const [operators, grants] = await Promise.all([
        pool.query<OperatorRow>(
          `SELECT ${OPERATOR_COLUMNS} FROM ${tables.operators} ORDER BY email COLLATE "C"`,
        ),
        pool.query<GrantRow>(grantsSelect),
      ]);
      return toOperatorRecords(operators.rows, grants.rows);
    },

    async setPassword(operatorId, passwordHash) {
      await pool.query(`UPDATE ${tables.operators} SET password_hash = $2 WHERE id = $1`, [
        operatorId,
        passwordHash,
      ]);
    },

    async setGrants(operatorId, grants) {
      const [tenantIds, roles] = grantArrays(grants);
      await withTransaction(pool, async (client) => {
        // Locks the operator, so two replacements do not interleave; an unknown operator gets none.
        const found = await client.query(`SELECT 1 FROM ${tables.operators} WHERE id = $1 FOR UPDATE`, [
          operatorId,
        ]);
        if (found.rowCount === 0) return;
        await client.query(`DELETE FROM ${tables.operatorGrants} WHERE operator_id = $1`, [operatorId]);
        await client.query(
          `INSERT INTO ${tables.operatorGrants} (operator_id, tenant_id, role)
           SELECT $1, tenant_id, role FROM unnest($2::text[], $3::text[]) AS grant_of(tenant_id, role)`,
          [operatorId, tenantIds, roles],
        );
      });
    },

    async createSession(session) {
      await pool.query(`INSERT INTO ${tables.sessions} (${SESSION_COLUMNS}) VALUES ($1, $2, $3, $4, $5)`, [
        session.idHash,
        session.operatorId,
        session.csrfToken,
        new Date(session.createdAt),
        new Date(session.expiresAt),
      ]);
    },

    async session(idHash, nowMs) {
      const result = await pool.query<SessionRow>(
        `SELECT ${SESSION_COLUMNS} FROM ${tables.sessions} WHERE id_hash = $1 AND expires_at > $2`,
        [idHash, new Date(nowMs)],
      );
      const row = result.rows[0];
      return row === undefined ? undefined : toSessionRecord(row);
    },

    async extendSession(idHash, expiresAt) {
      await pool.query(`UPDATE ${tables.sessions} SET expires_at = $2 WHERE id_hash = $1`, [
        idHash,
        new Date(expiresAt),
      ]);
    },

    async deleteSession(idHash) {
      await pool.query(`DELETE FROM ${tables.sessions} WHERE id_hash = $1`, [idHash]);
    },

    async deleteSessionsOf(operatorId) {
      await pool.query(`DELETE FROM ${tables.sessions} WHERE operator_id = $1`, [operatorId]);
    },

    async createApiToken(token) {
      await pool.query(
        `INSERT INTO ${tables.apiTokens} (${API_TOKEN_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [
          token.id,
          token.tokenHash,
          token.operatorId,
          token.name,
          new Date(token.createdAt),
          dateOrNull(token.lastUsedAt),
          dateOrNull(token.revokedAt),
        ],
      );
    },

    async useApiToken(tokenHash, nowMs) {
      const result = await pool.query<ApiTokenRow>(
        `UPDATE ${tables.apiTokens} SET last_used_at = GREATEST(last_used_at, $2)
         WHERE token_hash = $1 AND revoked_at IS NULL RETURNING ${API_TOKEN_COLUMNS}`,
        [tokenHash, new Date(nowMs)],
      );
      const row = result.rows[0];
      return row === undefined ? undefined : toApiTokenRecord(row);
    },

    async apiTokensOf(operatorId) {
      const result = await pool.query<ApiTokenRow>(
        `SELECT ${API_TOKEN_COLUMNS} FROM ${tables.apiTokens} WHERE operator_id = $1 ORDER BY created_at, id COLLATE "C"`,
        [operatorId],
      );
      return result.rows.map(toApiTokenRecord);
    },

    async revokeApiToken(id, nowMs) {
      await pool.query(`UPDATE ${tables.apiTokens} SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1`, [
        id,
        new Date(nowMs),
      ]);
    },
  };
}
