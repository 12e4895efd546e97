import type { AppConfig } from "../config/index.js";
import { readDemoState } from "./demo-state.js";
import { DemoError } from "./errors.js";
import { type SimulateDeps, simulate } from "./simulate.js";
import { parseSimulateArgs, SIMULATE_USAGE } from "./simulate-args.js";
import { resolveSimulateTarget } from "./simulate-target.js";

export interface SimulateCommandIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  /** The configuration, read only once the flags are valid (the CLI passes loadConfigFromProcess). */
  readonly config: () => AppConfig;
  readonly deps?: SimulateDeps;
}

/**
 * `sharpsharp simulate "<text>"`: prints the customer's message and the bot's
 * replies. Returns the exit code: 0 replied, 1 refused / not running / no
 * reply (the message says which and what to do), 2 bad flags.
 */
export async function runSimulateCommand(args: readonly string[], io: SimulateCommandIo): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    io.stdout.write(`${SIMULATE_USAGE}\n`);
    return 0;
  }
  const parsed = parseSimulateArgs(args);
  if (!parsed.ok) {
    io.stderr.write(`${parsed.problems.join("\n")}\n\n${SIMULATE_USAGE}\n`);
    return 2;
  }
  const { text, from, timeoutMs, url } = parsed.value;
  try {
    const config = io.config();
    const target = resolveSimulateTarget(config, readDemoState(config.dataDir), url);
    io.stdout.write(`you (${from}) → ${target.webhookUrl}\n  ${text}\n`);
    const result = await simulate(target, { text, from, timeoutMs }, io.deps);
    for (const reply of result.replies) {
      io.stdout.write(`bot:\n${reply.lines.map((line) => `  ${line}`).join("\n")}\n`);
    }
    return 0;
  } catch (error) {
    if (!(error instanceof DemoError)) throw error;
    io.stderr.write(`sharpsharp simulate: ${error.message}\n`);
    return 1;
  }
}
