import type { ChildProcess } from "node:child_process";
import { spawnCli } from "./cli-process.js";
import { GRAPH_TOKEN } from "./fake-graph.js";
import { APP_SECRET, VERIFY_TOKEN } from "./ingress-harness.js";

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
  const cli = spawnCli("start", {
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
  });
  return {
    child: cli.child,
    output: cli.output,
    exited: cli.exited,
    async ready(timeoutMs = 15_000) {
      const found = await cli.waitFor(/sharpsharp running embedded on (http:\/\/[^\s]+)/, timeoutMs);
      return found[1] as string;
    },
  };
}
