import { campaignPaceKey, campaignSettingsOf } from "../../campaigns/index.js";
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

/**
 * The campaigns' share of each number (its rate less the tenant's `campaigns.replyReservePercent`,
 * default 20%), keyed as the campaign sender asks (campaignPaceKey): replies keep the rest.
 */
export function campaignThroughputOf(config: AppConfig): {
  readonly throughputMps: number;
  readonly throughputMpsByNumber: ReadonlyMap<string, number>;
} {
  const byNumber = new Map<string, number>();
  for (const tenant of config.tenants) {
    const share = (tenant.throughputMps * (100 - campaignSettingsOf(tenant).replyReservePercent)) / 100;
    for (const phoneNumberId of tenant.phoneNumberIds)
      byNumber.set(campaignPaceKey(phoneNumberId), Math.max(0.1, share));
  }
  return {
    throughputMps: Math.max(0.1, Math.min(...[...byNumber.values(), 80 * 0.8])),
    throughputMpsByNumber: byNumber,
  };
}
