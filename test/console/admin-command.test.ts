import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { runAdminCommand } from "../../src/app/index.js";
import { loadConfig } from "../../src/config/index.js";
import { verifyPassword } from "../../src/console/index.js";
import { createRedisEventBus } from "../../src/console/redis/index.js";
import { openSqliteDatabase } from "../../src/sqlite/index.js";
import { createSqliteMessageStore } from "../../src/store/sqlite/index.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function embeddedConfig() {
  const dir = mkdtempSync(join(tmpdir(), "ss-admin-"));
  dirs.push(dir);
  return loadConfig({
    env: { WHATSAPP_APP_SECRET: "s", WHATSAPP_VERIFY_TOKEN: "v", SHARPSHARP_DATA_DIR: dir },
    cwd: dir,
  });
}

describe("sharpsharp admin", () => {
  it("creates an operator with a password made and shown once, refuses the same e-mail, and issues tokens", async () => {
    const config = embeddedConfig();
    const created = await runAdminCommand(config, {
      action: "create",
      email: "Ada@Shop.Example",
      name: "Ada",
      grants: [{ tenantId: "*", role: "admin" }],
    });
    if (created.action !== "create") throw new Error("unexpected");
    expect(created.operator.email).toBe("ada@shop.example");
    expect(created.generatedPassword).toMatch(/^[A-Za-z0-9_-]{18}$/);
    expect(created.operator.passwordHash).not.toContain(created.generatedPassword as string);
    await expect(
      runAdminCommand(config, {
        action: "create",
        email: "ada@shop.example",
        grants: [{ tenantId: "*", role: "agent" }],
      }),
    ).rejects.toMatchObject({ code: "SS_CONSOLE_OPERATOR_EXISTS" });
    await expect(
      runAdminCommand(config, {
        action: "create",
        email: "b@shop.example",
        grants: [{ tenantId: "nope", role: "agent" }],
      }),
    ).rejects.toThrow(/no tenant "nope"/);
    const token = await runAdminCommand(config, { action: "token", email: "ada@shop.example", name: "cron" });
    expect(token.action === "token" && token.token).toMatch(/^sst_/);
    const listed = await runAdminCommand(config, { action: "list" });
    expect(listed.action === "list" && listed.operators.map((operator) => operator.email)).toEqual([
      "ada@shop.example",
    ]);

    // What was stored opens with the printed password, and only with it.
    const db = openSqliteDatabase({ dataDir: config.dataDir });
    try {
      const stored = await createSqliteMessageStore(db).operators.operatorByEmail("ada@shop.example");
      expect(await verifyPassword(created.generatedPassword as string, stored?.passwordHash as string)).toBe(
        true,
      );
    } finally {
      db.close();
    }
  });

  it("refuses a short password with the reason", async () => {
    await expect(
      runAdminCommand(embeddedConfig(), {
        action: "create",
        email: "c@shop.example",
        password: "short",
        grants: [{ tenantId: "*", role: "admin" }],
      }),
    ).rejects.toThrow(/at least 10 characters/);
  });
});

describe("console events over Redis when Redis is down", () => {
  it("never throws at the writer: a failed publish is reported, and the write it announced stands", async () => {
    const redis = new Redis("redis://127.0.0.1:1", {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    redis.on("error", () => {});
    const failures: unknown[] = [];
    const bus = createRedisEventBus({
      redis,
      prefix: "ss-down",
      onPublishError: (error) => failures.push(error),
    });
    expect(() => bus.publish({ kind: "note", tenantId: "shop", conversationKey: "shop:1:2" })).not.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(failures.length).toBe(1);
    await bus.close();
    redis.disconnect();
  });
});
