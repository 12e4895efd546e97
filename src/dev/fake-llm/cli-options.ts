import {
  type FakeCliParse,
  type ListenAddress,
  parseServiceArgs,
  readJsonFlagFile,
} from "../fake-server/index.js";
import type { FakeLlmOptions } from "./create-fake-llm.js";
import { compileRules, FakeLlmRulesError } from "./rules.js";

/** What `sharpsharp fake-llm` runs with. */
export interface FakeLlmCliOptions extends ListenAddress {
  readonly llm: FakeLlmOptions;
}

export type FakeLlmCliParse = FakeCliParse<FakeLlmCliOptions>;

/** What the parser needs from outside: the environment's API key and a way to read the rules file. */
export interface FakeLlmCliDeps {
  /** `$LLM_API_KEY`: the key required when `--api-key` is not given. */
  readonly llmApiKey?: string;
  readonly readText: (path: string) => string;
}

export const FAKE_LLM_USAGE = `Usage: sharpsharp fake-llm [options]

A fake OpenAI-compatible LLM (POST /v1/chat/completions) on a real port, for local runs and tests.

Options:
  --host <host>            listen address (default 127.0.0.1)
  --port <port>            listen port (default 4100; 0 = any free port)
  --latency <ms|min-max>   delay before every answer: 50, or 1000-3000 drawn uniformly (default 0)
  --error-rate <0..1>      share of completions answered with --error-status (default 0)
  --error-status <status>  500 (default), 429 (sends retry-after: 1), 502, 503 or 504
  --rules <file.json>      scripted answers: a JSON list of {when, reply} rules (see README.md, "Fake LLM")
  --api-key <key>          require Authorization: Bearer <key> (default: $LLM_API_KEY; unset = any key)
  --seed <n>               seed of the random source for errors and latency (default 1)`;

function readRules(path: string, deps: FakeLlmCliDeps, problems: string[]): FakeLlmOptions["rules"] {
  const file = readJsonFlagFile("rules", path, deps.readText, problems);
  if (file === undefined) return undefined;
  try {
    return compileRules(file.json).map((rule) => rule.source);
  } catch (error) {
    if (!(error instanceof FakeLlmRulesError)) throw error;
    problems.push(...error.problems.map((p) => `--rules ${path}: ${p}`));
    return undefined;
  }
}

/** Parses the flags of `sharpsharp fake-llm`; every problem is reported at once. */
export function parseFakeLlmArgs(args: readonly string[], deps: FakeLlmCliDeps): FakeLlmCliParse {
  const parsed = parseServiceArgs(args, {
    defaultPort: 4100,
    flags: { rules: { type: "string" } },
    apiKeyDefault: deps.llmApiKey,
    readOwnFlags(text, problems) {
      const path = text("rules");
      const rules = path === undefined ? undefined : readRules(path, deps, problems);
      return rules === undefined ? {} : { rules };
    },
  });
  if (!parsed.ok) return parsed;
  const { host, port, service, own } = parsed.value;
  return { ok: true, value: { host, port, llm: { ...service, ...own } } };
}
