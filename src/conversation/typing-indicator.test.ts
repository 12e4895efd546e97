import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import type { TenantConfig } from "../config/index.js";
import { createLogger } from "../observability/index.js";
import type { GraphApiClient } from "../whatsapp/index.js";
import { createGraphTypingIndicator, createTypingIndicatorCounter } from "./typing-indicator.js";

const tenant = { id: "t1", settings: {} } as unknown as TenantConfig;
const logger = createLogger({ level: "silent" });

function clientWith(markRead: GraphApiClient["markRead"]): GraphApiClient {
  return { markRead } as unknown as GraphApiClient;
}

async function outcomes(registry: Registry): Promise<Record<string, number>> {
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === "ss_typing_indicator_total");
  return Object.fromEntries((metric?.values ?? []).map((v) => [String(v.labels.outcome), v.value]));
}

describe("createGraphTypingIndicator", () => {
  it("returns within its timeout when the Graph API never answers, and counts it", async () => {
    const registry = new Registry();
    const typing = createGraphTypingIndicator(
      {
        graphClientFor: () => clientWith(() => new Promise(() => {})),
        logger,
        counter: createTypingIndicatorCounter(registry),
      },
      { timeoutMs: 50 },
    );
    const started = Date.now();
    await typing.show(tenant, "1", "wamid.1");
    expect(Date.now() - started).toBeLessThan(500);
    expect(await outcomes(registry)).toEqual({ timeout: 1 });
  });

  it("swallows errors, even from looking up the client", async () => {
    const registry = new Registry();
    const typing = createGraphTypingIndicator({
      graphClientFor: () => {
        throw new Error("no token");
      },
      logger,
      counter: createTypingIndicatorCounter(registry),
    });
    await expect(typing.show(tenant, "1", "wamid.1")).resolves.toBeUndefined();
    expect(await outcomes(registry)).toEqual({ failed: 1 });
  });

  it("asks for the typing indicator, and does nothing when the tenant turns it off", async () => {
    const calls: unknown[] = [];
    const typing = createGraphTypingIndicator({
      graphClientFor: () => clientWith(async (...args) => void calls.push(args)),
      logger,
    });
    await typing.show(tenant, "1", "wamid.1");
    await typing.show({ ...tenant, settings: { typingIndicator: false } }, "1", "wamid.2");
    expect(calls).toEqual([["1", "wamid.1", { typing: true }]]);
  });
});
