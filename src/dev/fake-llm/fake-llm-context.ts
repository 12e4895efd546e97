import type { ServiceContext } from "../fake-server/index.js";
import type { FakeLlmIds } from "./ids.js";
import type { Records } from "./records.js";
import type { CompiledRule } from "./rules.js";

/** Everything the fake LLM's routes share. */
export interface FakeLlmContext extends ServiceContext<Records> {
  /** The rules in force (they change at run time). */
  rules(): readonly CompiledRule[];
  /** Replaces the rules; throws FakeLlmRulesError, changing nothing, when they are invalid. */
  setRules(rules: unknown): void;
  readonly ids: FakeLlmIds;
}
