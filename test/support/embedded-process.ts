import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { GRAPH_TOKEN } from "./fake-graph.js";
import { APP_SECRET, VERIFY_TOKEN } from "./ingress-harness.js";

const bin = fileURLToPath(new URL("../../bin/sharpsharp.js", import.meta.url));

/** A built `sharpsharp start` child process in embedded mode (no REDIS_URL). */
export interface EmbeddedProcess {
  readonly child: ChildProcess;
  output(): string;
  /** Resolves with the webhook base URL once the startup line is printed; rejects if it exits first. */
  ready(timeoutMs?: number): Promise<string>;
  /** Resolves with the exit code (or signal) once the process ended. */
  exited(): Promise<number | string>;
}

export function spawnEmbedded(options: {
  dataDir: string;
  graphUrl: string;
  env?: Record<string, string>;
}): EmbeddedProcess {
  let output = "";
  const child = spawn(process.execPath, [bin, "start"], {
    env: {
      PATH: process.env.PATH ?? "",
      GRAPH_API_BASE_URL: options.graphUrl,
      WHATSAPP_TOKEN: GRAPH_TOKEN,
      WHATSAPP_APP_SECRET: APP_SECRET,
      WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
      SHARPSHARP_DATA_DIR: options.dataDir,
      COALESCE_WINDOW_MS: "0",
      COALESCE_MAX_MS: "0",
      HOST: "127.0.0.1",
      PORT: "0",
      ADMIN_PORT: "0",
      LOG_LEVEL: "info",
      ...options.env,
    },
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
    exited: () => exit,
    async ready(timeoutMs = 15_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const found = /sharpsharp running embedded on (http:\/\/[^\s]+)/.exec(output);
        if (found?.[1] !== undefined) return found[1];
        if (child.exitCode !== null) throw new Error(`sharpsharp exited ${child.exitCode}: ${output}`);
        if (Date.now() > until) throw new Error(`not ready within ${timeoutMs} ms: ${output}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
  };
}
