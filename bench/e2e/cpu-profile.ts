import { readFileSync } from "node:fs";

/** One node of a V8 CPU profile's call tree (the `.cpuprofile` that `node --cpu-prof` writes). */
export interface ProfileNode {
  readonly id: number;
  readonly callFrame: { functionName: string; url: string; lineNumber: number };
  readonly children?: number[];
}

/** A `.cpuprofile`: the call tree, the node on top of the stack at each sample, and the time between samples, µs. */
export interface CpuProfile {
  readonly nodes: ProfileNode[];
  readonly samples: number[];
  readonly timeDeltas: number[];
}

export function readCpuProfile(file: string): CpuProfile {
  return JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
}
