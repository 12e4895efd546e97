import type { FastifyInstance } from "fastify";
import type { Logger } from "../observability/index.js";

/** The address a listening app serves, as configured (0.0.0.0 = every interface), with the port actually bound. */
export function listeningUrl(configuredHost: string, app: FastifyInstance): string {
  const { port } = app.server.address() as { port: number };
  const host = configuredHost.includes(":") ? `[${configuredHost}]` : configuredHost;
  return `http://${host}:${port}`;
}

/** Something that finishes its running work on close(), or abandons it on close(true). */
export interface Closable {
  close(force?: boolean): Promise<void>;
}

/**
 * Shutdown of job workers: let the running jobs finish for `graceMs`, then
 * stop waiting (warning with `abandoned`, which says what becomes of them).
 */
export async function closeWithinGrace(
  workers: readonly Closable[],
  graceMs: number,
  logger: Logger,
  abandoned: string,
): Promise<void> {
  const graceful = Promise.all(workers.map((worker) => worker.close()));
  const timeout = new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), graceMs).unref());
  if ((await Promise.race([graceful, timeout])) === "timeout") {
    logger.warn(abandoned);
    await Promise.all(workers.map((worker) => worker.close(true)));
  }
}

/**
 * The steps that undo a start, run in reverse order of opening: what opened
 * last closes first, so shutdown and a failed start follow one order. A
 * step that fails is logged and the rest still run.
 */
export interface CloseStack {
  push(step: () => Promise<void> | void): void;
  close(): Promise<void>;
}

export function createCloseStack(logger: Logger): CloseStack {
  const steps: (() => Promise<void> | void)[] = [];
  return {
    push(step) {
      steps.push(step);
    },
    async close() {
      for (const step of steps.splice(0).reverse()) {
        await Promise.resolve()
          .then(step)
          .catch((error: unknown) => logger.warn({ err: error }, "shutdown step failed"));
      }
    },
  };
}
