import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

// BENCH_GATEWAY_BIN runs another build (a baseline checkout's bin/sharpsharp.js) under the same bench.
const bin =
  process.env.BENCH_GATEWAY_BIN ?? fileURLToPath(new URL("../../../bin/sharpsharp.js", import.meta.url));

/**
 * The last `limit` characters of a stream, kept as chunks and joined only when read: a worker logs a line
 * per turn, and neither the bench's memory nor its CPU may grow with a long run.
 */
export class TailBuffer {
  private readonly chunks: string[] = [];
  private length = 0;
  constructor(private readonly limit: number) {}
  push(chunk: string): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
    while (this.chunks.length > 1 && this.length - (this.chunks[0]?.length ?? 0) >= this.limit) {
      this.length -= this.chunks.shift()?.length ?? 0;
    }
  }
  text(): string {
    return this.chunks.join("").slice(-this.limit);
  }
}

const live = new Set<ChildProcess>();
let stopsChildrenOnExit = false;

/** A bench stopped early (Ctrl-C, a SIGTERM, an uncaught error) takes its gateways and fakes with it. */
function stopChildrenOnExit(): void {
  if (stopsChildrenOnExit) return;
  stopsChildrenOnExit = true;
  // SIGTERM, so that a gateway run with --cpu-prof still writes its profile.
  const stopAll = () => {
    for (const child of live) child.kill("SIGTERM");
  };
  process.once("exit", stopAll);
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const) {
    process.once(signal, () => {
      stopAll();
      process.exit(code);
    });
  }
}

/** A spawned `sharpsharp <command>` and what it printed. */
export interface SharpsharpProcess {
  readonly name: string;
  readonly child: ChildProcess;
  output(): string;
  /** Peak resident memory so far (VmHWM), MiB; undefined once it exited. */
  peakRssMiB(): number | undefined;
  /** CPU time used so far (user + system), s: unlike a profile, not inflated by waiting for a busy CPU. */
  cpuSeconds(): number | undefined;
  stop(): Promise<void>;
}

/** Starts the built CLI and resolves once `readyText` appears in its output. */
export async function startProcess(
  name: string,
  command: string,
  env: Record<string, string>,
  readyText: string,
  options: {
    /** After the command, e.g. a fake's flags. */
    readonly args?: readonly string[];
    /** A helper of the bench's (a fake), not the gateway: BENCH_GATEWAY_NODE_ARGS is not applied. */
    readonly helper?: boolean;
  } = {},
): Promise<SharpsharpProcess> {
  const output = new TailBuffer(100_000);
  // BENCH_GATEWAY_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the gateway processes (written on exit).
  const nodeArgs =
    options.helper === true
      ? []
      : (process.env.BENCH_GATEWAY_NODE_ARGS ?? "").split(" ").filter((arg) => arg !== "");
  const child = spawn(process.execPath, [...nodeArgs, bin, command, ...(options.args ?? [])], {
    env: { PATH: process.env.PATH ?? "", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  stopChildrenOnExit();
  live.add(child);
  child.once("exit", () => live.delete(child));
  const keep = (chunk: unknown) => output.push(String(chunk));
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const until = Date.now() + 15_000;
  while (!output.text().includes(readyText)) {
    if (child.exitCode !== null || Date.now() > until) {
      child.kill("SIGKILL");
      throw new Error(`${name} did not start: ${output.text().slice(-2000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return {
    name,
    child,
    output: () => output.text(),
    peakRssMiB() {
      try {
        const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
        const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]);
        return Number.isFinite(kb) ? kb / 1024 : undefined;
      } catch {
        return undefined;
      }
    },
    cpuSeconds() {
      try {
        // Fields 14 and 15 of /proc/<pid>/stat (after the parenthesised name): utime and stime, in ticks.
        const fields = readFileSync(`/proc/${child.pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
        const ticks = Number(fields[11]) + Number(fields[12]);
        return Number.isFinite(ticks) ? ticks / 100 : undefined;
      } catch {
        return undefined;
      }
    },
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await Promise.race([
        new Promise((resolve) => child.once("exit", resolve)),
        new Promise((resolve) => setTimeout(resolve, 12_000)),
      ]);
      if (child.exitCode === null) child.kill("SIGKILL");
    },
  };
}
