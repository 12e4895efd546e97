import { Writable } from "node:stream";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { Redis } from "ioredis";
import type { ServerLimits, TenantConfig } from "../../src/config/index.js";
import { buildIngressApp } from "../../src/ingress/index.js";
import { signatureFor } from "../../src/ingress/signature.js";
import { createIngressMetrics, createLogger, type IngressMetrics } from "../../src/observability/index.js";
import { createFailFastRedis, createRedisQueues, type RedisQueues } from "../../src/queue/redis/index.js";
import { deleteKeys, keysUnder, TEST_REDIS_URL, uniquePrefix } from "./redis.js";

export const APP_SECRET = "test-app-secret";
export const VERIFY_TOKEN = "test-verify-token";

export function testTenant(
  id: string,
  appSecret = APP_SECRET,
  verifyToken = VERIFY_TOKEN,
  phoneNumberIds: readonly string[] = ["106540352242922"],
): TenantConfig {
  return {
    id,
    appSecret,
    verifyToken,
    graphToken: undefined,
    phoneNumberIds,
    throughputMps: 80,
    coalesce: { windowMs: 800, maxMs: 3000 },
    staleAfterMs: 3_600_000,
    settings: {},
  };
}

export interface IngressHarness {
  readonly app: FastifyInstance;
  readonly prefix: string;
  /** The ingress's own fail-fast client. */
  readonly redis: Redis;
  /** A separate client for the test's assertions. */
  readonly admin: Redis;
  readonly queues: RedisQueues;
  readonly metrics: IngressMetrics;
  /** Every log line the app wrote (level debug), for tests of what logs may hold. */
  readonly logLines: string[];
  post(
    body: Buffer | string,
    options?: { tenant?: string; secret?: string; headers?: Record<string, string> },
  ): Promise<LightMyRequestResponse>;
  /** Keys under this harness's prefix. */
  keys(): Promise<string[]>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  readonly label: string;
  /** Redis the ingress talks to (a proxy in failure tests); assertions always use the real one. */
  readonly redisUrl?: string;
  readonly enqueueTimeoutMs?: number;
  readonly waitForReady?: boolean;
  /** Tenants besides `default` and `mama-put`. */
  readonly extraTenants?: readonly TenantConfig[];
  /** Default 1 MiB. */
  readonly bodyLimitBytes?: number;
  /** The listener's timeouts and connection cap; none: Node's defaults. */
  readonly limits?: Omit<ServerLimits, "bodyLimitBytes">;
}

export async function createIngressHarness(options: HarnessOptions): Promise<IngressHarness> {
  const prefix = uniquePrefix(options.label);
  const redis = createFailFastRedis(options.redisUrl ?? TEST_REDIS_URL);
  redis.on("error", () => {});
  if (options.waitForReady !== false) {
    await new Promise<void>((resolve) =>
      redis.status === "ready" ? resolve() : redis.once("ready", () => resolve()),
    );
  }
  const admin = new Redis(TEST_REDIS_URL);
  const queues = createRedisQueues({
    redis,
    prefix,
    dedupeTtlSeconds: 8 * 24 * 3600,
    enqueueTimeoutMs: options.enqueueTimeoutMs ?? 1500,
  });
  const logLines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  const metrics = createIngressMetrics({
    sampleQueueDepth: () => queues.status.depth(),
    defaultMetrics: false,
  });
  const app = await buildIngressApp({
    tenants: [
      testTenant("default"),
      testTenant("mama-put", "mama-secret", "mama-verify"),
      ...(options.extraTenants ?? []),
    ],
    queue: queues.inbound,
    status: queues.status,
    metrics,
    logger: createLogger({ level: "debug", destination }),
    bodyLimitBytes: options.bodyLimitBytes ?? 1024 * 1024,
    ...(options.limits === undefined ? {} : { limits: options.limits }),
  });
  await app.ready();
  return {
    app,
    prefix,
    redis,
    admin,
    queues,
    metrics,
    logLines,
    post(body, postOptions = {}) {
      const bytes = typeof body === "string" ? Buffer.from(body) : body;
      return app.inject({
        method: "POST",
        url: postOptions.tenant === undefined ? "/webhook" : `/webhook/${postOptions.tenant}`,
        payload: bytes,
        headers: {
          "content-type": "application/json",
          "x-hub-signature-256": signatureFor(bytes, postOptions.secret ?? APP_SECRET),
          ...postOptions.headers,
        },
      });
    },
    keys: () => keysUnder(admin, prefix),
    async close() {
      await app.close();
      await queues.close();
      redis.disconnect();
      await deleteKeys(admin, prefix);
      admin.disconnect();
    },
  };
}
