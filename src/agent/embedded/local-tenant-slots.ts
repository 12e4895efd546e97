import { randomUUID } from "node:crypto";
import type { TenantSlots } from "../ports.js";

/**
 * TenantSlots in this process's memory, for embedded mode where one process
 * runs every agent turn. As on Redis, a holder's lease ends `leaseMs` after it
 * acquired or last renewed (a turn that stops renewing gives its slot back); `now` is the clock, ms.
 */
export function createLocalTenantSlots(leaseMs: number, now: () => number = Date.now): TenantSlots {
  const holders = new Map<string, Map<string, number>>();
  return {
    leaseMs,
    async acquire(tenantId, limit) {
      const at = now();
      const tenant = holders.get(tenantId) ?? new Map<string, number>();
      for (const [token, expiresAt] of tenant) if (expiresAt <= at) tenant.delete(token);
      if (tenant.size >= limit) return undefined;
      const token = randomUUID();
      tenant.set(token, at + leaseMs);
      holders.set(tenantId, tenant);
      return token;
    },
    async extend(tenantId, token) {
      const tenant = holders.get(tenantId);
      const expiresAt = tenant?.get(token);
      if (tenant !== undefined && expiresAt !== undefined && expiresAt > now())
        tenant.set(token, now() + leaseMs);
    },
    async release(tenantId, token) {
      const tenant = holders.get(tenantId);
      tenant?.delete(token);
      if (tenant?.size === 0) holders.delete(tenantId);
    },
  };
}
