import type { AppConfig } from "../../config/index.js";

/**
 * Each business number paced at its own tenant's `throughputMps`, so one
 * tenant's setting never slows another's numbers; a number no tenant lists
 * (none is sent from) gets the strictest tenant's rate.
 */
export function throughputOf(config: AppConfig): {
  readonly throughputMps: number;
  readonly throughputMpsByNumber: ReadonlyMap<string, number>;
} {
  const byNumber = new Map<string, number>();
  for (const tenant of config.tenants) {
    for (const phoneNumberId of tenant.phoneNumberIds) byNumber.set(phoneNumberId, tenant.throughputMps);
  }
  return {
    throughputMps: Math.min(...config.tenants.map((tenant) => tenant.throughputMps)),
    throughputMpsByNumber: byNumber,
  };
}
