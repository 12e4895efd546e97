import { afterAll, describe, expect, it } from "vitest";
import {
  createAgentResponder,
  createKnowledgeBase,
  createOpenAiChatClient,
  createTenantToolbox,
} from "../../src/agent/index.js";
import {
  createRedisPendingActions,
  createRedisTenantSlots,
  createRedisTokenBudget,
} from "../../src/agent/redis/index.js";
import type { TenantConfig } from "../../src/config/index.js";
import { createFakeLlm } from "../../src/dev/index.js";
import { createLogger } from "../../src/observability/index.js";
import { eventually } from "../support/eventually.js";
import { testTenant } from "../support/ingress-harness.js";
import { skipWithoutRedis } from "../support/redis.js";
import { createTurnHarness, type TurnHarness } from "../support/turn-harness.js";
import { textWebhook } from "../support/webhook-builder.js";

const logger = createLogger({ level: "silent" });
const LLM_MS = 200;
const settings = { limits: { agentConcurrency: 10 } };

const percentile = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] as number;
};

describe.skipIf(skipWithoutRedis)("agent fairness between tenants", () => {
  let h: TurnHarness | undefined;
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    await h?.close();
    for (const close of closers) await close();
  });

  it("tenant A floods 5,000 agent turns while tenant B sends 50: B's p99 stays within 2× its unloaded p99", async () => {
    const llm = createFakeLlm(
      { logger },
      { latencyMs: LLM_MS, rules: [{ when: { always: true }, reply: { content: "ok" } }] },
    );
    const url = await llm.listen();
    closers.push(() => llm.close());
    h = await createTurnHarness("agent-fairness", { coalesce: { windowMs: 0, maxMs: 0 }, settings });
    const harness = h;
    const tenantB: TenantConfig = {
      ...testTenant("mama-put", "mama-secret", "mama-verify"),
      graphToken: "x",
      coalesce: { windowMs: 0, maxMs: 0 },
      settings,
    };
    const tenants = [harness.tenant, tenantB];
    const responder = createAgentResponder(tenants, {
      llm: createOpenAiChatClient({
        baseUrl: `${url}/v1`,
        apiKey: undefined,
        model: "m",
        timeoutMs: 10_000,
        provider: "primary",
      }),
      state: harness.state,
      slots: createRedisTenantSlots(harness.bull, harness.ingress.prefix, 30_000),
      pending: createRedisPendingActions(harness.bull, harness.ingress.prefix),
      budget: createRedisTokenBudget(harness.bull, harness.ingress.prefix),
      toolbox: (tenant) => createTenantToolbox(tenant),
      knowledge: () => createKnowledgeBase([]),
      logger,
      deadlineMs: 20_000,
      maxToolSteps: 3,
    });
    harness.startWorkers({ responder, tenants, turnConcurrency: 64, outboundConcurrency: 16 });

    const repliedAt = (to: string) => harness.fake.fake.messages({ to })[0]?.receivedAt;
    let seq = 0;
    const send = async (tenant: "default" | "mama-put", from: string) => {
      seq += 1;
      const body = textWebhook([
        [
          {
            wamid: `wamid.fair.${seq}`,
            from,
            timestamp: Math.floor(Date.now() / 1000),
            text: "my card dey do somehow since yesterday",
          },
        ],
      ]);
      const response = await harness.ingress.post(
        body,
        tenant === "default" ? {} : { tenant, secret: "mama-secret" },
      );
      expect(response.statusCode).toBe(200);
    };
    const tenantBRound = async (label: string): Promise<number[]> => {
      const sent: [string, number][] = [];
      for (let index = 0; index < 50; index += 1) {
        const from = `2349${label}${String(index).padStart(6, "0")}`;
        sent.push([from, Date.now()]);
        await send("mama-put", from);
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
      await eventually(() => sent.every(([from]) => repliedAt(from) !== undefined), 60_000, 50);
      return sent.map(([from, at]) => (repliedAt(from) as number) - at);
    };

    const unloaded = await tenantBRound("1");
    const flood = (async () => {
      for (let index = 0; index < 5000; index += 1)
        await send("default", `2348${String(index).padStart(9, "0")}`);
    })();
    await eventually(() => seq >= 50 + 1500, 60_000, 50);
    const loaded = await tenantBRound("2");
    await flood;
    const aAnswered = harness.fake.fake.messages().length - 100;
    const llmCalls = llm.requests().length;

    const unloadedP99 = percentile(unloaded, 0.99);
    const loadedP99 = percentile(loaded, 0.99);
    process.stdout.write(
      `fairness: B unloaded p50 ${percentile(unloaded, 0.5)} ms p99 ${unloadedP99} ms; while A floods 5,000: p50 ${percentile(loaded, 0.5)} ms p99 ${loadedP99} ms; A answered so far ${aAnswered}, LLM calls ${llmCalls}\n`,
    );
    expect(loadedP99).toBeLessThanOrEqual(2 * unloadedP99);
    expect(aAnswered).toBeGreaterThan(100); // the flood was real agent work, served alongside
  }, 180_000);
});
