/**
 * Summarises a compare.sh table (one row per run: label, loop, acked/s,
 * claimable/s, drain ms, p50, p99, non-200, check): medians with the spread
 * (min–max) per system and loop, and each system's ratio to the naive
 * design, both of the medians and as the median of the per-round ratios
 * (each round's runs are close in time, so their ratio carries less noise),
 * and the server's CPU time per request.
 *
 *   node dist/bench/ingress/compare-summary.js bench/results/compare-123.tsv
 */
import { readFileSync } from "node:fs";

export interface Row {
  readonly label: string;
  readonly loop: string;
  readonly acked: number;
  readonly claimable: number;
  readonly drainMs: number;
  readonly p50: number;
  readonly p99: number;
  readonly failed: number;
  readonly check: string;
  /** Server CPU time per request, µs (NaN when not measured). */
  readonly cpuUs: number;
}

export function parseTable(text: string): Row[] {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const [label = "", loop = "", acked, claimable, drainMs, p50, p99, failed, check = "", cpuUs] =
        line.split("\t");
      return {
        label,
        loop,
        acked: Number(acked),
        claimable: Number(claimable),
        drainMs: Number(drainMs),
        p50: Number(p50),
        p99: Number(p99),
        failed: Number(failed),
        check,
        cpuUs: Number(cpuUs),
      };
    });
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

const round = (value: number, digits: number) => Number(value.toFixed(digits));
const spread = (values: readonly number[]) =>
  `${round(Math.min(...values), 2)}–${round(Math.max(...values), 2)}`;
/** The median, rounded for reading. */
const mid = (values: readonly number[]) => round(median(values), 2);

export function summarize(rows: readonly Row[]): string {
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const key = `${row.loop}\t${row.label}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  const lines: string[] = [];
  for (const loop of ["closed", "open"]) {
    const base = groups.get(`${loop}\tbaseline`) ?? [];
    lines.push(
      `${loop} loop${loop === "open" ? " at 2,000/s" : ", 50 connections"} (medians, spread min–max):`,
    );
    for (const [key, runs] of groups) {
      if (!key.startsWith(`${loop}\t`)) continue;
      const label = runs[0]?.label ?? "";
      const claimable = runs.map((run) => run.claimable);
      // Round i of this system against round i of the baseline.
      const perRound = runs.flatMap((run, i) => {
        const b = base[i];
        return b === undefined || b.claimable === 0 ? [] : [run.claimable / b.claimable];
      });
      const ratio =
        label === "baseline" || base.length === 0
          ? ""
          : `  ratio to naive ${round(median(claimable) / median(base.map((run) => run.claimable)), 2)} ` +
            `(per round ${perRound.map((r) => round(r, 2)).join(", ")}; median ${round(median(perRound), 2)}), ` +
            `naive's CPU per request over this one's ${round(median(base.map((run) => run.cpuUs)) / median(runs.map((run) => run.cpuUs)), 2)}`;
      const failed = runs.filter((run) => run.check !== "ok" || run.failed > 0).length;
      lines.push(
        `  ${label.padEnd(11)} acked ${mid(runs.map((run) => run.acked))}/s (${spread(runs.map((run) => run.acked))}), ` +
          `claimable ${mid(claimable)}/s (${spread(claimable)}), drain ${mid(runs.map((run) => run.drainMs))} ms, ` +
          `p50 ${mid(runs.map((run) => run.p50))} ms, p99 ${mid(runs.map((run) => run.p99))} ms ` +
          `(${spread(runs.map((run) => run.p99))}), server CPU ${mid(runs.map((run) => run.cpuUs))} µs/request ` +
          `(${spread(runs.map((run) => run.cpuUs))}); ${runs.length} runs, ` +
          `${failed === 0 ? "0 lost, 0 doubled, all 200" : `${failed} with a failed check or non-200`}${ratio}`,
      );
    }
  }
  return `${lines.join("\n")}\n`;
}

if (process.argv[1]?.endsWith("compare-summary.js")) {
  const file = process.argv[2];
  if (file === undefined) throw new Error("usage: compare-summary.js TABLE.tsv");
  process.stdout.write(summarize(parseTable(readFileSync(file, "utf8"))));
}
