/**
 * Reads a V8 .cpuprofile (what `node --cpu-prof` writes) and prints where the
 * time went: the top self-time functions (function, file:line, % of samples)
 * and the same samples summed per package or source folder, so a profile of
 * the ingress under load reads in a terminal without DevTools.
 *
 *   node dist/bench/ingress/cpu-profile-top.js PROFILE.cpuprofile [--top 30] [--skip-ms 1500]
 *
 * --skip-ms leaves out the first milliseconds of the profile (startup, before the load).
 * Percentages are of the busy samples (idle excluded); the idle share is said once.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  /** 0-based, as V8 writes it. */
  readonly lineNumber: number;
}

interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  /** µs between consecutive samples (the first: since startTime). */
  readonly timeDeltas: readonly number[];
  readonly startTime: number;
  readonly endTime: number;
}

/** A path short enough to read: relative to the project, node_modules folded to the package. */
export function shortPath(url: string, root = process.cwd()): string {
  const path = url.replace(/^file:\/\//, "");
  const inModules = path.lastIndexOf("/node_modules/");
  if (inModules >= 0) return path.slice(inModules + "/node_modules/".length);
  return path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
}

/** Where a frame belongs: a package, a project folder (src/ingress) or node's own code. */
export function areaOf(url: string, root = process.cwd()): string {
  if (url.startsWith("node:")) return "(node internals)";
  const path = shortPath(url, root);
  if (url.includes("/node_modules/")) {
    const parts = path.split("/");
    return parts[0]?.startsWith("@") ? `${parts[0]}/${parts[1]}` : (parts[0] ?? path);
  }
  // The build's folder (dist/, or a copy such as bench/results/dist-before/) says nothing about the code.
  const inBuild = path.replace(/^(?:.*\/)?dist[^/]*\//, "");
  return inBuild.split("/").slice(0, -1).slice(0, 2).join("/") || inBuild;
}

export interface Entry {
  readonly name: string;
  readonly samples: number;
}

export interface ProfileSummary {
  readonly totalSamples: number;
  readonly idleSamples: number;
  readonly durationMs: number;
  readonly functions: readonly Entry[];
  readonly areas: readonly Entry[];
}

/**
 * Self samples per function and per area, busy samples only, largest first.
 * Samples in the first `skipMs` (the process starting: module loading, connecting) are left out.
 */
export function summarize(profile: CpuProfile, skipMs = 0, root = process.cwd()): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfById = new Map<number, number>();
  let elapsedUs = 0;
  let counted = 0;
  profile.samples.forEach((id, index) => {
    elapsedUs += profile.timeDeltas[index] ?? 0;
    if (elapsedUs < skipMs * 1000) return;
    counted += 1;
    selfById.set(id, (selfById.get(id) ?? 0) + 1);
  });
  const functions = new Map<string, number>();
  const areas = new Map<string, number>();
  let idle = 0;
  for (const [id, count] of selfById) {
    const frame = byId.get(id)?.callFrame;
    if (frame === undefined) continue;
    if (frame.functionName === "(idle)") {
      idle += count;
      continue;
    }
    const where = frame.url === "" ? "" : ` ${shortPath(frame.url, root)}:${frame.lineNumber + 1}`;
    const name = `${frame.functionName || "(anonymous)"}${where}`;
    functions.set(name, (functions.get(name) ?? 0) + count);
    const area = frame.url === "" ? frame.functionName : areaOf(frame.url, root);
    areas.set(area, (areas.get(area) ?? 0) + count);
  }
  const sorted = (map: Map<string, number>) =>
    [...map].map(([name, samples]) => ({ name, samples })).sort((a, b) => b.samples - a.samples);
  return {
    totalSamples: counted,
    idleSamples: idle,
    durationMs: (profile.endTime - profile.startTime) / 1000 - skipMs,
    functions: sorted(functions),
    areas: sorted(areas),
  };
}

export function formatSummary(summary: ProfileSummary, top: number): string {
  const busy = summary.totalSamples - summary.idleSamples;
  const pct = (n: number) => `${((100 * n) / Math.max(1, busy)).toFixed(1).padStart(5)}%`;
  const lines = [
    `${summary.totalSamples} samples over ${(summary.durationMs / 1000).toFixed(1)} s; ` +
      `idle ${((100 * summary.idleSamples) / Math.max(1, summary.totalSamples)).toFixed(1)}%; ` +
      "percentages below are of the busy samples",
    "",
    `top ${top} functions by self time:`,
    ...summary.functions.slice(0, top).map((entry) => `  ${pct(entry.samples)}  ${entry.name}`),
    "",
    "self time by package or folder:",
    ...summary.areas.slice(0, 20).map((entry) => `  ${pct(entry.samples)}  ${entry.name}`),
  ];
  return `${lines.join("\n")}\n`;
}

function main(): void {
  const { values, positionals } = parseArgs({
    options: { top: { type: "string", default: "30" }, "skip-ms": { type: "string", default: "0" } },
    allowPositionals: true,
  });
  const file = positionals[0];
  if (file === undefined) {
    throw new Error("usage: cpu-profile-top.js PROFILE.cpuprofile [--top N] [--skip-ms MS]");
  }
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  process.stdout.write(formatSummary(summarize(profile, Number(values["skip-ms"])), Number(values.top)));
}

if (process.argv[1]?.endsWith("cpu-profile-top.js")) main();
