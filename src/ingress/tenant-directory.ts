import { DEFAULT_TENANT_ID, type TenantConfig } from "../config/index.js";

/** Looks tenants up by the id in /webhook/:tenant; /webhook means the `default` tenant. */
export function createTenantDirectory(tenants: readonly TenantConfig[]) {
  const byId = new Map(tenants.map((tenant) => [tenant.id, tenant]));
  return {
    find(id: string | undefined): TenantConfig | undefined {
      return byId.get(id ?? DEFAULT_TENANT_ID);
    },
  };
}

export type TenantDirectory = ReturnType<typeof createTenantDirectory>;
