import type { ApiTokenRecord, OperatorGrant, OperatorRecord, OperatorRole, SessionRecord } from "./ports.js";
import { msOf, type TimeValue } from "./row-mapping.js";

/** E-mails are compared and stored lower-cased (JavaScript's folding, so both adapters agree). */
export function normalEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** One grant per tenant: a tenant named twice keeps its last role. */
export function distinctGrants(grants: readonly OperatorGrant[]): OperatorGrant[] {
  return [...new Map(grants.map((grant) => [grant.tenantId, grant])).values()];
}

export interface OperatorRow {
  id: string;
  email: string;
  name: string;
  password_hash: string;
  created_at: TimeValue;
}

export interface GrantRow {
  operator_id: string;
  tenant_id: string;
  role: string;
}

export const OPERATOR_COLUMNS = "id, email, name, password_hash, created_at";

/** Operators with their grants, from the rows of both tables (grants in tenant order). */
export function toOperatorRecords(
  operators: readonly OperatorRow[],
  grants: readonly GrantRow[],
): OperatorRecord[] {
  const byOperator = new Map<string, OperatorGrant[]>();
  for (const grant of [...grants].sort((a, b) => (a.tenant_id < b.tenant_id ? -1 : 1))) {
    const list = byOperator.get(grant.operator_id) ?? [];
    list.push({ tenantId: grant.tenant_id, role: grant.role as OperatorRole });
    byOperator.set(grant.operator_id, list);
  }
  return operators.map((row) => ({
    id: row.id,
    email: row.email,
    name: row.name,
    passwordHash: row.password_hash,
    grants: byOperator.get(row.id) ?? [],
    createdAt: msOf(row.created_at),
  }));
}

export interface SessionRow {
  id_hash: string;
  operator_id: string;
  csrf_token: string;
  created_at: TimeValue;
  expires_at: TimeValue;
}

export const SESSION_COLUMNS = "id_hash, operator_id, csrf_token, created_at, expires_at";

export function toSessionRecord(row: SessionRow): SessionRecord {
  return {
    idHash: row.id_hash,
    operatorId: row.operator_id,
    csrfToken: row.csrf_token,
    createdAt: msOf(row.created_at),
    expiresAt: msOf(row.expires_at),
  };
}

export interface ApiTokenRow {
  id: string;
  token_hash: string;
  operator_id: string;
  name: string;
  created_at: TimeValue;
  last_used_at: TimeValue | null;
  revoked_at: TimeValue | null;
}

export const API_TOKEN_COLUMNS = "id, token_hash, operator_id, name, created_at, last_used_at, revoked_at";

export function toApiTokenRecord(row: ApiTokenRow): ApiTokenRecord {
  return {
    id: row.id,
    tokenHash: row.token_hash,
    operatorId: row.operator_id,
    name: row.name,
    createdAt: msOf(row.created_at),
    ...(row.last_used_at === null ? {} : { lastUsedAt: msOf(row.last_used_at) }),
    ...(row.revoked_at === null ? {} : { revokedAt: msOf(row.revoked_at) }),
  };
}
