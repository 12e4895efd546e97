import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, secretValuesOf } from "./index.js";

const tenant = { WHATSAPP_APP_SECRET: "s", WHATSAPP_VERIFY_TOKEN: "v" };
const PEM = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";

function pemDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "ss-redis-config-"));
  for (const name of ["ca.pem", "client.pem", "client.key"]) writeFileSync(join(dir, name), PEM);
  writeFileSync(join(dir, "not-pem.txt"), "hello");
  return dir;
}

function problemsOf(env: Record<string, string>, cwd = pemDir()): readonly string[] {
  try {
    loadConfig({ env: { ...tenant, ...env }, cwd });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error("expected a ConfigError");
}

const load = (env: Record<string, string>, cwd = pemDir()) =>
  loadConfig({ env: { ...tenant, ...env }, cwd }).redis;

describe("Redis topology configuration", () => {
  it("keeps a redis:// URL as it was: one primary, keys under the bare prefix", () => {
    expect(load({ REDIS_URL: "redis://127.0.0.1:6379/2" })).toEqual({
      server: { kind: "single", url: "redis://127.0.0.1:6379/2", tls: undefined },
      prefix: "ss",
      keyPrefix: "ss",
      allowEviction: false,
    });
  });

  it("reads the TLS files of a rediss:// URL once, relative to the working directory", () => {
    const redis = load({
      REDIS_URL: "rediss://:pw@redis.example:6380",
      REDIS_TLS_CA_FILE: "ca.pem",
      REDIS_TLS_CERT_FILE: "client.pem",
      REDIS_TLS_KEY_FILE: "client.key",
    });
    expect(redis.server).toEqual({
      kind: "single",
      url: "rediss://:pw@redis.example:6380",
      tls: { ca: PEM, cert: PEM, key: PEM },
    });
  });

  it("names a missing or non-PEM file, and a certificate without its key", () => {
    const problems = problemsOf({
      REDIS_URL: "rediss://redis.example:6380",
      REDIS_TLS_CA_FILE: "/nowhere/ca.pem",
      REDIS_TLS_CERT_FILE: "not-pem.txt",
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        "REDIS_TLS_CA_FILE: the file /nowhere/ca.pem does not exist",
        expect.stringMatching(/^REDIS_TLS_CERT_FILE: .*not-pem\.txt is not a PEM file/),
        expect.stringMatching(/^REDIS_TLS_CERT_FILE and REDIS_TLS_KEY_FILE: .*set both or neither/),
      ]),
    );
  });

  it("refuses TLS files beside a redis:// URL, and REDIS_TLS or a login beside any URL", () => {
    expect(problemsOf({ REDIS_URL: "redis://h:6379", REDIS_TLS_CA_FILE: "ca.pem" })).toEqual([
      "REDIS_TLS_CA_FILE: REDIS_URL is redis:// (no TLS); use rediss:// for TLS",
    ]);
    expect(problemsOf({ REDIS_URL: "redis://h:6379", REDIS_TLS: "on", REDIS_PASSWORD: "x" })).toHaveLength(2);
  });

  it("maps sentinels, the master name and both logins; the passwords are secrets", () => {
    const config = loadConfig({
      env: {
        ...tenant,
        REDIS_SENTINELS: "10.0.0.1:26379, sentinel-b ,[::1]:26380",
        REDIS_SENTINEL_MASTER: "mymaster",
        REDIS_SENTINEL_PASSWORD: "sentinel-secret",
        REDIS_USERNAME: "app",
        REDIS_PASSWORD: "data-secret",
      },
      cwd: pemDir(),
    });
    expect(config.redis.server).toEqual({
      kind: "sentinel",
      sentinels: [
        { host: "10.0.0.1", port: 26379 },
        { host: "sentinel-b", port: 26379 },
        { host: "::1", port: 26380 },
      ],
      masterName: "mymaster",
      sentinelUsername: undefined,
      sentinelPassword: "sentinel-secret",
      username: "app",
      password: "data-secret",
      tls: undefined,
    });
    expect(config.redis.keyPrefix).toBe("ss");
    expect(secretValuesOf(config)).toEqual(expect.arrayContaining(["sentinel-secret", "data-secret"]));
  });

  it("needs the master name with sentinels, and one topology only", () => {
    expect(problemsOf({ REDIS_SENTINELS: "h:26379" })).toEqual([
      expect.stringMatching(/^REDIS_SENTINEL_MASTER: required with REDIS_SENTINELS/),
    ]);
    expect(problemsOf({ REDIS_URL: "redis://h", REDIS_CLUSTER_NODES: "h:7000" })).toEqual([
      "REDIS_URL and REDIS_CLUSTER_NODES: set only one (a single primary, Sentinel, or a Cluster)",
    ]);
    expect(problemsOf({ REDIS_SENTINELS: "h:x" })[0]).toMatch(/^REDIS_SENTINELS: must be host:port entries/);
  });

  it("hash-tags the prefix with a cluster, and only there unless asked", () => {
    const cluster = load({ REDIS_CLUSTER_NODES: "127.0.0.1:7000,127.0.0.1:7001", REDIS_PREFIX: "shop" });
    expect(cluster.keyPrefix).toBe("{shop}");
    expect(cluster.prefix).toBe("shop");
    expect(cluster.server).toMatchObject({
      kind: "cluster",
      nodes: [
        { host: "127.0.0.1", port: 7000 },
        { host: "127.0.0.1", port: 7001 },
      ],
    });
    expect(load({ REDIS_URL: "redis://h", REDIS_KEY_HASH_TAG: "on" }).keyPrefix).toBe("{ss}");
    expect(problemsOf({ REDIS_CLUSTER_NODES: "h:7000", REDIS_KEY_HASH_TAG: "off" })).toEqual([
      expect.stringMatching(/^REDIS_KEY_HASH_TAG: cannot be off with REDIS_CLUSTER_NODES/),
    ]);
  });

  it("reads TLS files for a cluster only with REDIS_TLS=on, and reports stray Redis settings", () => {
    expect(
      load({ REDIS_CLUSTER_NODES: "h:7000", REDIS_TLS: "on", REDIS_TLS_CA_FILE: "ca.pem" }).server?.tls,
    ).toEqual({ ca: PEM });
    expect(problemsOf({ REDIS_CLUSTER_NODES: "h:7000", REDIS_TLS_CA_FILE: "ca.pem" })).toEqual([
      "REDIS_TLS_CA_FILE: set REDIS_TLS=on too (the files are only read for TLS)",
    ]);
    expect(problemsOf({ REDIS_TLS: "on" })).toEqual([
      "REDIS_TLS: set without REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES",
    ]);
  });
});
