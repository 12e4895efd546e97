import type { ParseArgsConfig } from "node:util";
import { isWhole, numberFlag, parseLatencyFlag, portFlag, readFlags } from "./cli-values.js";
import {
  FAULT_STATUSES,
  type FaultStatus,
  type LatencySetting,
  type ServiceFaultPatch,
} from "./service-faults.js";

/** Where a fake's CLI listens. */
export interface ListenAddress {
  readonly host: string;
  readonly port: number;
}

/** What a fake's flag parser answers: every problem at once, or what to run with. */
export type FakeCliParse<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly problems: readonly string[] };

/** The options of a fake OpenAI-compatible service that its common flags set. */
export interface ServiceFlagOptions {
  readonly apiKey?: string;
  readonly latencyMs?: LatencySetting;
  readonly seed?: number;
  readonly faults: ServiceFaultPatch;
}

/** How a fake OpenAI-compatible service's flags differ from the common ones. */
export interface ServiceCliSpec<T> {
  readonly defaultPort: number;
  readonly flags: NonNullable<ParseArgsConfig["options"]>;
  /** The key required when `--api-key` is not given. */
  readonly apiKeyDefault?: string | undefined;
  /** Reads the fake's own flags, pushing their problems; runs after the common flags but `--api-key`. */
  readOwnFlags(text: (name: string) => string | undefined, problems: string[]): T;
}

const SERVICE_FLAGS = {
  host: { type: "string" },
  port: { type: "string" },
  latency: { type: "string" },
  "error-rate": { type: "string" },
  "error-status": { type: "string" },
  "api-key": { type: "string" },
  seed: { type: "string" },
} as const;

/**
 * Parses the flags of a fake OpenAI-compatible service: host, port,
 * latency, error rate and status, API key and seed, with the fake's own.
 */
export function parseServiceArgs<T>(
  args: readonly string[],
  spec: ServiceCliSpec<T>,
): FakeCliParse<ListenAddress & { readonly service: ServiceFlagOptions; readonly own: T }> {
  const flags = readFlags(args, { ...SERVICE_FLAGS, ...spec.flags });
  if (!flags.ok) return flags;
  const { text } = flags;
  const problems: string[] = [];
  const port = portFlag(text("port"), problems, spec.defaultPort);
  const errorRate = numberFlag(text("error-rate"), "error-rate", problems, (n) => n >= 0 && n <= 1);
  const errorStatus = numberFlag(text("error-status"), "error-status", problems, (n) =>
    FAULT_STATUSES.includes(n as FaultStatus),
  ) as FaultStatus | undefined;
  const seed = numberFlag(text("seed"), "seed", problems, (n) => isWhole(n) && n <= 0xffff_ffff);
  const latencyRaw = text("latency");
  const latencyMs = latencyRaw === undefined ? undefined : parseLatencyFlag(latencyRaw, problems);
  const own = spec.readOwnFlags(text, problems);
  const apiKey = text("api-key") ?? spec.apiKeyDefault;
  if (apiKey !== undefined && apiKey.trim() === "") problems.push("--api-key: the key is empty");
  if (problems.length > 0) return { ok: false, problems };

  const service: ServiceFlagOptions = {
    ...(apiKey === undefined ? {} : { apiKey }),
    ...(latencyMs === undefined ? {} : { latencyMs }),
    ...(seed === undefined ? {} : { seed }),
    faults: {
      ...(errorRate === undefined ? {} : { errorRate }),
      ...(errorStatus === undefined ? {} : { errorStatus }),
    },
  };
  return { ok: true, value: { host: text("host") ?? "127.0.0.1", port, service, own } };
}
