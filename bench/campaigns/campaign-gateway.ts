import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import pg from "pg";
import { runAdminCommand } from "../../src/app/index.js";
import { loadConfig } from "../../src/config/index.js";
import { deletePrefix } from "../e2e/delete-prefix.js";
import { type SharpsharpProcess, startProcess } from "../e2e/processes.js";

export const BENCH_TENANT = "bench";
export const BENCH_APP_SECRET = "bench-campaign-secret";
export const BENCH_GRAPH_TOKEN = "bench-campaign-token";
const OPERATOR = "bench@campaigns.local";

export interface CampaignGatewayOptions {
  readonly mode: "embedded" | "redis";
  readonly phoneNumberId: string;
  /** The tenant's `throughputMps`. */
  readonly mps: number;
  /** The tenant's `campaigns.messagingLimit`. */
  readonly messagingLimit: number;
  /** The tenant's `campaigns.replyReservePercent`; undefined: the gateway's default. */
  readonly reservePercent: number | undefined;
  readonly graphUrl: string;
  /** The webhook port; the console API listens on the next one. */
  readonly port: number;
  readonly workers: number;
  readonly coalesceMs: number;
  readonly redisUrl: string;
  readonly databaseUrl: string;
}

/** The gateway of one run, its console API and how to tear it all down. */
export interface CampaignGateway {
  readonly processes: readonly SharpsharpProcess[];
  readonly webhookUrl: string;
  readonly apiUrl: string;
  readonly apiToken: string;
  stop(): Promise<void>;
}

/**
 * Starts the gateway as an operator deploys it: one tenant from a tenants file (its rate and its
 * `campaigns` settings), an operator's API token made with `sharpsharp admin`'s own code before
 * the processes start (embedded mode's SQLite file has one owner once it runs), then either one
 * `sharpsharp start` (which serves the console API itself) or, on Redis and PostgreSQL, one
 * ingress, the workers and `sharpsharp console` for the API. Everything it made (data folder,
 * Redis prefix, schema) goes in `stop`.
 */
export async function startCampaignGateway(options: CampaignGatewayOptions): Promise<CampaignGateway> {
  const run = `bcamp${randomBytes(3).toString("hex")}`;
  const dir = mkdtempSync(join(tmpdir(), "bench-campaigns-"));
  const configPath = join(dir, "sharpsharp.config.json");
  const campaigns = {
    messagingLimit: options.messagingLimit,
    ...(options.reservePercent === undefined ? {} : { replyReservePercent: options.reservePercent }),
  };
  const tenant = {
    id: BENCH_TENANT,
    appSecretEnv: "BENCH_APP_SECRET",
    verifyTokenEnv: "BENCH_VERIFY_TOKEN",
    graphTokenEnv: "BENCH_GRAPH_TOKEN",
    phoneNumberIds: [options.phoneNumberId],
    throughputMps: options.mps,
    campaigns,
  };
  writeFileSync(configPath, JSON.stringify({ tenants: [tenant] }, null, 2));
  const embedded = options.mode === "embedded";
  const env: Record<string, string> = {
    SHARPSHARP_CONFIG: configPath,
    BENCH_APP_SECRET,
    BENCH_VERIFY_TOKEN: "bench-verify",
    BENCH_GRAPH_TOKEN,
    GRAPH_API_BASE_URL: options.graphUrl,
    HOST: "127.0.0.1",
    COALESCE_WINDOW_MS: String(options.coalesceMs),
    COALESCE_MAX_MS: String(options.coalesceMs === 0 ? 0 : Math.max(3000, options.coalesceMs)),
    SHARPSHARP_DATA_DIR: join(dir, "data"),
    ...(embedded
      ? {}
      : {
          REDIS_URL: options.redisUrl,
          REDIS_PREFIX: run,
          DATABASE_URL: options.databaseUrl,
          DATABASE_SCHEMA: run,
        }),
  };
  const processes: SharpsharpProcess[] = [];
  const stop = async () => {
    await Promise.all(processes.map((p) => p.stop()));
    rmSync(dir, { recursive: true, force: true });
    if (!embedded) {
      const redis = new Redis(options.redisUrl);
      await deletePrefix(redis, run);
      redis.disconnect();
      const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 1 });
      await pool.query(`DROP SCHEMA IF EXISTS "${run}" CASCADE`);
      await pool.end();
    }
  };
  try {
    const config = loadConfig({ env, cwd: dir });
    await runAdminCommand(config, {
      action: "create",
      email: OPERATOR,
      name: "Campaign bench",
      grants: [{ tenantId: BENCH_TENANT, role: "admin" }],
    });
    const token = await runAdminCommand(config, { action: "token", email: OPERATOR, name: run });
    if (token.action !== "token") throw new Error("sharpsharp admin token made no token");
    const port = String(options.port);
    const apiPort = String(options.port + 1);
    if (embedded) {
      processes.push(
        await startProcess(
          "embedded",
          "start",
          { ...env, PORT: port, ADMIN_PORT: apiPort },
          "running embedded on",
        ),
      );
    } else {
      processes.push(
        await startProcess("ingress", "ingress", { ...env, PORT: port, ADMIN_PORT: "0" }, "listening on"),
      );
      for (let n = 1; n <= options.workers; n += 1) {
        processes.push(
          await startProcess(
            `worker${n}`,
            "worker",
            { ...env, PORT: "0", ADMIN_PORT: "0" },
            "sharpsharp worker running",
          ),
        );
      }
      processes.push(
        await startProcess(
          "console",
          "console",
          { ...env, PORT: port, ADMIN_PORT: apiPort },
          "sharpsharp console on",
        ),
      );
    }
    return {
      processes,
      webhookUrl: `http://127.0.0.1:${port}/webhook/${BENCH_TENANT}`,
      apiUrl: `http://127.0.0.1:${apiPort}`,
      apiToken: token.token,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
