import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdminCommand, startAll, startConsole } from "../../src/app/index.js";
import { loadConfig } from "../../src/config/index.js";
import { createLogger } from "../../src/observability/index.js";
import { type ConsoleClient, eventually, logIn, openEventStream } from "../support/console-harness.js";
import { GRAPH_TOKEN, type RunningFake, startFake } from "../support/fake-graph.js";
import {
  createTestPool,
  dropSchema,
  skipWithoutPostgres,
  TEST_DATABASE_URL,
  uniqueSchema,
} from "../support/postgres.js";
import { deleteKeys, skipWithoutRedis, TEST_REDIS_URL, uniquePrefix } from "../support/redis.js";

const NUMBER = "106540352242922";

describe.skipIf(skipWithoutRedis || skipWithoutPostgres)(
  "console in Redis mode: sharpsharp console beside the gateway",
  () => {
    const prefix = uniquePrefix("console");
    const schema = uniqueSchema("console");
    const dir = mkdtempSync(join(tmpdir(), "ss-console-redis-"));
    let fake: RunningFake;
    let gateway: Awaited<ReturnType<typeof startAll>>;
    let consoleProcess: Awaited<ReturnType<typeof startConsole>>;
    let operator: ConsoleClient;

    beforeAll(async () => {
      let webhook: string | undefined;
      fake = await startFake({
        phoneNumberIds: [NUMBER],
        autoStatuses: { webhookUrl: () => webhook, appSecret: "redis-console-secret", delayMs: 30 },
      });
      const env = {
        WHATSAPP_APP_SECRET: "redis-console-secret",
        WHATSAPP_VERIFY_TOKEN: "v",
        WHATSAPP_TOKEN: GRAPH_TOKEN,
        WHATSAPP_PHONE_NUMBER_ID: NUMBER,
        GRAPH_API_BASE_URL: fake.url,
        REDIS_URL: TEST_REDIS_URL,
        REDIS_PREFIX: prefix,
        DATABASE_URL: TEST_DATABASE_URL,
        DATABASE_SCHEMA: schema,
        SHARPSHARP_DATA_DIR: join(dir, "data"),
        HOST: "127.0.0.1",
        PORT: "0",
        ADMIN_PORT: "0",
        COALESCE_WINDOW_MS: "0",
        COALESCE_MAX_MS: "0",
      };
      const logger = createLogger({ level: "silent" });
      const config = loadConfig({ env, cwd: dir });
      gateway = await startAll(config, { logger });
      webhook = `${gateway.url}/webhook`;
      const consoleConfig = loadConfig({ env: { ...env, CONSOLE_INGRESS_URL: gateway.url }, cwd: dir });
      const created = await runAdminCommand(consoleConfig, {
        action: "create",
        email: "tunde@shop.example",
        name: "Tunde",
        grants: [{ tenantId: "*", role: "admin" }],
      });
      if (created.action !== "create" || created.generatedPassword === undefined)
        throw new Error("no password");
      consoleProcess = await startConsole(consoleConfig, { logger });
      operator = await logIn(consoleProcess.adminUrl, "tunde@shop.example", created.generatedPassword);
    });

    afterAll(async () => {
      await consoleProcess?.close();
      await gateway?.close();
      await fake?.fake.close();
      const redis = new Redis(TEST_REDIS_URL);
      await deleteKeys(redis, prefix);
      redis.disconnect();
      const pool = createTestPool();
      await dropSchema(pool, schema);
      await pool.end();
      rmSync(dir, { recursive: true, force: true });
    });

    it("hears the workers over Redis, takes a handoff over and answers it through the workers' queue", async () => {
      const stream = await openEventStream(consoleProcess.adminUrl, operator.cookie);

      const customer = "2348041112222";
      const { conversationKey } = await operator.json<{ conversationKey: string }>(
        "POST",
        "/api/v1/simulator/messages",
        {
          tenant: "default",
          from: customer,
          text: "abeg connect me to human",
        },
      );
      await eventually(
        async () =>
          stream.text().includes("event: message") && stream.text().includes(conversationKey)
            ? true
            : undefined,
        5000,
        "the worker's event",
      );
      const key = encodeURIComponent(conversationKey);
      await eventually(
        async () => {
          const list = await operator.json<{ items: { conversationKey: string }[] }>(
            "GET",
            "/api/v1/conversations?view=needs_human",
          );
          return list.items.some((item) => item.conversationKey === conversationKey) ? true : undefined;
        },
        5000,
        "the handoff",
      );
      expect((await operator.request("POST", `/api/v1/conversations/${key}/takeover`, {})).status).toBe(200);
      expect(
        (await operator.request("POST", `/api/v1/conversations/${key}/reply`, { text: "Na Tunde here" }))
          .status,
      ).toBe(202);
      const texts = () =>
        fake.fake
          .messages({ to: customer })
          .map((message) => (message.body as { text?: { body?: string } }).text?.body);
      await eventually(
        async () => (texts().includes("Na Tunde here") ? true : undefined),
        5000,
        "the reply at Meta",
      );
      await eventually(
        async () => {
          const detail = await operator.json<{
            messages: { sentBy?: string; delivery?: { status: string } }[];
          }>("GET", `/api/v1/conversations/${key}`);
          return detail.messages.find((message) => message.sentBy !== undefined)?.delivery?.status === "read"
            ? true
            : undefined;
        },
        5000,
        "the read tick",
      );

      expect(
        (await operator.request("POST", `/api/v1/conversations/${key}/mode`, { mode: "bot" })).status,
      ).toBe(200);
      const before = texts().length;
      await operator.json("POST", "/api/v1/simulator/messages", {
        tenant: "default",
        from: customer,
        text: "how much for delivery",
      });
      await eventually(
        async () => (texts().length === before + 1 ? true : undefined),
        5000,
        "the bot's answer",
      );
      const figures = await operator.json<{ queues: { name: string }[]; latency: { webhookAckMs: unknown } }>(
        "GET",
        "/api/v1/metrics",
      );
      expect(figures.queues.length).toBeGreaterThan(0);
      expect(figures.latency.webhookAckMs).toBeNull();
      await stream.close();
    });
  },
);
