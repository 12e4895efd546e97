import type { Faults, HeldRequests } from "../fake-server/index.js";
import type { FakeLlmIds } from "./ids.js";
import type { Records } from "./records.js";
import type { CompiledRule } from "./rules.js";

/** Everything the fake LLM's routes share. */
export interface FakeLlmContext {
  /** When set, completions need `Authorization: Bearer <apiKey>`. */
  readonly apiKey: string | undefined;
  readonly faults: Faults;
  readonly held: HeldRequests;
  readonly records: Records;
  /** The rules in force (they change at run time). */
  rules(): readonly CompiledRule[];
  /** Replaces the rules; throws FakeLlmRulesError, changing nothing, when they are invalid. */
  setRules(rules: unknown): void;
  readonly ids: FakeLlmIds;
  readonly now: () => number;
  /** Aborted when the fake closes, so held and delayed requests stop waiting. */
  readonly closing: AbortSignal;
  /** Back to the starting rules and faults, records forgotten. */
  reset(): void;
}
