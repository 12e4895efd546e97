import type { Registry } from "prom-client";
import type { AppConfig, TenantConfig } from "../config/index.js";
import type { ConversationStateStore, Responder, TurnDecisionHook } from "../conversation/index.js";
import type { Logger, Tracing } from "../observability/index.js";
import { createRouterMetrics, type IntentRouter } from "../router/index.js";
import { createAgentMetrics } from "./agent-metrics.js";
import { createAgentResponder } from "./agent-responder.js";
import { AgentSettingsError, resolveAgentSettings } from "./agent-settings.js";
import type { Toolbox } from "./agent-turn.js";
import { createKnowledgeBase, type KnowledgeBase } from "./knowledge.js";
import { createOpenAiChatClient, withFallback } from "./openai-chat-client.js";
import type { AgentStores, LlmClient } from "./ports.js";
import { createTenantToolbox } from "./toolbox.js";

export interface GatewayResponderDeps {
  readonly stores: AgentStores;
  readonly registry: Registry;
  readonly logger: Logger;
  readonly router: IntentRouter;
  readonly state: ConversationStateStore;
  /** Replaces the LLM client made from config.llm (tests). */
  readonly llm?: LlmClient;
  /** Told each turn's decision and agent usage (e.g. the message store's recorder); optional. */
  readonly onTurnDecision?: TurnDecisionHook;
  /** Spans for the router's decision, the agent turn and each LLM and tool call; optional (off). */
  readonly tracing?: Tracing;
}

/** The LLM client from config.llm (primary and optional fallback), or undefined when no LLM is configured. */
export function llmFromConfig(config: AppConfig): LlmClient | undefined {
  const llm = config.llm;
  if (llm === undefined) return undefined;
  const primary = createOpenAiChatClient({ ...llm, timeoutMs: llm.timeoutMs, provider: "primary" });
  const fallback =
    llm.fallback === undefined
      ? undefined
      : createOpenAiChatClient({ ...llm.fallback, timeoutMs: llm.timeoutMs, provider: "fallback" });
  return withFallback(primary, fallback);
}

/**
 * The worker's responder: router, then the LLM agent with each tenant's
 * tools and FAQ, with `deps.stores` for pending confirmations, token budgets
 * and agent slots. Every tenant's router, agent and tool settings are checked here, so a
 * bad one stops the worker at start. Logs whether the agent is on.
 */
export function createGatewayResponder(config: AppConfig, deps: GatewayResponderDeps): Responder {
  const toolboxes = new Map<string, Toolbox>();
  const knowledge = new Map<string, KnowledgeBase>();
  const metrics = createAgentMetrics(deps.registry);
  // Refused egress is logged and counted by the toolbox itself.
  const toolboxOf = (tenant: TenantConfig) => createTenantToolbox(tenant, { logger: deps.logger, metrics });
  for (const tenant of config.tenants) {
    toolboxes.set(tenant.id, toolboxOf(tenant));
    knowledge.set(tenant.id, createKnowledgeBase(resolveAgentSettings(tenant).knowledge));
  }
  // Without a model every agent call would fail into the fallback reply while the log said the agent was on.
  if (deps.llm === undefined && config.llm !== undefined && config.llm.model === undefined) {
    for (const tenant of config.tenants) {
      if (resolveAgentSettings(tenant).model === undefined)
        throw new AgentSettingsError(tenant.id, [
          "llm.model: no model to ask (LLM_BASE_URL is set): set LLM_MODEL, or this tenant's llm.model",
        ]);
    }
  }
  const llm = deps.llm ?? llmFromConfig(config);
  if (llm === undefined)
    deps.logger.warn(
      "no LLM configured (LLM_BASE_URL unset): messages the router cannot answer get the tenant's fallback reply",
    );
  else
    deps.logger.info(
      {
        model: config.llm?.model,
        fallback: config.llm?.fallback === undefined ? "none" : (config.llm.fallback.model ?? "set"),
        deadlineMs: config.agent.deadlineMs,
        maxToolSteps: config.agent.maxToolSteps,
      },
      "LLM agent on",
    );
  const of = <T>(map: Map<string, T>, tenant: TenantConfig, make: () => T): T => {
    const known = map.get(tenant.id);
    if (known !== undefined) return known;
    const made = make();
    map.set(tenant.id, made);
    return made;
  };
  return createAgentResponder(config.tenants, {
    llm,
    router: deps.router,
    routerMetrics: createRouterMetrics(deps.registry),
    customIntents: {
      dataDir: config.dataDir,
      log: (message, fields) => deps.logger.info(fields, message),
    },
    state: deps.state,
    ...deps.stores,
    toolbox: (tenant) => of(toolboxes, tenant, () => toolboxOf(tenant)),
    knowledge: (tenant) =>
      of(knowledge, tenant, () => createKnowledgeBase(resolveAgentSettings(tenant).knowledge)),
    metrics,
    logger: deps.logger,
    deadlineMs: config.agent.deadlineMs,
    maxToolSteps: config.agent.maxToolSteps,
    ...(deps.onTurnDecision === undefined ? {} : { onTurnDecision: deps.onTurnDecision }),
    ...(deps.tracing === undefined ? {} : { tracing: deps.tracing }),
  });
}
