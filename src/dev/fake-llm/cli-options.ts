import { parseArgs } from "node:util";
import {
  FAULT_STATUSES,
  type FaultStatus,
  numberFlag as number,
  parseLatencyFlag as parseLatency,
} from "../fake-server/index.js";
import type { FakeLlmOptions } from "./create-fake-llm.js";
import { compileRules, FakeLlmRulesError } from "./rules.js";

/** What `sharpsharp fake-llm` runs with. */
export interface FakeLlmCliOptions {
  readonly host: string;
  readonly port: number;
  readonly llm: FakeLlmOptions;
}

export type FakeLlmCliParse =
  | { readonly ok: true; readonly value: FakeLlmCliOptions }
  | { readonly ok: false; readonly problems: readonly string[] };

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
  let text: string;
  try {
    text = deps.readText(path);
  } catch (error) {
    problems.push(
      `--rules: cannot read "${path}" (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
    return undefined;
  }
  try {
    return compileRules(JSON.parse(text)).map((rule) => rule.source);
  } catch (error) {
    if (error instanceof FakeLlmRulesError)
      problems.push(...error.problems.map((p) => `--rules ${path}: ${p}`));
    else problems.push(`--rules: "${path}" is not JSON (${(error as Error).message})`);
    return undefined;
  }
}

/** Parses the flags of `sharpsharp fake-llm`; every problem is reported at once. */
export function parseFakeLlmArgs(args: readonly string[], deps: FakeLlmCliDeps): FakeLlmCliParse {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...args],
      allowPositionals: false,
      options: {
        host: { type: "string" },
        port: { type: "string" },
        latency: { type: "string" },
        "error-rate": { type: "string" },
        "error-status": { type: "string" },
        rules: { type: "string" },
        "api-key": { type: "string" },
        seed: { type: "string" },
      },
    }));
  } catch (error) {
    return { ok: false, problems: [(error as Error).message] };
  }
  const problems: string[] = [];
  const text = (name: string) => values[name] as string | undefined;
  const whole = (n: number) => Number.isInteger(n) && n >= 0;
  const port = number(text("port"), "port", problems, (n) => whole(n) && n <= 65_535) ?? 4100;
  const errorRate = number(text("error-rate"), "error-rate", problems, (n) => n >= 0 && n <= 1);
  const errorStatus = number(text("error-status"), "error-status", problems, (n) =>
    FAULT_STATUSES.includes(n as FaultStatus),
  ) as FaultStatus | undefined;
  const seed = number(text("seed"), "seed", problems, (n) => whole(n) && n <= 0xffff_ffff);
  const latencyRaw = text("latency");
  const latencyMs = latencyRaw === undefined ? undefined : parseLatency(latencyRaw, problems);
  const rulesPath = text("rules");
  const rules = rulesPath === undefined ? undefined : readRules(rulesPath, deps, problems);
  const apiKey = text("api-key") ?? deps.llmApiKey;
  if (apiKey !== undefined && apiKey.trim() === "") problems.push("--api-key: the key is empty");
  if (problems.length > 0) return { ok: false, problems };

  return {
    ok: true,
    value: {
      host: text("host") ?? "127.0.0.1",
      port,
      llm: {
        ...(apiKey === undefined ? {} : { apiKey }),
        ...(rules === undefined ? {} : { rules }),
        ...(latencyMs === undefined ? {} : { latencyMs }),
        ...(seed === undefined ? {} : { seed }),
        faults: {
          ...(errorRate === undefined ? {} : { errorRate }),
          ...(errorStatus === undefined ? {} : { errorStatus }),
        },
      },
    },
  };
}
