import type { TenantConfig } from "../config/index.js";
import type { Logger } from "../observability/index.js";
import type { AgentMetrics } from "./agent-metrics.js";
import type { Toolbox } from "./agent-turn.js";
import {
  type CompiledArguments,
  compileToolArguments,
  executeHttpTool,
  type HttpToolDefinition,
  idempotencyKeyFor,
  parseTenantTools,
  ToolConfigError,
} from "./tools/index.js";

/** Where a toolbox reports what its egress policy refused; both optional. */
export interface ToolboxDeps {
  readonly logger?: Logger;
  readonly metrics?: Pick<AgentMetrics, "toolEgressRefused">;
}

// The query string carries the model's arguments (customer data); the configured origin and path do not.
const withoutQuery = (url: string): string => {
  const { origin, pathname } = new URL(url);
  return `${origin}${pathname}`;
};

/**
 * A tenant's HTTP tools (settings `tools`, secrets from the tenant's `{ env }`
 * references) as the agent turn uses them. Checked when built: a bad tool
 * definition stops the worker at start (ToolConfigError names every problem).
 * A call its egress policy refuses is a tool error for the model, logged and
 * counted here (the turn counts it as a tool `error`).
 */
export function createTenantToolbox(tenant: TenantConfig, deps: ToolboxDeps = {}): Toolbox {
  const { tools, problems } = parseTenantTools(tenant.settings.tools ?? [], (name) => tenant.secrets?.[name]);
  if (problems.length > 0) throw new ToolConfigError(tenant.id, problems);
  const byName = new Map<string, HttpToolDefinition>(tools.map((tool) => [tool.name, tool]));
  const checks = new Map<string, CompiledArguments>(
    tools.map((tool) => [tool.name, compileToolArguments(tool.parameters)]),
  );
  return {
    specs: tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
    })),
    has: (name) => byName.has(name),
    needsConfirm: (name) => byName.get(name)?.confirm === true,
    hasSideEffects: (name) => byName.get(name)?.sideEffects === true,
    describe: (name) => byName.get(name)?.description ?? name,
    checkArgs(name, args) {
      const compiled = checks.get(name);
      if (compiled === undefined || !compiled.ok)
        return { ok: false, problem: `the tool ${name} cannot be used` };
      return compiled.check(args);
    },
    async execute(name, args, context, signal) {
      const tool = byName.get(name);
      if (tool === undefined) return { ok: false, text: `error: there is no tool named ${name}` };
      const outcome = await executeHttpTool(tool, args, context, { signal });
      if (!outcome.ok && outcome.refused !== undefined) {
        const { range, address } = outcome.refused;
        deps.metrics?.toolEgressRefused.inc({ tenant: tenant.id, tool: name, range });
        deps.logger?.warn(
          { tenant: tenant.id, tool: name, url: withoutQuery(tool.url), address, range },
          "tool call refused: its address is outside what the tool's allowNetworks lets it reach",
        );
      }
      return outcome.ok
        ? {
            ok: true,
            text: outcome.truncated
              ? `${outcome.body}\n[response cut at ${tool.maxResponseBytes} bytes]`
              : outcome.body,
          }
        : { ok: false, text: `error: ${outcome.error}` };
    },
    idempotencyKey: (input) => idempotencyKeyFor(input),
  };
}
