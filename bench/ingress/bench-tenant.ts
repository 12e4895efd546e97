import type { TenantConfig } from "../../src/config/index.js";

/** The one tenant the ingress benches serve: every business number answered, the defaults otherwise. */
export function benchTenant(appSecret: string): TenantConfig {
  return {
    id: "default",
    appSecret,
    verifyToken: "bench-verify",
    graphToken: undefined,
    phoneNumberIds: [],
    throughputMps: 80,
    coalesce: { windowMs: 800, maxMs: 3000 },
    staleAfterMs: 3_600_000,
    settings: {},
  };
}
