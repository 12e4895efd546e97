import type { CounterCell, IngressMetrics } from "../observability/index.js";

/** The counters a webhook of one tenant moves on every request, bound once. */
export interface TenantCounters {
  readonly messageAccepted: CounterCell;
  readonly messageDuplicate: CounterCell;
  event(kind: string, result: "new" | "duplicate"): CounterCell;
}

/** Per-tenant bound counters, created on a tenant's first webhook (tenants come from the config: bounded). */
export function createTenantCounters(metrics: IngressMetrics): (tenantId: string) => TenantCounters {
  const byTenant = new Map<string, TenantCounters>();
  const bind = (tenantId: string): TenantCounters => {
    // Event kinds are the parser's few (status, message, change, webhook_error).
    const newEvents = new Map<string, CounterCell>();
    const duplicateEvents = new Map<string, CounterCell>();
    return {
      messageAccepted: metrics.messages.cell(tenantId, "accepted"),
      messageDuplicate: metrics.messages.cell(tenantId, "duplicate"),
      event(kind, result) {
        const cells = result === "new" ? newEvents : duplicateEvents;
        let cell = cells.get(kind);
        if (cell === undefined) {
          cell = metrics.events.cell(tenantId, kind, result);
          cells.set(kind, cell);
        }
        return cell;
      },
    };
  };
  return (tenantId) => {
    let counters = byTenant.get(tenantId);
    if (counters === undefined) {
      counters = bind(tenantId);
      byTenant.set(tenantId, counters);
    }
    return counters;
  };
}
