import type { OperatorRecord, OperatorRole, SessionRecord } from "../store/index.js";
import { tenantOfConversation } from "../whatsapp/index.js";
import { ConsoleError } from "./errors.js";

/** Who is asking, and what they may see: the tenants their grants name that this gateway serves. */
export interface OperatorAccess {
  readonly operator: OperatorRecord;
  readonly via: "session" | "token";
  /** Present when `via` is "session". */
  readonly session?: SessionRecord;
  /** The served tenants the operator has a role on, in the configuration's order. */
  readonly tenantIds: readonly string[];
  roleOn(tenantId: string): OperatorRole | undefined;
}

export function accessOf(
  operator: OperatorRecord,
  servedTenantIds: readonly string[],
  via: OperatorAccess["via"],
  session?: SessionRecord,
): OperatorAccess {
  const roleOn = (tenantId: string): OperatorRole | undefined => {
    if (!servedTenantIds.includes(tenantId)) return undefined;
    const roles = operator.grants
      .filter((grant) => grant.tenantId === tenantId || grant.tenantId === "*")
      .map((grant) => grant.role);
    if (roles.includes("admin")) return "admin";
    return roles.length > 0 ? "agent" : undefined;
  };
  return {
    operator,
    via,
    ...(session === undefined ? {} : { session }),
    tenantIds: servedTenantIds.filter((tenantId) => roleOn(tenantId) !== undefined),
    roleOn,
  };
}

/** The tenants a request asks about: the one named (if the operator may see it), else all they may. */
export function tenantsAsked(access: OperatorAccess, tenant: string | undefined): readonly string[] {
  if (tenant === undefined) return access.tenantIds;
  if (access.roleOn(tenant) === undefined) throw new ConsoleError("notFound", `no tenant "${tenant}"`);
  return [tenant];
}

/** A conversation of a tenant the operator may not see answers exactly like a missing one. */
export function checkConversationAccess(access: OperatorAccess, conversationKey: string): string {
  const tenantId = tenantOfConversation(conversationKey);
  if (access.roleOn(tenantId) === undefined) throw new ConsoleError("notFound", "no such conversation");
  return tenantId;
}

export function checkAdmin(access: OperatorAccess, tenantIds: readonly string[]): void {
  for (const tenantId of tenantIds) {
    if (access.roleOn(tenantId) !== "admin") {
      throw new ConsoleError("forbidden", `managing operators of "${tenantId}" needs the admin role there`);
    }
  }
}
