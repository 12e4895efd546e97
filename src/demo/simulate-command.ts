import { basename } from "node:path";
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
 * `sharpsharp simulate "<text>"` (or `--voice <file.ogg>`): prints the customer's message and the bot's
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
  const { message, from, timeoutMs, url } = parsed.value;
  try {
    const config = io.config();
    const target = resolveSimulateTarget(config, readDemoState(config.dataDir), url);
    const shown =
      message.kind === "text"
        ? message.text
        : `🎤 voice note: ${basename(message.file)} (${formatBytes(message.bytes.length)})`;
    io.stdout.write(`you (${from}) → ${target.webhookUrl}\n  ${shown}\n`);
    const result = await simulate(
      target,
      message.kind === "text"
        ? { text: message.text, from, timeoutMs }
        : { voice: message.bytes, from, timeoutMs },
      io.deps,
    );
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

/** 20674 → "20.2 KB". */
function formatBytes(size: number): string {
  if (size < 1024) return `${size} bytes`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / (1024 * 1024)).toFixed(1)} MB`;
}
