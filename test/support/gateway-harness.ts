import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createAgentMetrics,
  createAgentResponder,
  createKnowledgeBase,
  createTenantToolbox,
  type LlmClient,
  resolveAgentSettings,
} from "../../src/agent/index.js";
import {
  createRedisPendingActions,
  createRedisTenantSlots,
  createRedisTokenBudget,
} from "../../src/agent/redis/index.js";
import { type RunningEmbedded, startEmbedded } from "../../src/app/index.js";
import type { AppConfig, TenantConfig } from "../../src/config/index.js";
import type { Responder } from "../../src/conversation/index.js";
import { signatureFor } from "../../src/ingress/index.js";
import { createLogger } from "../../src/observability/index.js";
import { createFirstResponder, loadIntentRouter } from "../../src/router/index.js";
import { embeddedEnvConfig } from "./embedded-config.js";
import { GRAPH_TOKEN, type RunningFake, startFake } from "./fake-graph.js";
import { APP_SECRET, testTenant } from "./ingress-harness.js";
import { skipWithoutRedis } from "./redis.js";
import { createTurnHarness, type TurnHarness } from "./turn-harness.js";

/**
 * The two ways the gateway runs (DESIGN.md, promise 7): separate ingress and
 * workers on Redis (BullMQ), or embedded in one process on one SQLite file.
 */
export type Backend = "redis" | "embedded";
export const BACKENDS: readonly Backend[] = ["redis", "embedded"];
/** Redis-backed variants skip on a laptop without Redis (never in CI); embedded always runs. */
export const skipBackend = (backend: Backend): boolean => backend === "redis" && skipWithoutRedis;

export interface GatewayOptions {
  readonly backend: Backend;
  readonly label: string;
  /** Fields of the `default` tenant (its Graph token is the fake's). */
  readonly tenant?: Partial<TenantConfig>;
  /** The LLM agent: the gateway's agent responder with this client (Redis: Redis stores; embedded: SQLite ones). */
  readonly agent?: { readonly llm: LlmClient | undefined; readonly deadlineMs?: number };
  /** What answers a turn (neither agent nor router); default: as above. */
  readonly responder?: Responder;
  /** Default 4 (Redis) / 16 (embedded, its own default). */
  readonly turnConcurrency?: number;
  /** Default 1 (Redis: keeps sends in queue order) / 16 (embedded, its own default). */
  readonly outboundConcurrency?: number;
  readonly fake?: Parameters<typeof startFake>[0];
}

/** A running gateway, whichever the backend: a signed webhook in, replies out at the fake Graph API. */
export interface GatewayHarness {
  readonly backend: Backend;
  readonly fake: RunningFake;
  readonly tenant: TenantConfig;
  /** Where Meta would post webhooks (the fake's status webhooks go here). */
  readonly webhookUrl: string;
  /** A signed webhook POST (the `default` tenant's secret unless given). */
  post(
    body: Buffer | string,
    options?: { tenant?: string; secret?: string },
  ): Promise<{ statusCode: number }>;
  /** The Prometheus text of the gateway's turn, outbound, delivery and agent metrics. */
  metricsText(): Promise<string>;
  /** Sum of the samples named `name` (exactly) with these labels. */
  metric(name: string, labels?: Record<string, string>): Promise<number>;
  /** Redis only: the Redis harness underneath, for checks of keys and BullMQ internals. */
  readonly redis: TurnHarness | undefined;
  /** Redis only: the responder the turn workers run (to drive a turn by hand). */
  readonly responder: Responder | undefined;
  close(): Promise<void>;
}

/** Sum of the samples of `name` with `labels` in Prometheus text exposition. */
export function sampleSum(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match === null || match[1] !== name) continue;
    const found = new Map(
      [...(match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([key, wanted]) => found.get(key) === wanted)) sum += Number(match[3]);
  }
  return sum;
}

/** A configuration as `sharpsharp start` would load it without REDIS_URL, on `dataDir`, with these tenants. */
export function embeddedTestConfig(
  graphUrl: string,
  dataDir: string,
  tenants: readonly TenantConfig[],
  agent: Partial<AppConfig["agent"]> = {},
): AppConfig {
  const config = embeddedEnvConfig(graphUrl, dataDir);
  return { ...config, tenants, agent: { ...config.agent, ...agent } };
}

const PLACEHOLDER = "http://gateway.invalid";

/** Starts the gateway on `backend` with the fake Graph API; the workers (or runners) are running when it resolves. */
export async function createGatewayHarness(options: GatewayOptions): Promise<GatewayHarness> {
  return options.backend === "redis" ? startRedisGateway(options) : startEmbeddedGateway(options);
}

async function startRedisGateway(options: GatewayOptions): Promise<GatewayHarness> {
  const h = await createTurnHarness(options.label, options.tenant ?? {}, options.fake ?? {});
  try {
    const webhookUrl = `${await h.ingress.app.listen({ host: "127.0.0.1", port: 0 })}/webhook`;
    const agent = options.agent;
    const responder: Responder =
      options.responder ??
      (agent === undefined
        ? createFirstResponder([h.tenant])
        : createAgentResponder([h.tenant], {
            llm: agent.llm,
            router: loadIntentRouter(),
            state: h.state,
            slots: createRedisTenantSlots(h.bull, h.ingress.prefix, 30_000),
            pending: createRedisPendingActions(h.bull, h.ingress.prefix),
            budget: createRedisTokenBudget(h.bull, h.ingress.prefix),
            toolbox: (tenant) => createTenantToolbox(tenant),
            knowledge: (tenant) => createKnowledgeBase(resolveAgentSettings(tenant).knowledge),
            logger: createLogger({ level: "silent" }),
            deadlineMs: agent.deadlineMs ?? 5000,
            maxToolSteps: 5,
            metrics: createAgentMetrics(h.registry),
          }));
    h.startWorkers({
      responder,
      ...(options.turnConcurrency === undefined ? {} : { turnConcurrency: options.turnConcurrency }),
      ...(options.outboundConcurrency === undefined
        ? {}
        : { outboundConcurrency: options.outboundConcurrency }),
    });
    const metricsText = () => h.registry.metrics();
    return {
      backend: "redis",
      fake: h.fake,
      tenant: h.tenant,
      webhookUrl,
      post: (body, postOptions = {}) => h.ingress.post(body, postOptions),
      metricsText,
      metric: async (name, labels) => sampleSum(await metricsText(), name, labels),
      redis: h,
      responder,
      close: () => h.close(),
    };
  } catch (error) {
    await h.close();
    throw error;
  }
}

async function startEmbeddedGateway(options: GatewayOptions): Promise<GatewayHarness> {
  // The fake's status webhooks need the gateway's URL, known only once it listens.
  let gatewayUrl = PLACEHOLDER;
  const fakeOptions = options.fake ?? {};
  const fake = await startFake(
    fakeOptions.autoStatuses === undefined
      ? fakeOptions
      : {
          ...fakeOptions,
          autoStatuses: { ...fakeOptions.autoStatuses, webhookUrl: `${PLACEHOLDER}/webhook` },
        },
    { fetch: (input, init) => fetch(String(input).replace(PLACEHOLDER, gatewayUrl), init) },
  );
  const dataDir = mkdtempSync(join(tmpdir(), `ss-e2e-${options.label}-`));
  const tenant: TenantConfig = { ...testTenant("default"), graphToken: GRAPH_TOKEN, ...options.tenant };
  const tenants = [tenant, testTenant("mama-put", "mama-secret", "mama-verify")];
  let running: RunningEmbedded | undefined;
  try {
    const config = embeddedTestConfig(
      fake.url,
      dataDir,
      tenants,
      options.agent?.deadlineMs === undefined ? {} : { deadlineMs: options.agent.deadlineMs },
    );
    running = await startEmbedded(config, {
      logger: createLogger({ level: "silent" }),
      graceMs: 500,
      // Without an agent: no LLM, so what the router cannot resolve gets the fallback reply, as on Redis.
      ...(options.agent?.llm === undefined ? {} : { llm: options.agent.llm }),
      ...(options.responder === undefined ? {} : { responder: options.responder }),
      ...(options.turnConcurrency === undefined ? {} : { turnConcurrency: options.turnConcurrency }),
      ...(options.outboundConcurrency === undefined
        ? {}
        : { outboundConcurrency: options.outboundConcurrency }),
    });
  } catch (error) {
    await fake.fake.close();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const gateway = running;
  gatewayUrl = gateway.url;
  const metricsText = async () => (await gateway.adminApp.inject({ method: "GET", url: "/metrics" })).body;
  return {
    backend: "embedded",
    fake,
    tenant,
    webhookUrl: `${gateway.url}/webhook`,
    post(body, postOptions = {}) {
      const bytes = typeof body === "string" ? Buffer.from(body) : body;
      return gateway.app.inject({
        method: "POST",
        url: postOptions.tenant === undefined ? "/webhook" : `/webhook/${postOptions.tenant}`,
        payload: bytes,
        headers: {
          "content-type": "application/json",
          "x-hub-signature-256": signatureFor(bytes, postOptions.secret ?? APP_SECRET),
        },
      });
    },
    metricsText,
    metric: async (name, labels) => sampleSum(await metricsText(), name, labels),
    redis: undefined,
    responder: undefined,
    async close() {
      await gateway.close();
      await fake.fake.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
