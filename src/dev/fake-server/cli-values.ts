import type { LatencySetting } from "./service-faults.js";

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
