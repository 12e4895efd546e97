import type { SqliteDatabase } from "../../sqlite/index.js";
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

// Whole ms: the columns are STRICT integers.
const ms = Math.round;

/**
 * Operator accounts, sessions and API tokens in the `store_*` tables, the
 * same rules as the Postgres adapter's. Writes that touch two tables (an
 * operator and its grants) run in one transaction.
 */
export function createSqliteOperatorStore(db: SqliteDatabase): OperatorStore {
  const insertOperator = db.prepare<[string, string, string, string, number]>(
    `INSERT INTO store_operators (${OPERATOR_COLUMNS}) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
  );
  const insertGrant = db.prepare<[string, string, string]>(
    "INSERT INTO store_operator_grants (operator_id, tenant_id, role) VALUES (?, ?, ?)",
  );
  const deleteGrants = db.prepare<[string]>("DELETE FROM store_operator_grants WHERE operator_id = ?");
  const operatorExists = db.prepare<[string], { id: string }>("SELECT id FROM store_operators WHERE id = ?");
  const byEmail = db.prepare<[string], OperatorRow>(
    `SELECT ${OPERATOR_COLUMNS} FROM store_operators WHERE email = ?`,
  );
  const byId = db.prepare<[string], OperatorRow>(
    `SELECT ${OPERATOR_COLUMNS} FROM store_operators WHERE id = ?`,
  );
  const everyOperator = db.prepare<[], OperatorRow>(
    `SELECT ${OPERATOR_COLUMNS} FROM store_operators ORDER BY email`,
  );
  const grantsOf = db.prepare<[string], GrantRow>(
    "SELECT operator_id, tenant_id, role FROM store_operator_grants WHERE operator_id = ?",
  );
  const everyGrant = db.prepare<[], GrantRow>(
    "SELECT operator_id, tenant_id, role FROM store_operator_grants",
  );
  const setPassword = db.prepare<[string, string]>(
    "UPDATE store_operators SET password_hash = ? WHERE id = ?",
  );
  const insertSession = db.prepare<[string, string, string, number, number]>(
    `INSERT INTO store_sessions (${SESSION_COLUMNS}) VALUES (?, ?, ?, ?, ?)`,
  );
  const liveSession = db.prepare<[string, number], SessionRow>(
    `SELECT ${SESSION_COLUMNS} FROM store_sessions WHERE id_hash = ? AND expires_at > ?`,
  );
  const extendSession = db.prepare<[number, string]>(
    "UPDATE store_sessions SET expires_at = ? WHERE id_hash = ?",
  );
  const deleteSession = db.prepare<[string]>("DELETE FROM store_sessions WHERE id_hash = ?");
  const deleteSessionsOf = db.prepare<[string]>("DELETE FROM store_sessions WHERE operator_id = ?");
  const insertToken = db.prepare<[string, string, string, string, number, number | null, number | null]>(
    `INSERT INTO store_api_tokens (${API_TOKEN_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const useToken = db.prepare<[number, number, string], ApiTokenRow>(
    `UPDATE store_api_tokens SET last_used_at = max(coalesce(last_used_at, ?), ?)
     WHERE token_hash = ? AND revoked_at IS NULL RETURNING ${API_TOKEN_COLUMNS}`,
  );
  const tokensOf = db.prepare<[string], ApiTokenRow>(
    `SELECT ${API_TOKEN_COLUMNS} FROM store_api_tokens WHERE operator_id = ? ORDER BY created_at, id`,
  );
  const revokeToken = db.prepare<[number, string]>(
    "UPDATE store_api_tokens SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?",
  );

  const addGrants = (operatorId: string, grants: readonly OperatorGrant[]) => {
    for (const grant of distinctGrants(grants)) insertGrant.run(operatorId, grant.tenantId, grant.role);
  };
  const withGrants = (row: OperatorRow | undefined): OperatorRecord | undefined =>
    row === undefined ? undefined : toOperatorRecords([row], grantsOf.all(row.id))[0];

  const createOperator = db.transaction((operator: OperatorRecord): "created" | "exists" => {
    const inserted = insertOperator.run(
      operator.id,
      normalEmail(operator.email),
      operator.name,
      operator.passwordHash,
      ms(operator.createdAt),
    );
    if (inserted.changes === 0) return "exists";
    addGrants(operator.id, operator.grants);
    return "created";
  });
  // Grants of an operator that does not exist would wait for whoever takes its id: none are written.
  const replaceGrants = db.transaction((operatorId: string, grants: readonly OperatorGrant[]) => {
    if (operatorExists.get(operatorId) === undefined) return;
    deleteGrants.run(operatorId);
    addGrants(operatorId, grants);
  });

  return {
    createOperator: async (operator) => createOperator(operator),
    operatorByEmail: async (email) => withGrants(byEmail.get(normalEmail(email))),
    operatorById: async (id) => withGrants(byId.get(id)),
    listOperators: async () => toOperatorRecords(everyOperator.all(), everyGrant.all()),
    async setPassword(operatorId, passwordHash) {
      setPassword.run(passwordHash, operatorId);
    },
    setGrants: async (operatorId, grants) => replaceGrants(operatorId, grants),
    async createSession(session) {
      insertSession.run(
        session.idHash,
        session.operatorId,
        session.csrfToken,
        ms(session.createdAt),
        ms(session.expiresAt),
      );
    },
    async session(idHash, nowMs) {
      const row = liveSession.get(idHash, ms(nowMs));
      return row === undefined ? undefined : toSessionRecord(row);
    },
    async extendSession(idHash, expiresAt) {
      extendSession.run(ms(expiresAt), idHash);
    },
    async deleteSession(idHash) {
      deleteSession.run(idHash);
    },
    async deleteSessionsOf(operatorId) {
      deleteSessionsOf.run(operatorId);
    },
    async createApiToken(token) {
      insertToken.run(
        token.id,
        token.tokenHash,
        token.operatorId,
        token.name,
        ms(token.createdAt),
        token.lastUsedAt === undefined ? null : ms(token.lastUsedAt),
        token.revokedAt === undefined ? null : ms(token.revokedAt),
      );
    },
    async useApiToken(tokenHash, nowMs) {
      const row = useToken.get(ms(nowMs), ms(nowMs), tokenHash);
      return row === undefined ? undefined : toApiTokenRecord(row);
    },
    apiTokensOf: async (operatorId) => tokensOf.all(operatorId).map(toApiTokenRecord),
    async revokeApiToken(id, nowMs) {
      revokeToken.run(ms(nowMs), id);
    },
  };
}
