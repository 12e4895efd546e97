import { readFileSync } from "node:fs";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAll } from "../../src/app/index.js";
import { openRedisClient } from "../../src/app/redis/index.js";
import { createLogger } from "../../src/observability/index.js";
import { postSignedWebhook, startEnvConfig } from "../support/embedded-config.js";
import { eventually } from "../support/eventually.js";
import { startFake } from "../support/fake-graph.js";
import { uniquePrefix } from "../support/redis.js";
import {
  makeTlsFiles,
  opensslAvailable,
  type RedisProcess,
  redisServerHasTls,
  startRedisProcess,
  type TlsFiles,
  topologySkipReason,
} from "../support/redis-topology.js";
import { textWebhook } from "../support/webhook-builder.js";

const skipReason =
  topologySkipReason ??
  (redisServerHasTls ? undefined : "this redis-server was built without TLS") ??
  (opensslAvailable ? undefined : "the openssl CLI is not installed (Debian: apt-get install openssl)");
const title = `Redis over TLS (rediss://, a CA and a client certificate made by openssl)${skipReason === undefined ? "" : ` (skipped: ${skipReason})`}`;

describe.skipIf(skipReason !== undefined)(title, () => {
  let files: TlsFiles;
  let server: RedisProcess;
  let tls: { ca: Buffer; cert: Buffer; key: Buffer };
  const baseEnv = () => ({
    REDIS_URL: `rediss://127.0.0.1:${server.port}`,
    REDIS_TLS_CERT_FILE: files.clientCert,
    REDIS_TLS_KEY_FILE: files.clientKey,
  });

  beforeAll(async () => {
    files = await makeTlsFiles();
    tls = {
      ca: readFileSync(files.ca),
      cert: readFileSync(files.clientCert),
      key: readFileSync(files.clientKey),
    };
    server = await startRedisProcess(
      [
        "--tls-cert-file",
        files.serverCert,
        "--tls-key-file",
        files.serverKey,
        "--tls-ca-cert-file",
        files.ca,
        // Mutual TLS: a client without a certificate the CA signed is refused.
        "--tls-auth-clients",
        "yes",
      ],
      { tlsOnly: true, ping: { tls } },
    );
  }, 30_000);
  afterAll(async () => {
    await server?.stop();
    files?.remove();
  });

  it("records and answers a message over rediss:// with the CA, client certificate and key from files", async () => {
    const fake = await startFake();
    const prefix = uniquePrefix("tls");
    const config = startEnvConfig(fake.url, {
      ...baseEnv(),
      REDIS_TLS_CA_FILE: files.ca,
      REDIS_PREFIX: prefix,
    });
    const running = await startAll(config, { logger: createLogger({ level: "silent" }) });
    const admin = new Redis(`rediss://127.0.0.1:${server.port}`, { tls });
    try {
      const body = textWebhook([
        [
          {
            wamid: "wamid.tls.1",
            from: "2348090000021",
            timestamp: Math.floor(Date.now() / 1000),
            text: "hi",
          },
        ],
      ]);
      const response = await postSignedWebhook(running.url, body);
      expect(response.status).toBe(200);
      await eventually(() => fake.fake.messages().length === 1, 10_000);
      expect(await admin.get(`${prefix}:wamid:default:wamid.tls.1`)).toBe("d");
      expect(fake.fake.messages().map((m) => m.to)).toEqual(["+2348090000021"]);
    } finally {
      admin.disconnect();
      await running.close();
      await fake.fake.close();
    }
  }, 30_000);

  it("verifies the server: without the CA file the connection is refused, never made", async () => {
    const config = startEnvConfig("http://127.0.0.1:9", baseEnv());
    if (config.redis.server === undefined) throw new Error("expected a Redis server");
    const client = openRedisClient(config.redis.server, "failFast");
    try {
      const error = await new Promise<Error>((resolve) => client.once("error", resolve));
      expect(error.message).toMatch(/self[- ]signed certificate|unable to verify/i);
      expect(client.status).not.toBe("ready");
    } finally {
      client.disconnect();
    }
  });
});
