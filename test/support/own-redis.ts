import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";

/** A free loopback port (closed again before it is returned, so there is a small race). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/**
 * A `redis-server` of the test's own, on a free port with its data in a
 * temporary folder: fault tests stop, kill and restart it, never the
 * shared server on 127.0.0.1:6379.
 */
export interface OwnRedis {
  readonly port: number;
  readonly url: string;
  readonly dir: string;
  /** Starts it (again, on the same port and folder, so it loads its AOF) and waits for PING. */
  start(): Promise<void>;
  /** Sends `signal` and waits for the exit (SIGTERM: Redis fsyncs its AOF and exits cleanly). */
  stop(signal?: "SIGTERM" | "SIGKILL"): Promise<void>;
  /** SIGSTOP / SIGCONT: the port stays open and nothing answers. */
  freeze(): void;
  thaw(): void;
  /** What it logged. */
  log(): string;
  close(): Promise<void>;
}

export async function createOwnRedis(options: { appendonly: boolean }): Promise<OwnRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "ss-own-redis-"));
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  let log = "";
  const args = [
    "--port",
    String(port),
    "--bind",
    "127.0.0.1",
    "--dir",
    dir,
    "--save",
    "",
    "--appendonly",
    options.appendonly ? "yes" : "no",
    "--appendfsync",
    "everysec",
    "--maxmemory-policy",
    "noeviction",
    "--daemonize",
    "no",
  ];
  const stopped = async (signal: "SIGTERM" | "SIGKILL") => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    const exit = new Promise<void>((resolve) => running.once("exit", () => resolve()));
    running.kill(signal);
    await exit;
  };
  return {
    port,
    url,
    dir,
    async start() {
      if (child !== undefined) return;
      const started = spawn("redis-server", args, { stdio: ["ignore", "pipe", "pipe"] });
      let spawnError: Error | undefined;
      started.once("error", (error) => {
        spawnError = error;
      });
      started.stdout?.on("data", (chunk) => {
        log += String(chunk);
      });
      started.stderr?.on("data", (chunk) => {
        log += String(chunk);
      });
      child = started;
      const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      probe.on("error", () => {});
      const until = Date.now() + 10_000;
      try {
        for (;;) {
          try {
            if (probe.status !== "ready") await probe.connect();
            // Loading the AOF answers LOADING errors until done: wait for a real PONG.
            if ((await probe.ping()) === "PONG") return;
          } catch {
            probe.disconnect();
          }
          if (spawnError !== undefined)
            throw new Error(`cannot run redis-server (is it installed?): ${spawnError.message}`);
          if (started.exitCode !== null) throw new Error(`redis-server exited: ${log}`);
          if (Date.now() > until) throw new Error(`redis-server not answering on ${port}: ${log}`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      } finally {
        probe.disconnect();
      }
    },
    stop: (signal = "SIGTERM") => stopped(signal),
    freeze() {
      child?.kill("SIGSTOP");
    },
    thaw() {
      child?.kill("SIGCONT");
    },
    log: () => log,
    async close() {
      child?.kill("SIGCONT");
      await stopped("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
