import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./index.js";

const emptyDir = () => mkdtempSync(join(tmpdir(), "ss-config-"));

function problemsOf(run: () => unknown): readonly string[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error("expected a ConfigError");
}

describe("loadConfig", () => {
  it("builds the default tenant from the single-tenant variables, with documented defaults", () => {
    const config = loadConfig({
      env: { WHATSAPP_APP_SECRET: "s3cret", WHATSAPP_VERIFY_TOKEN: "verify-me" },
      cwd: emptyDir(),
    });
    expect(config.tenants).toHaveLength(1);
    expect(config.tenants[0]).toMatchObject({ id: "default", appSecret: "s3cret", verifyToken: "verify-me" });
    expect(config.server).toEqual({
      host: "0.0.0.0",
      port: 3000,
      bodyLimitBytes: 3 * 1024 * 1024,
      requestTimeoutMs: 15_000,
      headersTimeoutMs: 5000,
      keepAliveTimeoutMs: 65_000,
      idleTimeoutMs: 70_000,
      maxConnections: 8192,
    });
    expect(config.redis).toEqual({ server: undefined, prefix: "ss", keyPrefix: "ss", allowEviction: false });
    expect(config.graph).toEqual({ baseUrl: "https://graph.facebook.com", version: "v25.0" });
    expect(config.tenants[0]?.coalesce).toEqual({ windowMs: 800, maxMs: 3000 });
    expect(config.ingress.dedupeTtlSeconds).toBeGreaterThanOrEqual(7 * 24 * 3600);
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.tenants[0])).toBe(true);
  });

  it("reports every problem at once, naming the variable and never echoing secret values", () => {
    const problems = problemsOf(() =>
      loadConfig({
        env: {
          WHATSAPP_APP_SECRET: "topsecretvalue",
          PORT: "eighty",
          REDIS_URL: "http://x",
          LOG_LEVEL: "loud",
        },
        cwd: emptyDir(),
      }),
    );
    const text = problems.join("\n");
    expect(text).toMatch(/WHATSAPP_VERIFY_TOKEN: required/);
    expect(text).toMatch(/PORT: must be a whole number/);
    expect(text).toMatch(/REDIS_URL: must be a redis:\/\//);
    expect(text).toMatch(/LOG_LEVEL: must be one of/);
    expect(text).not.toContain("topsecretvalue");
    expect(problems.length).toBeGreaterThanOrEqual(4);
  });

  it("puts the admin listener on 127.0.0.1:9464 without a token by default", () => {
    const config = loadConfig({
      env: { WHATSAPP_APP_SECRET: "a", WHATSAPP_VERIFY_TOKEN: "b" },
      cwd: emptyDir(),
    });
    expect(config.admin).toEqual({ host: "127.0.0.1", port: 9464, token: undefined });
    const moved = loadConfig({
      env: {
        WHATSAPP_APP_SECRET: "a",
        WHATSAPP_VERIFY_TOKEN: "b",
        ADMIN_HOST: "0.0.0.0",
        ADMIN_PORT: "9100",
        ADMIN_TOKEN: " 0123456789abcdef0123 ",
      },
      cwd: emptyDir(),
    });
    expect(moved.admin).toEqual({ host: "0.0.0.0", port: 9100, token: "0123456789abcdef0123" });
  });

  it("refuses an admin listener open to other machines without a token, a short token and a shared port", () => {
    const base = { WHATSAPP_APP_SECRET: "a", WHATSAPP_VERIFY_TOKEN: "b" };
    const problems = (env: Record<string, string>) =>
      problemsOf(() => loadConfig({ env: { ...base, ...env }, cwd: emptyDir() }));
    expect(problems({ ADMIN_HOST: "0.0.0.0" })).toEqual([
      expect.stringMatching(
        /^ADMIN_HOST: 0\.0\.0\.0 lets other machines read \/metrics and \/readyz; set ADMIN_TOKEN too/,
      ),
    ]);
    expect(problems({ ADMIN_HOST: "admin.example" })).toEqual([
      "ADMIN_HOST: must be an IP address (127.0.0.1, 0.0.0.0, ::1, …) or localhost",
    ]);
    const short = problems({ ADMIN_TOKEN: "hunter2-secret" });
    expect(short).toEqual([expect.stringMatching(/^ADMIN_TOKEN: must be at least 16 characters/)]);
    expect(short.join()).not.toContain("hunter2-secret");
    expect(problems({ ADMIN_TOKEN: "0123456789 abcdef0123" })).toEqual([
      "ADMIN_TOKEN: must not hold spaces or line breaks",
    ]);
    expect(problems({ PORT: "3000", ADMIN_PORT: "3000" })).toEqual([
      "ADMIN_PORT: must differ from PORT (3000); the admin listener is a port of its own",
    ]);
    expect(problems({ ADMIN_PORT: "70000" })).toEqual(["ADMIN_PORT: must be at most 65535"]);
    for (const host of ["127.0.0.1", "127.1.2.3", "::1", "localhost"])
      expect(() => loadConfig({ env: { ...base, ADMIN_HOST: host }, cwd: emptyDir() })).not.toThrow();
  });

  it("treats empty strings as unset and refuses to start with no tenant at all", () => {
    const problems = problemsOf(() => loadConfig({ env: { WHATSAPP_APP_SECRET: "  " }, cwd: emptyDir() }));
    expect(problems).toEqual([expect.stringMatching(/no tenant is configured/)]);
  });

  it("rejects a coalescing maximum shorter than the window", () => {
    const problems = problemsOf(() =>
      loadConfig({
        env: {
          WHATSAPP_APP_SECRET: "a",
          WHATSAPP_VERIFY_TOKEN: "b",
          COALESCE_WINDOW_MS: "900",
          COALESCE_MAX_MS: "500",
        },
        cwd: emptyDir(),
      }),
    );
    expect(problems.join()).toMatch(/COALESCE_MAX_MS/);
  });

  it("reads tenants from a YAML file, resolving secrets from the variables it names", () => {
    const dir = emptyDir();
    writeFileSync(
      join(dir, "sharpsharp.config.yaml"),
      [
        "tenants:",
        "  - id: mama-put-foods",
        "    appSecretEnv: MAMAPUT_APP_SECRET",
        "    verifyTokenEnv: MAMAPUT_VERIFY_TOKEN",
        '    phoneNumberIds: ["106540352242922"]',
        "    throughputMps: 20",
        "    persona: You are Ada.",
      ].join("\n"),
    );
    const config = loadConfig({ env: { MAMAPUT_APP_SECRET: "x", MAMAPUT_VERIFY_TOKEN: "y" }, cwd: dir });
    expect(config.tenants[0]).toMatchObject({
      id: "mama-put-foods",
      appSecret: "x",
      throughputMps: 20,
      phoneNumberIds: ["106540352242922"],
      settings: { persona: "You are Ada." },
    });
    expect(config.configFile).toBe(join(dir, "sharpsharp.config.yaml"));
  });

  it("reports missing secret variables, secrets written in the file and duplicate ids together", () => {
    const dir = emptyDir();
    const file = join(dir, "tenants.json");
    writeFileSync(
      file,
      JSON.stringify({
        tenants: [
          {
            id: "default",
            appSecretEnv: "A_SECRET",
            verifyTokenEnv: "A_VERIFY",
            phoneNumberIds: ["106540352242922"],
          },
          {
            id: "Bad Id",
            appSecret: "inline",
            appSecretEnv: "B",
            verifyTokenEnv: "C",
            phoneNumberIds: [],
          },
        ],
      }),
    );
    const problems = problemsOf(() =>
      loadConfig({
        env: { SHARPSHARP_CONFIG: "tenants.json", WHATSAPP_APP_SECRET: "a", WHATSAPP_VERIFY_TOKEN: "b" },
        cwd: dir,
      }),
    );
    const text = problems.join("\n");
    expect(text).toMatch(/tenants\.1\.id: must be lower-case/);
    expect(text).toMatch(/tenants\.1\.phoneNumberIds: must list at least one/);
    // schema problems stop the file here; fix them and the next run reports secrets
    const fixed = join(dir, "fixed.json");
    writeFileSync(
      fixed,
      JSON.stringify({
        tenants: [
          {
            id: "default",
            appSecretEnv: "A_SECRET",
            verifyTokenEnv: "A_VERIFY",
            phoneNumberIds: ["106540352242922"],
          },
          {
            id: "b",
            appSecret: "inline",
            appSecretEnv: "B",
            verifyTokenEnv: "C",
            phoneNumberIds: ["1234567"],
          },
        ],
      }),
    );
    const again = problemsOf(() =>
      loadConfig({
        env: {
          SHARPSHARP_CONFIG: fixed,
          WHATSAPP_APP_SECRET: "a",
          WHATSAPP_VERIFY_TOKEN: "b",
          A_SECRET: "1",
          A_VERIFY: "2",
        },
        cwd: dir,
      }),
    ).join("\n");
    expect(again).toMatch(/tenants\.1 \(b\)\.appSecret: secrets are never written in the file/);
    expect(again).toMatch(/tenants\.1 \(b\)\.appSecretEnv: names B, which is not set/);
    expect(again).toMatch(/tenant "default" is defined twice/);
    expect(again).not.toContain("inline");
  });

  it("refuses a tenant whose tools name the gateway's or another tenant's variables, and resolves its own", () => {
    const dir = emptyDir();
    const tool = (name: string, env: string) => ({
      name,
      description: "d",
      url: "https://shop.example/api",
      headers: { Authorization: { env } },
    });
    const shop = (tools: unknown[]) => ({
      id: "shop",
      appSecretEnv: "SHOP_APP_SECRET",
      verifyTokenEnv: "SHOP_VERIFY_TOKEN",
      phoneNumberIds: ["106540352242922"],
      allowedEnv: ["SMS_GATEWAY_KEY"],
      tools,
    });
    writeFileSync(
      join(dir, "sharpsharp.config.json"),
      JSON.stringify({
        tenants: [
          shop([
            tool("a", "WHATSAPP_APP_SECRET"),
            tool("b", "BANK_APP_SECRET"),
            tool("c", "LLM_API_KEY"),
            tool("d", "SHOP_API_KEY"),
            tool("e", "SMS_GATEWAY_KEY"),
          ]),
          {
            id: "bank",
            appSecretEnv: "BANK_APP_SECRET",
            verifyTokenEnv: "BANK_VERIFY_TOKEN",
            phoneNumberIds: ["106540352242923"],
          },
        ],
      }),
    );
    const env = {
      SHOP_APP_SECRET: "s1",
      SHOP_VERIFY_TOKEN: "v1",
      BANK_APP_SECRET: "bank-app-secret-value",
      BANK_VERIFY_TOKEN: "v2",
      LLM_API_KEY: "llm-key-value",
      SHOP_API_KEY: "shop-key",
      SMS_GATEWAY_KEY: "sms-key",
    };
    const problems = problemsOf(() => loadConfig({ env, cwd: dir }));
    expect(problems).toHaveLength(3);
    expect(problems.join("\n")).toMatch(
      /tenants\.0 \(shop\): names BANK_APP_SECRET with \{ env \}, which holds a secret of tenant "bank"/,
    );
    expect(problems.join("\n")).toMatch(/names LLM_API_KEY .*gateway's own settings/);
    expect(problems.join("\n")).toMatch(/names WHATSAPP_APP_SECRET .*gateway's own settings/);
    expect(problems.join("\n")).not.toMatch(/secret-value|llm-key-value/);

    writeFileSync(
      join(dir, "sharpsharp.config.json"),
      JSON.stringify({
        tenants: [shop([tool("d", "SHOP_API_KEY"), tool("e", "SMS_GATEWAY_KEY")])],
      }),
    );
    const config = loadConfig({ env, cwd: dir });
    expect(config.tenants[0]?.secrets).toEqual({ SHOP_API_KEY: "shop-key", SMS_GATEWAY_KEY: "sms-key" });
  });

  it("gives shutdown long enough for an agent turn and its send, unless SHUTDOWN_GRACE_MS says otherwise", () => {
    const base = { WHATSAPP_APP_SECRET: "s", WHATSAPP_VERIFY_TOKEN: "v" };
    expect(loadConfig({ env: base, cwd: emptyDir() }).shutdownGraceMs).toBe(25_000 + 10_000);
    expect(
      loadConfig({ env: { ...base, AGENT_DEADLINE_MS: "60000", WORKER_LOCK_MS: "70000" }, cwd: emptyDir() })
        .shutdownGraceMs,
    ).toBe(70_000);
    expect(loadConfig({ env: { ...base, SHUTDOWN_GRACE_MS: "5000" }, cwd: emptyDir() }).shutdownGraceMs).toBe(
      5000,
    );
  });

  it("recovers campaign sends after a minute's lease and a 15 minutes' grace, unless CAMPAIGN_* says otherwise", () => {
    const base = { WHATSAPP_APP_SECRET: "s", WHATSAPP_VERIFY_TOKEN: "v" };
    expect(loadConfig({ env: base, cwd: emptyDir() }).campaigns).toEqual({
      leaseMs: 60_000,
      unknownGraceMs: 900_000,
      recoverEveryMs: 5_000,
    });
    const env = {
      ...base,
      CAMPAIGN_LEASE_MS: "2000",
      CAMPAIGN_UNKNOWN_GRACE_MS: "8000",
      CAMPAIGN_RECOVER_EVERY_MS: "250",
    };
    expect(loadConfig({ env, cwd: emptyDir() }).campaigns).toEqual({
      leaseMs: 2000,
      unknownGraceMs: 8000,
      recoverEveryMs: 250,
    });
    expect(
      problemsOf(() => loadConfig({ env: { ...base, CAMPAIGN_LEASE_MS: "10" }, cwd: emptyDir() })).join(),
    ).toMatch(/CAMPAIGN_LEASE_MS/);
  });

  it("says which file is missing or unreadable", () => {
    const dir = emptyDir();
    expect(
      problemsOf(() => loadConfig({ env: { SHARPSHARP_CONFIG: "nope.yaml" }, cwd: dir })).join(),
    ).toMatch(/SHARPSHARP_CONFIG: the file .*nope\.yaml does not exist/);
    writeFileSync(join(dir, "sharpsharp.config.json"), "{ not json");
    expect(problemsOf(() => loadConfig({ env: {}, cwd: dir })).join()).toMatch(/is not valid JSON/);
  });
});

describe("loadConfig, stricter parsing", () => {
  it("trims pasted whitespace and refuses numbers written as hex or with exponents", () => {
    const config = loadConfig({
      env: { WHATSAPP_APP_SECRET: "s3cret\n", WHATSAPP_VERIFY_TOKEN: " v " },
      cwd: emptyDir(),
    });
    expect(config.tenants[0]).toMatchObject({ appSecret: "s3cret", verifyToken: "v" });
    const problems = problemsOf(() =>
      loadConfig({
        env: {
          WHATSAPP_APP_SECRET: "a",
          WHATSAPP_VERIFY_TOKEN: "b",
          PORT: "0x10",
          COALESCE_WINDOW_MS: "1e3",
        },
        cwd: emptyDir(),
      }),
    ).join("\n");
    expect(problems).toMatch(/PORT: must be a whole number/);
    expect(problems).toMatch(/COALESCE_WINDOW_MS: must be a whole number/);
  });

  it("refuses one phone number id listed by two tenants", () => {
    const dir = emptyDir();
    writeFileSync(
      join(dir, "sharpsharp.config.json"),
      JSON.stringify({
        tenants: [
          { id: "a", appSecretEnv: "S", verifyTokenEnv: "V", phoneNumberIds: ["106540352242922"] },
          { id: "b", appSecretEnv: "S", verifyTokenEnv: "V", phoneNumberIds: ["106540352242922"] },
        ],
      }),
    );
    expect(problemsOf(() => loadConfig({ env: { S: "s", V: "v" }, cwd: dir })).join()).toMatch(
      /phone number id 106540352242922 is listed by both "a" and "b"/,
    );
  });
});
