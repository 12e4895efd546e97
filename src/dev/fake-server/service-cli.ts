import type { ParseArgsConfig } from "node:util";
import { isWhole, numberFlag, parseLatencyFlag, portFlag } from "./cli-values.js";
import {
  FAULT_STATUSES,
  type FaultStatus,
  type LatencySetting,
  type ServiceFaultPatch,
} from "./service-faults.js";

/** The flags every fake OpenAI-compatible service takes. */
export const SERVICE_FLAG_OPTIONS = {
  host: { type: "string" },
  port: { type: "string" },
  latency: { type: "string" },
  "error-rate": { type: "string" },
  "error-status": { type: "string" },
  "api-key": { type: "string" },
  seed: { type: "string" },
} as const satisfies ParseArgsConfig["options"];

/** Those flags read, but for the API key, which each fake defaults its own way. */
export interface ServiceFlags {
  readonly host: string;
  readonly port: number;
  readonly latencyMs: LatencySetting | undefined;
  readonly seed: number | undefined;
  readonly errorRate: number | undefined;
  readonly errorStatus: FaultStatus | undefined;
}

export function parseServiceFlags(
  text: (name: string) => string | undefined,
  problems: string[],
  defaultPort: number,
): ServiceFlags {
  const port = portFlag(text("port"), problems, defaultPort);
  const errorRate = numberFlag(text("error-rate"), "error-rate", problems, (n) => n >= 0 && n <= 1);
  const errorStatus = numberFlag(text("error-status"), "error-status", problems, (n) =>
    FAULT_STATUSES.includes(n as FaultStatus),
  ) as FaultStatus | undefined;
  const seed = numberFlag(text("seed"), "seed", problems, (n) => isWhole(n) && n <= 0xffff_ffff);
  const latencyRaw = text("latency");
  const latencyMs = latencyRaw === undefined ? undefined : parseLatencyFlag(latencyRaw, problems);
  return { host: text("host") ?? "127.0.0.1", port, latencyMs, seed, errorRate, errorStatus };
}

export function checkApiKeyFlag(apiKey: string | undefined, problems: string[]): void {
  if (apiKey !== undefined && apiKey.trim() === "") problems.push("--api-key: the key is empty");
}

/** The service options the flags set, leaving out those not given. */
export function serviceOptionsOf(
  flags: ServiceFlags,
  apiKey: string | undefined,
): {
  readonly apiKey?: string;
  readonly latencyMs?: LatencySetting;
  readonly seed?: number;
  readonly faults: ServiceFaultPatch;
} {
  const { latencyMs, seed, errorRate, errorStatus } = flags;
  return {
    ...(apiKey === undefined ? {} : { apiKey }),
    ...(latencyMs === undefined ? {} : { latencyMs }),
    ...(seed === undefined ? {} : { seed }),
    faults: {
      ...(errorRate === undefined ? {} : { errorRate }),
      ...(errorStatus === undefined ? {} : { errorStatus }),
    },
  };
}
