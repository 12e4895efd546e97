import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig, secretValuesOf } from "./index.js";

describe("secretValuesOf", () => {
  it("lists every secret value of the configuration, the passwords in the backend URLs included", () => {
    const config = loadConfig({
      env: {
        WHATSAPP_APP_SECRET: "app-secret-1",
        WHATSAPP_VERIFY_TOKEN: "verify-token-1",
        WHATSAPP_TOKEN: "EAAGgraph-token",
        LLM_BASE_URL: "https://llm.example/v1",
        LLM_API_KEY: "sk-llm-key-0123456789",
        ADMIN_TOKEN: "admin-token-0123456789",
        REDIS_URL: "redis://default:redis%40pass@127.0.0.1:6379",
        DATABASE_URL: "postgres://app:pg-pass@127.0.0.1:5432/ss",
      },
      cwd: mkdtempSync(join(tmpdir(), "ss-secrets-")),
    });
    expect(secretValuesOf(config).sort()).toEqual(
      [
        "app-secret-1",
        "verify-token-1",
        "EAAGgraph-token",
        "sk-llm-key-0123456789",
        "admin-token-0123456789",
        "redis@pass",
        "pg-pass",
      ].sort(),
    );
  });
});
