import { DEFAULT_TENANT_ID, type TenantConfig } from "../config/index.js";

/**
 * Looks tenants up by the id in /webhook/:tenant (/webhook means `default`)
 * and by business number. Meta routes on phone_number_id: a Meta app serving
 * several tenants' numbers posts them all to one callback URL, so a number
 * listed by another tenant that shares the verifying app secret belongs to
 * that tenant.
 */
export function createTenantDirectory(tenants: readonly TenantConfig[]) {
  const byId = new Map(tenants.map((tenant) => [tenant.id, tenant]));
  const byPhoneNumber = new Map<string, TenantConfig>();
  for (const tenant of tenants) {
    for (const phoneNumberId of tenant.phoneNumberIds) byPhoneNumber.set(phoneNumberId, tenant);
  }
  return {
    find(id: string | undefined): TenantConfig | undefined {
      return byId.get(id ?? DEFAULT_TENANT_ID);
    },
    /** The tenant that owns `phoneNumberId`, when the body verified by `verifiedBy` may speak for it. */
    owner(phoneNumberId: string, verifiedBy: TenantConfig): TenantConfig {
      const owner = byPhoneNumber.get(phoneNumberId);
      return owner !== undefined && owner.appSecret === verifiedBy.appSecret ? owner : verifiedBy;
    },
    /** Whether `tenant` lists its numbers and `phoneNumberId` is not one of them. */
    isForeign(phoneNumberId: string, tenant: TenantConfig): boolean {
      return tenant.phoneNumberIds.length > 0 && !tenant.phoneNumberIds.includes(phoneNumberId);
    },
  };
}

export type TenantDirectory = ReturnType<typeof createTenantDirectory>;
