import { describe, expect, it } from "vitest";
import { checkTenantEnvAccess, type TenantEnvScope, tenantEnvPrefix } from "./tenant-env-access.js";

const tenant = (id: string, referenced: string[], extra: Partial<TenantEnvScope> = {}): TenantEnvScope => ({
  id,
  ownSecretNames: [`${tenantEnvPrefix(id)}APP_SECRET`, `${tenantEnvPrefix(id)}VERIFY_TOKEN`],
  referenced: new Set(referenced),
  ...extra,
});

describe("which variables a tenant's { env } may read", () => {
  it("derives the prefix from the tenant id", () => {
    expect(tenantEnvPrefix("mama-put")).toBe("MAMA_PUT_");
    expect(tenantEnvPrefix("t")).toBe("T_");
  });

  it("lets a tenant read its own prefix and what its allowedEnv lists", () => {
    const problems = checkTenantEnvAccess([
      tenant("mama-put", ["MAMA_PUT_API_KEY", "SHARED_SMS_KEY"], { allowedEnv: ["SHARED_SMS_KEY"] }),
    ]);
    expect(problems.size).toBe(0);
  });

  it("refuses the gateway's own secrets and settings, even when allowedEnv lists them", () => {
    const problems = checkTenantEnvAccess([
      tenant("shop", ["WHATSAPP_APP_SECRET", "LLM_API_KEY", "DATABASE_URL", "REDIS_URL", "LOG_LEVEL"], {
        allowedEnv: ["WHATSAPP_APP_SECRET", "LLM_API_KEY"],
      }),
    ]);
    const refused = problems.get("shop") ?? [];
    expect(refused).toHaveLength(5);
    for (const line of refused) expect(line).toMatch(/gateway's own settings/);
  });

  it("refuses the tenant's own webhook secret and another tenant's secrets and prefix", () => {
    const problems = checkTenantEnvAccess([
      tenant("shop", ["SHOP_APP_SECRET", "BANK_APP_SECRET", "BANK_API_KEY"], {
        allowedEnv: ["BANK_APP_SECRET", "BANK_API_KEY"],
      }),
      tenant("bank", ["BANK_API_KEY"]),
    ]);
    expect(problems.get("shop")).toEqual([
      expect.stringMatching(/BANK_API_KEY .*belongs to tenant "bank"/),
      expect.stringMatching(/BANK_APP_SECRET .*secret of tenant "bank"/),
      expect.stringMatching(/SHOP_APP_SECRET .*own webhook or Graph API secret/),
    ]);
    expect(problems.has("bank")).toBe(false);
  });

  it("gives a name to the tenant with the longest matching prefix", () => {
    const problems = checkTenantEnvAccess([
      tenant("t", ["T_SHOP_KEY", "T_KEY"]),
      tenant("t-shop", ["T_SHOP_KEY"]),
    ]);
    expect(problems.get("t")).toEqual([expect.stringMatching(/T_SHOP_KEY .*belongs to tenant "t-shop"/)]);
    expect(problems.has("t-shop")).toBe(false);
  });

  it("refuses any other name, saying how to allow it", () => {
    const problems = checkTenantEnvAccess([tenant("shop", ["HOME", "TOOL_KEY"])]);
    expect(problems.get("shop")).toEqual([
      expect.stringMatching(/HOME .*name it SHOP_… or list it in the tenant's allowedEnv/),
      expect.stringMatching(/TOOL_KEY .*allowedEnv/),
    ]);
  });
});
