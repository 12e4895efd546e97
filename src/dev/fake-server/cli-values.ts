import { type ParseArgsConfig, parseArgs } from "node:util";

type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig["options"]>;

import type { LatencySetting } from "./service-faults.js";

export type FlagValues = Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>;

/** The flags as parsed, with `text` reading a string flag. */
export interface ReadFlags {
  readonly ok: true;
  readonly values: FlagValues;
  text(name: string): string | undefined;
}

/** Flags only, no positionals; parseArgs stops at its first problem, so that one is all it reports. */
export function readFlags(
  args: readonly string[],
  options: ParseArgsOptionsConfig,
): ReadFlags | { readonly ok: false; readonly problems: readonly string[] } {
  let values: FlagValues;
  try {
    ({ values } = parseArgs({ args: [...args], allowPositionals: false, options }));
  } catch (error) {
    return { ok: false, problems: [(error as Error).message] };
  }
  return { ok: true, values, text: (name) => values[name] as string | undefined };
}

export const isWhole = (n: number) => Number.isInteger(n) && n >= 0;

/** `--latency 50` or `--latency 1000-3000` (ms); a problem is pushed and undefined returned when invalid. */
export function parseLatencyFlag(raw: string, problems: string[]): LatencySetting | undefined {
  const match = /^(\d{1,7})(?:-(\d{1,7}))?$/.exec(raw.trim());
  const min = Number(match?.[1]);
  const max = match?.[2] === undefined ? undefined : Number(match[2]);
  if (match === null || (max !== undefined && max < min)) {
    problems.push(`--latency: "${raw}" is not valid (a whole number of ms, or min-max with min <= max)`);
    return undefined;
  }
  return max === undefined ? min : [min, max];
}

/** A numeric flag that passes `check`; a problem is pushed when it does not. */
export function numberFlag(
  raw: string | undefined,
  name: string,
  problems: string[],
  check: (n: number) => boolean,
): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(value) || !check(value)) {
    problems.push(`--${name}: "${raw}" is not valid`);
    return undefined;
  }
  return value;
}

/** `--port`, 0 to 65535 (0: any free port). */
export function portFlag(raw: string | undefined, problems: string[], defaultPort: number): number {
  return numberFlag(raw, "port", problems, (n) => isWhole(n) && n <= 65_535) ?? defaultPort;
}

/** The JSON of the file a flag names; a problem is pushed when it cannot be read or is not JSON. */
export function readJsonFlagFile(
  flag: string,
  path: string,
  readText: (path: string) => string,
  problems: string[],
): { readonly json: unknown } | undefined {
  let text: string;
  try {
    text = readText(path);
  } catch (error) {
    problems.push(
      `--${flag}: cannot read "${path}" (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
    return undefined;
  }
  try {
    return { json: JSON.parse(text) };
  } catch (error) {
    problems.push(`--${flag}: "${path}" is not JSON (${(error as Error).message})`);
    return undefined;
  }
}
