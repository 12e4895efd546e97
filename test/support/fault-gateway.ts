import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { createFakeLlm, type FakeLlm } from "../../src/dev/index.js";
import { createLogger } from "../../src/observability/index.js";
import { type CliProcess, spawnCli } from "./cli-process.js";
import { GRAPH_TOKEN, PHONE_NUMBER_ID, type RunningFake, startFake } from "./fake-graph.js";
import { APP_SECRET } from "./ingress-harness.js";
import { deleteKeys, uniquePrefix } from "./redis.js";
import { createWorkerProcesses, type WorkerProcess } from "./worker-processes.js";

/** The fake LLM's one rule: echo the customer, so each reply names the message it answers. */
export const ECHO_RULES = [{ when: { always: true as const }, reply: { content: "Echo: {{lastUser}}" } }];

/**
 * A gateway in Redis mode on real processes: one `sharpsharp ingress` and
 * `workers` × `sharpsharp worker`, a fresh key prefix, the fake Graph API
 * and an echoing fake LLM in this process. The router answers nothing
 * itself (`enabledIntents: []`), so every message goes to the LLM and its
 * reply quotes the message.
 */
export interface RedisGateway {
  readonly prefix: string;
  readonly fake: RunningFake;
  readonly llm: FakeLlm;
  /** The ingress's base URL. */
  readonly url: string;
  readonly ingress: CliProcess;
  readonly workers: WorkerProcess[];
  spawnWorker(extraEnv?: Record<string, string>): WorkerProcess;
  /** Everything the processes printed, for a failing test's message. */
  logs(): string;
  close(): Promise<void>;
}

export async function startRedisGateway(options: {
  label: string;
  /** What the processes connect to (the own server, or a proxy in front of it). */
  redisUrl: string;
  /** Where the test cleans up; defaults to `redisUrl`. */
  adminRedisUrl?: string;
  workers: number;
  /** Extra variables for every process (DATABASE_URL, WORKER_LOCK_MS, …). */
  env?: Record<string, string>;
}): Promise<RedisGateway> {
  const prefix = uniquePrefix(options.label);
  const dir = mkdtempSync(join(tmpdir(), "ss-faults-"));
  const config = join(dir, "tenants.json");
  writeFileSync(
    config,
    JSON.stringify({
      tenants: [
        {
          id: "default",
          appSecretEnv: "T_SECRET",
          verifyTokenEnv: "T_VERIFY",
          graphTokenEnv: "T_GRAPH",
          phoneNumberIds: [PHONE_NUMBER_ID],
          coalesce: { windowMs: 0, maxMs: 0 },
          router: { enabledIntents: [] },
        },
      ],
    }),
  );
  const fake = await startFake();
  const llm = createFakeLlm({ logger: createLogger({ level: "silent" }) }, { rules: ECHO_RULES });
  const llmUrl = await llm.listen();
  const env: Record<string, string> = {
    REDIS_URL: options.redisUrl,
    REDIS_PREFIX: prefix,
    GRAPH_API_BASE_URL: fake.url,
    SHARPSHARP_CONFIG: config,
    T_SECRET: APP_SECRET,
    T_VERIFY: "v",
    T_GRAPH: GRAPH_TOKEN,
    WHATSAPP_TOKEN: GRAPH_TOKEN,
    WHATSAPP_APP_SECRET: "",
    WHATSAPP_VERIFY_TOKEN: "",
    LLM_BASE_URL: `${llmUrl}/v1`,
    LLM_MODEL: "fake",
    HOST: "127.0.0.1",
    PORT: "0",
    ADMIN_PORT: "0",
    LOG_LEVEL: "warn",
    ...options.env,
  };
  const ingress = spawnCli("ingress", { ...env, LOG_LEVEL: "info" });
  const workerProcesses = createWorkerProcesses({ prefix, graphUrl: fake.url, env });
  const workers: WorkerProcess[] = [];
  const spawnWorker = (extraEnv: Record<string, string> = {}) => {
    const worker = workerProcesses.spawn({ LOG_LEVEL: "info", ...extraEnv });
    workers.push(worker);
    return worker;
  };
  const close = async () => {
    workerProcesses.killAll();
    if (ingress.alive()) ingress.child.kill("SIGKILL");
    await llm.close();
    await fake.fake.close();
    const admin = new Redis(options.adminRedisUrl ?? options.redisUrl, { maxRetriesPerRequest: 1 });
    admin.on("error", () => {});
    await deleteKeys(admin, prefix).catch(() => {});
    admin.disconnect();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const url = (await ingress.waitFor(/sharpsharp ingress listening on (http:\/\/[^\s]+)/))[1] as string;
    for (let i = 0; i < options.workers; i += 1) spawnWorker();
    await Promise.all(workers.map((worker) => worker.ready(20_000)));
    return {
      prefix,
      fake,
      llm,
      url,
      ingress,
      workers,
      spawnWorker,
      logs: () => [ingress.output(), ...workers.map((worker) => worker.output())].join("\n"),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
