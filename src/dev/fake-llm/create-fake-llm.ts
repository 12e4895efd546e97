import type { Logger } from "../../observability/index.js";
import {
  createServiceCore,
  type LatencySetting,
  type ServiceFaultPatch,
  type ServiceFaultSettings,
  type ServiceHandle,
  serviceContext,
  serviceHandle,
} from "../fake-server/index.js";
import { buildFakeLlmApp } from "./build-fake-llm-app.js";
import type { FakeLlmContext } from "./fake-llm-context.js";
import { createDefaultIds, type FakeLlmIds } from "./ids.js";
import { createRecords, type FakeLlmRequestRecord } from "./records.js";
import { type CompiledRule, compileRules, type FakeLlmRule } from "./rules.js";

/** A change of the fake LLM's faults (see ServiceFaultPatch). */
export type FakeLlmFaultPatch = ServiceFaultPatch;
/** The fake LLM's faults in force. */
export type FakeLlmFaultSettings = ServiceFaultSettings;

export interface FakeLlmDeps {
  readonly logger: Logger;
  /** ms since the epoch: record times and `created`. */
  readonly now?: () => number;
  /** [0, 1): rolls errorRate and latency ranges; default a PRNG seeded with `options.seed`. */
  readonly random?: () => number;
  readonly ids?: FakeLlmIds;
}

export interface FakeLlmOptions {
  /** When set, completions need `Authorization: Bearer <apiKey>` (else 401); unset: any key, or none. */
  readonly apiKey?: string;
  /** Scripted behaviour, first match wins; default: none (the default answers). */
  readonly rules?: readonly FakeLlmRule[];
  /** Delay before every completion, ms, or `[min, max]` drawn uniformly; default 0. */
  readonly latencyMs?: LatencySetting;
  /** Faults in force from the start (a `latencyMs` here wins over the option above). */
  readonly faults?: FakeLlmFaultPatch;
  /** Seed of the default random source, so runs roll the same errors and delays; default 1. */
  readonly seed?: number;
  /** Requests kept in the record; default 10,000. */
  readonly maxRecords?: number;
}

/** A running (or ready to run) fake OpenAI-compatible chat-completions server. */
export interface FakeLlm extends ServiceHandle<FakeLlmRequestRecord> {
  /** Every completion request, oldest first, with what it was answered. */
  requests(): FakeLlmRequestRecord[];
  /** Replaces the rules; throws FakeLlmRulesError listing every problem, changing nothing. */
  setRules(rules: readonly FakeLlmRule[]): void;
  /** Back to the starting rules, faults and random seed; records forgotten; held requests let go. */
  reset(): void;
}

/**
 * A stand-in for an OpenAI-compatible LLM on a real HTTP port: OpenAI's
 * validation, errors and response shape, scripted answers and tool calls,
 * realistic usage, latency and injectable faults. For tests and local runs.
 */
export function createFakeLlm(deps: FakeLlmDeps, options: FakeLlmOptions = {}): FakeLlm {
  const initialRules = compileRules(options.rules ?? []);
  let rules: readonly CompiledRule[] = initialRules;
  const core = createServiceCore(deps, options);
  const ctx: FakeLlmContext = {
    ...serviceContext(core, createRecords(options.maxRecords ?? 10_000), () => {
      rules = initialRules;
    }),
    rules: () => rules,
    setRules(next) {
      rules = compileRules(next);
    },
    ids: deps.ids ?? createDefaultIds(),
  };
  const app = buildFakeLlmApp(ctx, deps.logger);

  return {
    ...serviceHandle(app, core, ctx),
    setRules: (next) => ctx.setRules(next),
  };
}
