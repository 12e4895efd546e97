import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const bin = fileURLToPath(new URL("../../bin/sharpsharp.js", import.meta.url));

/** A built `sharpsharp <command>` child process and what it printed (stdout and stderr together). */
export interface CliProcess {
  readonly child: ChildProcess;
  output(): string;
  /** Whether it is still running. */
  alive(): boolean;
  /** Resolves with the first match of `pattern` in the output; rejects if the process exits first. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Resolves with the exit code (or signal) once the process ended. */
  exited(): Promise<number | string>;
}

/** Runs `node bin/sharpsharp.js <command>` with exactly `env` (plus PATH). */
export function spawnCli(
  command: string,
  env: Record<string, string>,
  args: readonly string[] = [],
): CliProcess {
  let output = "";
  const child = spawn(process.execPath, [bin, command, ...args], {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk) => {
    output += String(chunk);
  });
  child.stderr?.on("data", (chunk) => {
    output += String(chunk);
  });
  const exit = new Promise<number | string>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown")),
  );
  return {
    child,
    output: () => output,
    alive: () => child.exitCode === null && child.signalCode === null,
    exited: () => exit,
    async waitFor(pattern, timeoutMs = 15_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const found = pattern.exec(output);
        if (found !== null) return found;
        if (child.exitCode !== null || child.signalCode !== null) {
          throw new Error(`sharpsharp ${command} exited ${child.exitCode ?? child.signalCode}: ${output}`);
        }
        if (Date.now() > until)
          throw new Error(`sharpsharp ${command}: no ${pattern} within ${timeoutMs} ms: ${output}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
  };
}
