import { envSchema, SECRET_ENV_NAMES } from "./env-schema.js";

/** The gateway's own settings start with these; no tenant reads them, whatever its allow list says. */
const GATEWAY_PREFIXES = [
  "WHATSAPP_",
  "LLM_",
  "STT_",
  "REDIS_",
  "DATABASE_",
  "SHARPSHARP_",
  "GRAPH_API_",
  "TTS_",
  "MEDIA_",
  "OTEL_",
];

/** What decides which variables one tenant's `{ env: NAME }` may read. */
export interface TenantEnvScope {
  readonly id: string;
  /** Names the operator lets this tenant read beyond its prefix (tenants file `allowedEnv`). */
  readonly allowedEnv?: readonly string[] | undefined;
  /** The variables holding the tenant's own webhook and Graph API secrets (`appSecretEnv`, …). */
  readonly ownSecretNames: readonly string[];
  /** Every `{ env: NAME }` its settings hold. */
  readonly referenced: ReadonlySet<string>;
}

/**
 * The prefix of the variables a tenant may read without an allow list: its
 * id in upper case with "-" as "_", then "_" ("mama-put" → "MAMA_PUT_").
 */
export function tenantEnvPrefix(tenantId: string): string {
  return `${tenantId.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_`;
}

/**
 * Checks every tenant's `{ env: NAME }` references: a tenant reads only
 * variables that start with its own prefix or that its `allowedEnv` lists,
 * and never the gateway's own settings and secrets, another tenant's
 * variables (its prefix, its secrets, what its settings name), or its own
 * webhook secrets (a tool would send them to its URL). Answers one problem
 * per refused name, naming the variable but never its value.
 */
export function checkTenantEnvAccess(tenants: readonly TenantEnvScope[]): Map<string, string[]> {
  const gatewayNames = new Set<string>([...SECRET_ENV_NAMES, ...Object.keys(envSchema.shape)]);
  const problems = new Map<string, string[]>();
  for (const tenant of tenants) {
    const refused: string[] = [];
    for (const name of [...tenant.referenced].sort()) {
      const why = refusal(name, tenant, tenants, gatewayNames);
      if (why !== undefined) refused.push(`names ${name} with { env }, which ${why}`);
    }
    if (refused.length > 0) problems.set(tenant.id, refused);
  }
  return problems;
}

function refusal(
  name: string,
  tenant: TenantEnvScope,
  all: readonly TenantEnvScope[],
  gatewayNames: ReadonlySet<string>,
): string | undefined {
  if (gatewayNames.has(name) || GATEWAY_PREFIXES.some((gateway) => name.startsWith(gateway))) {
    return "is one of the gateway's own settings: no tenant may read it";
  }
  if (tenant.ownSecretNames.includes(name)) {
    return "holds the tenant's own webhook or Graph API secret, which a tool must never be sent";
  }
  const secretOwner = all.find((other) => other !== tenant && other.ownSecretNames.includes(name));
  if (secretOwner !== undefined) return `holds a secret of tenant "${secretOwner.id}"`;
  // A name belongs to the tenant with the longest prefix it starts with ("T_SHOP_KEY": t-shop, not t).
  const prefixOwner = all
    .filter((candidate) => name.startsWith(tenantEnvPrefix(candidate.id)))
    .sort((a, b) => b.id.length - a.id.length)[0];
  if (prefixOwner !== undefined && prefixOwner !== tenant) return `belongs to tenant "${prefixOwner.id}"`;
  if (prefixOwner === tenant || tenant.allowedEnv?.includes(name) === true) return undefined;
  return `is outside what this tenant may read: name it ${tenantEnvPrefix(tenant.id)}… or list it in the tenant's allowedEnv`;
}
