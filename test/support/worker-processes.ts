import type { ChildProcess } from "node:child_process";
import { spawnCli } from "./cli-process.js";
import { GRAPH_TOKEN } from "./fake-graph.js";
import { APP_SECRET, VERIFY_TOKEN } from "./ingress-harness.js";
import { TEST_REDIS_URL } from "./redis.js";

/** A `sharpsharp worker` child process and what it printed. */
export interface WorkerProcess {
  readonly child: ChildProcess;
  output(): string;
  /** Resolves once it logged its startup line. */
  ready(timeoutMs?: number): Promise<void>;
}

/**
 * Spawns and tracks built `sharpsharp worker` processes; `killAll` SIGKILLs every one still alive.
 * `env` (and each spawn's own) may override any default, REDIS_URL included.
 */
export function createWorkerProcesses(base: {
  prefix: string;
  graphUrl: string;
  env?: Record<string, string>;
}) {
  const spawned: WorkerProcess[] = [];
  return {
    spawn(extraEnv: Record<string, string> = {}): WorkerProcess {
      const cli = spawnCli("worker", {
        REDIS_URL: TEST_REDIS_URL,
        REDIS_PREFIX: base.prefix,
        GRAPH_API_BASE_URL: base.graphUrl,
        WHATSAPP_TOKEN: GRAPH_TOKEN,
        WHATSAPP_APP_SECRET: APP_SECRET,
        WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
        COALESCE_WINDOW_MS: "0",
        COALESCE_MAX_MS: "0",
        HOST: "127.0.0.1",
        PORT: "0",
        ADMIN_PORT: "0",
        LOG_LEVEL: "info",
        ...base.env,
        ...extraEnv,
      });
      const worker: WorkerProcess = {
        child: cli.child,
        output: cli.output,
        async ready(timeoutMs = 10_000) {
          await cli.waitFor(/sharpsharp worker running/, timeoutMs);
        },
      };
      spawned.push(worker);
      return worker;
    },
    killAll(): void {
      for (const worker of spawned.splice(0)) {
        if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill("SIGKILL");
      }
    },
  };
}
