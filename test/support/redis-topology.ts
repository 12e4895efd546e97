import { type ChildProcess, execFile, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Redis, type RedisOptions } from "ioredis";

const run = promisify(execFile);

/**
 * Whether `redis-server` can be started here, and why not. Under CI=true a
 * missing binary fails the topology suites instead of skipping them.
 */
function probeRedisServer(): { readonly available: boolean; readonly reason: string; readonly tls: boolean } {
  const version = spawnSync("redis-server", ["--version"], { encoding: "utf8" });
  if (version.error !== undefined || version.status !== 0) {
    return {
      available: false,
      reason: "redis-server is not installed (Debian: apt-get install redis-server)",
      tls: false,
    };
  }
  // A build without TLS refuses the option; one with it accepts it and stops, having nowhere to listen.
  const tlsProbe = spawnSync("redis-server", ["--port", "0", "--tls-port", "0"], { encoding: "utf8" });
  const tls = /not listen anywhere/.test(`${tlsProbe.stdout}${tlsProbe.stderr}`);
  return { available: true, reason: version.stdout.trim(), tls };
}

const probe = probeRedisServer();
if (!probe.available && process.env.CI === "true") {
  throw new Error(`${probe.reason}, and CI=true requires it for the Redis topology tests`);
}

/** Why the topology suites are skipped, or undefined when they run. */
export const topologySkipReason: string | undefined = probe.available ? undefined : probe.reason;
/** Whether this redis-server was built with TLS (Debian's is). */
export const redisServerHasTls = probe.tls;

const openssl = spawnSync("openssl", ["version"], { encoding: "utf8" });
if ((openssl.error !== undefined || openssl.status !== 0) && process.env.CI === "true") {
  throw new Error("openssl is not installed, and CI=true requires it for the Redis TLS test");
}
/** Whether the openssl CLI is there to make the TLS test's certificates. */
export const opensslAvailable = openssl.error === undefined && openssl.status === 0;

async function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** A free loopback port whose +10000 (a cluster node's bus port) is free too; never 6379's range. */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 25_000);
    if ((await portFree(port)) && (await portFree(port + 10_000))) return port;
  }
}

/** One redis-server (or sentinel) process in its own temp dir. */
export interface RedisProcess {
  readonly port: number;
  readonly dir: string;
  readonly child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

async function waitForPing(port: number, options: RedisOptions, timeoutMs: number, output: () => string) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const probeClient = new Redis({
      host: "127.0.0.1",
      port,
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      ...options,
    });
    probeClient.on("error", () => {});
    try {
      await probeClient.connect();
      await probeClient.ping();
      return;
    } catch (error) {
      if (Date.now() > until)
        throw new Error(`redis on ${port} did not answer: ${String(error)}\n${output()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      probeClient.disconnect();
    }
  }
}

/**
 * Starts `redis-server` with `args` on a free port, in a fresh temp dir,
 * without persistence unless `args` ask for it; resolves once it answers.
 */
export async function startRedisProcess(
  args: readonly string[],
  options: { readonly port?: number; readonly ping?: RedisOptions; readonly tlsOnly?: boolean } = {},
): Promise<RedisProcess> {
  const port = options.port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), "ss-redis-topology-"));
  const portArgs = options.tlsOnly ? ["--port", "0", "--tls-port", String(port)] : ["--port", String(port)];
  const child = spawn(
    "redis-server",
    [
      ...args,
      ...portArgs,
      "--bind",
      "127.0.0.1",
      "--dir",
      dir,
      "--save",
      "",
      "--appendonly",
      "no",
      "--loglevel",
      "warning",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += String(chunk);
  });
  child.stderr?.on("data", (chunk) => {
    output += String(chunk);
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitForPing(port, options.ping ?? {}, 5000, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { port, dir, child, output: () => output, stop };
}

/** Runs a command on a server (redis-cli), answering its output. */
export async function redisCli(port: number, ...args: string[]): Promise<string> {
  const { stdout } = await run("redis-cli", ["-h", "127.0.0.1", "-p", String(port), ...args]);
  return stdout.trim();
}

export async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A running set of servers; stop() kills every process and removes its dir. */
export interface Topology {
  readonly processes: readonly RedisProcess[];
  stop(): Promise<void>;
}

async function stopAll(processes: readonly RedisProcess[]): Promise<void> {
  await Promise.all(processes.map((process) => process.stop()));
}

/** Three cluster-enabled primaries joined by `redis-cli --cluster create`, no replicas. */
export async function startCluster(): Promise<Topology> {
  const processes: RedisProcess[] = [];
  try {
    for (let i = 0; i < 3; i += 1) {
      processes.push(
        await startRedisProcess([
          "--cluster-enabled",
          "yes",
          "--cluster-config-file",
          "nodes.conf",
          "--cluster-node-timeout",
          "2000",
        ]),
      );
    }
    await run("redis-cli", [
      "--cluster",
      "create",
      ...processes.map((p) => `127.0.0.1:${p.port}`),
      "--cluster-replicas",
      "0",
      "--cluster-yes",
    ]);
    for (const p of processes) {
      await until(
        async () => (await redisCli(p.port, "cluster", "info")).includes("cluster_state:ok"),
        10_000,
        `cluster node ${p.port} ok`,
      );
    }
    return { processes, stop: () => stopAll(processes) };
  } catch (error) {
    await stopAll(processes);
    throw error;
  }
}

export const SENTINEL_MASTER = "mymaster";

export interface SentinelTopology extends Topology {
  readonly primary: RedisProcess;
  readonly replica: RedisProcess;
  readonly sentinel: RedisProcess;
  /** The port Sentinel names as the master now. */
  masterPort(): Promise<number>;
  /** SENTINEL FAILOVER, resolved once the replica is the master, as Sentinel and itself say. */
  failover(): Promise<number>;
  /**
   * Resolves once Sentinel has turned the old primary at `port` into a replica. Until then it is
   * still a master, and a write it accepted would be lost when it resyncs.
   */
  demoted(port: number): Promise<void>;
}

/**
 * What operations.md asks of a Sentinel deployment for a failover that loses nothing: every data node
 * refuses writes unless its replica is close behind. Once Sentinel promotes the replica, the old primary
 * has none and accepts nothing; the new one accepts writes once the old one follows it.
 */
export const GUARDED_WRITES = ["--min-replicas-to-write", "1", "--min-replicas-max-lag", "10"];
/** Replicas that need a full sync get it at once, not after the default 5 s wait for more of them. */
const PROMPT_SYNC = ["--repl-diskless-sync-delay", "0"];

/** A primary, its replica, and one sentinel (quorum 1) watching them as `mymaster`, writes guarded. */
export async function startSentinel(): Promise<SentinelTopology> {
  const processes: RedisProcess[] = [];
  try {
    const primary = await startRedisProcess([...GUARDED_WRITES, ...PROMPT_SYNC]);
    processes.push(primary);
    const replica = await startRedisProcess([
      ...GUARDED_WRITES,
      ...PROMPT_SYNC,
      "--replicaof",
      "127.0.0.1",
      String(primary.port),
    ]);
    processes.push(replica);
    // A write seen on the replica, not just its link up: after a diskless sync the primary holds its
    // stream back until the replica's first ACK, yet already counts it towards min-replicas-to-write.
    await until(
      async () => {
        await redisCli(primary.port, "set", "topology:probe", "1");
        return (await redisCli(replica.port, "exists", "topology:probe")) === "1";
      },
      10_000,
      "replica in sync",
    );
    const sentinelPort = await freePort();
    const sentinelDir = mkdtempSync(join(tmpdir(), "ss-sentinel-conf-"));
    const conf = join(sentinelDir, "sentinel.conf");
    writeFileSync(
      conf,
      [
        `sentinel monitor ${SENTINEL_MASTER} 127.0.0.1 ${primary.port} 1`,
        `sentinel down-after-milliseconds ${SENTINEL_MASTER} 2000`,
        `sentinel failover-timeout ${SENTINEL_MASTER} 10000`,
        "",
      ].join("\n"),
    );
    const sentinel = await startRedisProcess([conf, "--sentinel"], { port: sentinelPort });
    processes.push({
      ...sentinel,
      stop: async () => {
        await sentinel.stop();
        rmSync(sentinelDir, { recursive: true, force: true });
      },
    });
    await until(
      async () =>
        (await redisCli(sentinelPort, "sentinel", "replicas", SENTINEL_MASTER)).includes(
          String(replica.port),
        ),
      10_000,
      "sentinel knows the replica",
    );
    const masterPort = async () =>
      Number(
        (await redisCli(sentinelPort, "sentinel", "get-master-addr-by-name", SENTINEL_MASTER)).split("\n")[1],
      );
    return {
      processes,
      primary,
      replica,
      sentinel,
      masterPort,
      async failover() {
        const before = await masterPort();
        await redisCli(sentinelPort, "sentinel", "failover", SENTINEL_MASTER);
        await until(async () => (await masterPort()) !== before, 15_000, "sentinel switched the master");
        const after = await masterPort();
        await until(
          async () => (await redisCli(after, "info", "replication")).includes("role:master"),
          10_000,
          "the new master took the role",
        );
        return after;
      },
      async demoted(port) {
        await until(
          async () => (await redisCli(port, "info", "replication")).includes("role:slave"),
          30_000,
          `the old master ${port} demoted`,
        );
      },
      stop: () => stopAll(processes),
    };
  } catch (error) {
    await stopAll(processes);
    throw error;
  }
}

/** PEM files of a throwaway CA, a server certificate for 127.0.0.1 and a client certificate, made by openssl. */
export interface TlsFiles {
  readonly dir: string;
  readonly ca: string;
  readonly serverCert: string;
  readonly serverKey: string;
  readonly clientCert: string;
  readonly clientKey: string;
  remove(): void;
}

export async function makeTlsFiles(): Promise<TlsFiles> {
  const dir = mkdtempSync(join(tmpdir(), "ss-redis-tls-"));
  const path = (name: string) => join(dir, name);
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  await run("openssl", [
    "req",
    "-x509",
    ...ec,
    "-keyout",
    path("ca.key"),
    "-out",
    path("ca.pem"),
    "-days",
    "1",
    "-subj",
    "/CN=sharpsharp test CA",
  ]);
  const issue = async (name: string, ext: string) => {
    writeFileSync(path(`${name}.ext`), ext);
    await run("openssl", [
      "req",
      ...ec,
      "-keyout",
      path(`${name}.key`),
      "-out",
      path(`${name}.csr`),
      "-subj",
      `/CN=${name}`,
    ]);
    await run("openssl", [
      "x509",
      "-req",
      "-in",
      path(`${name}.csr`),
      "-CA",
      path("ca.pem"),
      "-CAkey",
      path("ca.key"),
      "-CAcreateserial",
      "-out",
      path(`${name}.pem`),
      "-days",
      "1",
      "-extfile",
      path(`${name}.ext`),
    ]);
  };
  await issue("server", "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n");
  await issue("client", "extendedKeyUsage=clientAuth\n");
  return {
    dir,
    ca: path("ca.pem"),
    serverCert: path("server.pem"),
    serverKey: path("server.key"),
    clientCert: path("client.pem"),
    clientKey: path("client.key"),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
