import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { Redis } from "ioredis";
import { Registry } from "prom-client";
import { afterAll, describe, expect, it } from "vitest";
import { createGatewayResponder } from "../../src/agent/index.js";
import { createRedisAgentStores } from "../../src/agent/redis/index.js";
import { loadConfig } from "../../src/config/index.js";
import { createRedisConversationState } from "../../src/conversation/redis/index.js";
import { createLogger } from "../../src/observability/index.js";
import { loadIntentRouter } from "../../src/router/index.js";
import { skipWithoutRedis, TEST_REDIS_URL, uniquePrefix } from "../support/redis.js";

const redis = new Redis(TEST_REDIS_URL, { lazyConnect: true });
afterAll(() => redis.disconnect());
const router = loadIntentRouter();

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, logger: createLogger({ level: "info", destination }) };
}

function configWith(env: Record<string, string>, tenants?: unknown) {
  const dir = mkdtempSync(join(tmpdir(), "gateway-"));
  if (tenants !== undefined) writeFileSync(join(dir, "tenants.json"), JSON.stringify({ tenants }));
  return loadConfig({
    env: {
      WHATSAPP_APP_SECRET: "s",
      WHATSAPP_VERIFY_TOKEN: "v",
      REDIS_PREFIX: uniquePrefix("gateway"),
      ...(tenants === undefined
        ? {}
        : { SHARPSHARP_CONFIG: join(dir, "tenants.json"), T_SECRET: "s", T_VERIFY: "v" }),
      ...env,
    },
    cwd: dir,
  });
}

describe.skipIf(skipWithoutRedis)("the worker's responder at start", () => {
  const deps = (logger: ReturnType<typeof capture>["logger"], prefix: string) => ({
    stores: createRedisAgentStores(redis, prefix, 30_000),
    registry: new Registry(),
    logger,
    router,
    state: createRedisConversationState({ redis, prefix }),
  });

  it("says when no LLM is configured, and when the agent is on", () => {
    const off = capture();
    const config = configWith({});
    createGatewayResponder(config, deps(off.logger, config.redis.prefix));
    expect(off.lines.join("")).toMatch(/no LLM configured \(LLM_BASE_URL unset\)/);

    const on = capture();
    const withLlm = configWith({ LLM_BASE_URL: "http://127.0.0.1:9/v1", LLM_MODEL: "m" });
    createGatewayResponder(withLlm, deps(on.logger, withLlm.redis.prefix));
    expect(on.lines.join("")).toMatch(/LLM agent on/);
    expect(on.lines.join("")).not.toMatch(/no LLM configured/);
  });

  it("refuses a tenant's bad tool, a missing tool secret, or a bad agent setting at start, naming them", () => {
    const tenant = {
      id: "t",
      appSecretEnv: "T_SECRET",
      verifyTokenEnv: "T_VERIFY",
      phoneNumberIds: ["106540352242922"],
    };
    const bad = configWith({}, [
      {
        ...tenant,
        tools: [
          {
            name: "x",
            description: "d",
            url: "https://tools.example/x",
            headers: { Authorization: { env: "T_NOT_SET" } },
          },
        ],
      },
    ]);
    expect(() => createGatewayResponder(bad, deps(capture().logger, bad.redis.prefix))).toThrow(/T_NOT_SET/);
    const budget = configWith({}, [{ ...tenant, limits: { dailyTokenBudget: -5 } }]);
    expect(() => createGatewayResponder(budget, deps(capture().logger, budget.redis.prefix))).toThrow(
      /limits\.dailyTokenBudget/,
    );
  });

  it("refuses to start with an LLM but no model to ask, unless every tenant names its own", () => {
    const tenant = {
      id: "t",
      appSecretEnv: "T_SECRET",
      verifyTokenEnv: "T_VERIFY",
      phoneNumberIds: ["106540352242922"],
    };
    const noModel = configWith({ LLM_BASE_URL: "http://127.0.0.1:9/v1" });
    expect(() => createGatewayResponder(noModel, deps(capture().logger, noModel.redis.prefix))).toThrow(
      /LLM_MODEL/,
    );
    // The file's tenant alone (no WHATSAPP_* tenant beside it), with its own model.
    const own = configWith(
      { LLM_BASE_URL: "http://127.0.0.1:9/v1", WHATSAPP_APP_SECRET: "", WHATSAPP_VERIFY_TOKEN: "" },
      [{ ...tenant, llm: { model: "tenant-model" } }],
    );
    expect(own.tenants.map((t) => t.id)).toEqual(["t"]);
    const on = capture();
    createGatewayResponder(own, deps(on.logger, own.redis.prefix));
    expect(on.lines.join("")).toMatch(/LLM agent on/);
  });

  it("takes a short lease by default (renewed while a turn runs), whatever the agent's deadline", () => {
    const config = configWith({ LLM_BASE_URL: "http://127.0.0.1:9/v1", AGENT_DEADLINE_MS: "60000" });
    expect(config.worker).toMatchObject({ lockMs: 6000, stalledIntervalMs: 3000, maxTurnAttempts: 5 });
  });
});
